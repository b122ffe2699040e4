import LockOpenIcon from '@mui/icons-material/LockOpen';
import { Button } from '@mui/material';
import { useState } from 'react';
import {
  Confirm,
  DataTable,
  List,
  useDelete,
  useLocale,
  useNotify,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { PageTitle } from '../layout/PageTitle.tsx';

/** Lifts an account's locks from every address, after asking, as the owner called the office. */
function UnlockButton() {
  const record = useRecordContext<{ id: string; username: string }>();
  const translate = useTranslate();
  const notify = useNotify();
  const [asking, setAsking] = useState(false);
  const [remove, { isPending }] = useDelete();
  if (!record) return null;
  const unlock = () =>
    remove(
      'login-locks',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () =>
          notify('app.loginlocks.unlocked', { type: 'success', messageArgs: { username: record.username } }),
        onError: (error) => notify((error as Error).message, { type: 'error' }),
        onSettled: () => setAsking(false),
      },
    );
  return (
    <>
      <Button
        size="small"
        startIcon={<LockOpenIcon />}
        onClick={() => setAsking(true)}
        disabled={isPending}
        className="login-lock-unlock"
      >
        {translate('app.loginlocks.unlock')}
      </Button>
      <Confirm
        isOpen={asking}
        loading={isPending}
        title={translate('app.loginlocks.confirm_title', { username: record.username })}
        content={translate('app.loginlocks.confirm_content')}
        onConfirm={() => void unlock()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/**
 * Logins of the embedded provider that an address may not try any more, or that wait between
 * attempts, with the button that lets the owner in again at once.
 */
export function LoginLockList() {
  const locale = useLocale() as Locale;
  const translate = useTranslate();
  return (
    <List
      title={<PageTitle page="app.page.loginlocks" />}
      pagination={false}
      exporter={false}
      empty={false}
      disableSyncWithLocation
    >
      <DataTable
        bulkActionButtons={false}
        rowClick={false}
        empty={<p style={{ padding: 16 }}>{translate('app.loginlocks.empty')}</p>}
      >
        <DataTable.Col source="username" disableSort />
        <DataTable.Col
          source="addresses"
          disableSort
          render={(lock: RaRecord) => (lock.addresses as string[]).join(', ')}
        />
        <DataTable.Col source="attempts" disableSort />
        <DataTable.Col
          source="until"
          disableSort
          render={(lock: RaRecord) => formatDateTime(lock.until as string, locale)}
        />
        <DataTable.Col render={() => <UnlockButton />} />
      </DataTable>
    </List>
  );
}
