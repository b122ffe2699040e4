import ReplayIcon from '@mui/icons-material/Replay';
import { Box, Button, Chip, Typography, useMediaQuery, type ChipProps, type Theme } from '@mui/material';
import { useState } from 'react';
import {
  DataTable,
  Pagination,
  ReferenceManyField,
  useDataProvider,
  useLocale,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import type { ShopDataProvider } from '../dataProvider.ts';
import { eventTypeLabel, type DeliveryRecord } from './record.ts';

const colours: Record<DeliveryRecord['status'], ChipProps['color']> = {
  pending: 'default',
  delivered: 'success',
  failed: 'error',
};

function DeliveryStatus() {
  const record = useRecordContext<DeliveryRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={colours[record.status]}
      label={translate(`app.webhooks.status_${record.status}`)}
      className={`webhook-status-${record.status}`}
    />
  );
}

/** Sends a delivery again (a staff action the protocol records), whatever became of it. */
function ResendButton() {
  const record = useRecordContext<DeliveryRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const resend = async () => {
    setBusy(true);
    try {
      await dataProvider.call(`/api/webhook-deliveries/${record.id}/resend`, { method: 'POST' });
      notify('app.webhooks.resent', { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="small"
      startIcon={<ReplayIcon />}
      disabled={busy}
      onClick={() => void resend()}
      className="webhook-resend"
      aria-label={`${translate('app.webhooks.resend')} ${record.id}`}
    >
      {translate('app.webhooks.resend')}
    </Button>
  );
}

/** The endpoint's deliveries, newest first, with what the receiver last answered and when it is tried next. */
export function Deliveries() {
  const locale = useLocale() as Locale;
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const when = (value: string | null) => (value ? formatDateTime(value, locale) : '');
  return (
    <Box sx={{ mt: 3 }} id="webhook-deliveries">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate('app.webhooks.deliveries')}
      </Typography>
      <ReferenceManyField
        reference="webhook-deliveries"
        target="endpointId"
        sort={{ field: 'id', order: 'DESC' }}
        perPage={25}
        pagination={<Pagination />}
      >
        <DataTable
          bulkActionButtons={false}
          rowClick={false}
          empty={<p style={{ padding: 16 }}>{translate('app.webhooks.deliveries_empty')}</p>}
        >
          {!isSmall && <DataTable.Col source="createdAt" render={(d: DeliveryRecord) => when(d.createdAt)} />}
          <DataTable.Col source="eventType" render={(d: DeliveryRecord) => translate(eventTypeLabel(d.eventType))} />
          <DataTable.Col source="status" render={() => <DeliveryStatus />} />
          {!isSmall && <DataTable.Col source="attempts" />}
          {!isSmall && (
            <DataTable.Col
              source="lastError"
              disableSort
              render={(d: DeliveryRecord) => (
                <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                  {d.lastError}
                </Box>
              )}
            />
          )}
          {!isSmall && <DataTable.Col source="nextAttemptAt" render={(d: DeliveryRecord) => when(d.nextAttemptAt)} />}
          <DataTable.Col label="" disableSort render={() => <ResendButton />} />
        </DataTable>
      </ReferenceManyField>
    </Box>
  );
}
