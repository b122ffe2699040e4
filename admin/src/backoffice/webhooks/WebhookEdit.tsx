import KeyIcon from '@mui/icons-material/Key';
import { Button, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Confirm,
  Edit,
  ListButton,
  SaveButton,
  Toolbar,
  TopToolbar,
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
import { PageTitle } from '../layout/PageTitle.tsx';
import { Deliveries } from './Deliveries.tsx';
import type { EndpointRecord } from './record.ts';
import { SecretDialog } from './SecretDialog.tsx';
import { WebhookForm } from './WebhookForm.tsx';

/** Makes a new secret after asking; the old one stops signing at once. */
function RotateSecret() {
  const record = useRecordContext<EndpointRecord>();
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string>();
  if (!record) return null;
  const rotate = async () => {
    setBusy(true);
    try {
      const answer = (await dataProvider.call(`/api/webhook-endpoints/${record.id}/secret`, {
        method: 'POST',
      })) as EndpointRecord;
      setSecret(answer.secret);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <>
      <Typography variant="body2" sx={{ mr: 2 }}>
        {translate('app.webhooks.secret_set_at', { date: formatDateTime(record.secretSetAt, locale) })}
      </Typography>
      <Button startIcon={<KeyIcon />} onClick={() => setAsking(true)} disabled={busy} id="webhook-rotate">
        {translate('app.webhooks.rotate')}
      </Button>
      <Confirm
        isOpen={asking}
        loading={busy}
        title={translate('app.webhooks.rotate_title')}
        content={translate('app.webhooks.rotate_content')}
        onConfirm={() => void rotate()}
        onClose={() => setAsking(false)}
      />
      <SecretDialog
        secret={secret}
        onClose={() => {
          setSecret(undefined);
          refresh();
        }}
      />
    </>
  );
}

/** An endpoint: its fields, its secret's date with the rotation, and its deliveries. */
export function WebhookEdit() {
  return (
    <Edit
      title={<PageTitle page="app.page.edit_webhook" />}
      actions={
        <TopToolbar sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <RotateSecret />
          <ListButton />
        </TopToolbar>
      }
      mutationMode="pessimistic"
      redirect={false}
      aside={undefined}
    >
      <WebhookForm
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      />
      <Deliveries />
    </Edit>
  );
}
