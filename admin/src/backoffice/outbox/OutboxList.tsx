import { Box, Chip, useMediaQuery, type ChipProps, type Theme } from '@mui/material';
import { DataTable, List, SelectInput, useLocale, useRecordContext, useTranslate } from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { PageTitle } from '../layout/PageTitle.tsx';

const statuses = ['queued', 'sent', 'stored', 'failed'] as const;

/** A mail as GET /api/outbox answers it (the fields this list shows). */
interface MailRecord {
  id: number;
  orderId: number | null;
  recipient: string;
  subject: string;
  text: string;
  status: (typeof statuses)[number];
  attempts: number;
  lastError: string | null;
  createdAt: string;
}
const colours: Record<string, ChipProps['color']> = {
  queued: 'info',
  sent: 'success',
  stored: 'default',
  failed: 'error',
};

const filters = [
  <SelectInput
    key="status"
    source="status"
    alwaysOn
    choices={statuses.map((status) => ({ id: status, name: `app.outbox.status_${status}` }))}
  />,
];

function MailStatus() {
  const record = useRecordContext<MailRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={colours[record.status]}
      label={translate(`app.outbox.status_${record.status}`)}
      className={`mail-status-${record.status}`}
    />
  );
}

/** A row opens to the mail's text, which staff forward by hand while there is no mail server. */
function MailText() {
  const record = useRecordContext<MailRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ p: 1 }}>
      {record.status === 'stored' && <p>{translate('app.outbox.stored_hint')}</p>}
      {record.lastError && (
        <p>
          {translate('resources.outbox.fields.lastError')}: {record.lastError}
        </p>
      )}
      <Box
        component="pre"
        sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', m: 0 }}
        className="mail-text"
      >
        {record.text}
      </Box>
    </Box>
  );
}

/** Mails to customers (receipts, PDF links) with their delivery status, newest first. */
export function OutboxList() {
  const locale = useLocale() as Locale;
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  return (
    <List
      title={<PageTitle page="app.page.outbox" />}
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
    >
      <DataTable
        bulkActionButtons={false}
        expand={<MailText />}
        rowClick="expand"
        empty={<p style={{ padding: 16 }}>{translate('app.outbox.empty')}</p>}
      >
        <DataTable.Col source="createdAt" render={(mail: MailRecord) => formatDateTime(mail.createdAt, locale)} />
        {!isSmall && <DataTable.Col source="recipient" />}
        <DataTable.Col source="subject" disableSort />
        <DataTable.Col source="status" render={() => <MailStatus />} />
        {!isSmall && (
          <DataTable.Col
            source="orderId"
            disableSort
            render={(mail: MailRecord) => (mail.orderId ? translate('app.outbox.order', { id: mail.orderId }) : '')}
          />
        )}
        {!isSmall && <DataTable.Col source="attempts" disableSort />}
      </DataTable>
    </List>
  );
}
