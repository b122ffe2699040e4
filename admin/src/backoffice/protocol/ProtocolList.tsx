import { useMediaQuery, type Theme } from '@mui/material';
import { DataTable, DateInput, List, TextInput, useLocale, useTranslate } from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { ProtocolChanges } from './Changes.tsx';

/** A protocol entry as GET /api/protocol answers it (the fields this list shows itself). */
interface ProtocolRecord {
  id: number;
  at: string;
  username: string | null;
  action: string;
  recordType: string | null;
  recordId: string | null;
}

const filters = [
  <TextInput key="user" source="user" alwaysOn helperText={false} />,
  <TextInput key="recordType" source="recordType" helperText={false} />,
  <TextInput key="recordId" source="recordId" helperText={false} />,
  <TextInput key="action" source="action" helperText={false} />,
  <DateInput key="from" source="from" helperText={false} />,
  <DateInput key="to" source="to" helperText={false} />,
];

/** What staff (and the payment events) changed, newest first. */
export function ProtocolList() {
  const locale = useLocale() as Locale;
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const record = (entry: ProtocolRecord) =>
    entry.recordType ? `${entry.recordType} ${entry.recordId ?? ''}`.trim() : '';
  return (
    <List
      title={<PageTitle page="app.page.protocol" />}
      filters={filters}
      sort={{ field: 'at', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
    >
      <DataTable
        bulkActionButtons={false}
        rowClick={false}
        empty={<p style={{ padding: 16 }}>{translate('app.protocol.empty')}</p>}
      >
        {isSmall && (
          // A phone has room for two columns: who did what to which record, then the changes.
          <DataTable.Col
            source="at"
            render={(entry: ProtocolRecord) => (
              <>
                {formatDateTime(entry.at, locale)}
                <br />
                {entry.username ?? translate('app.protocol.system')}: {entry.action}
                <br />
                {record(entry)}
              </>
            )}
          />
        )}
        {!isSmall && <DataTable.Col source="at" render={(entry: ProtocolRecord) => formatDateTime(entry.at, locale)} />}
        {!isSmall && (
          <DataTable.Col
            source="username"
            render={(entry: ProtocolRecord) => entry.username ?? translate('app.protocol.system')}
          />
        )}
        {!isSmall && <DataTable.Col source="action" />}
        {!isSmall && <DataTable.Col label="app.protocol.record" source="recordType" render={record} />}
        <DataTable.Col label="app.protocol.changes" disableSort render={() => <ProtocolChanges />} />
      </DataTable>
    </List>
  );
}
