import { useMediaQuery, type Theme } from '@mui/material';
import { DataTable, List, TextInput, useLocale, useTranslate } from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import { DayField } from '../common/DayInput.tsx';
import type { Locale } from '../../shared/locale.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import type { ProtocolEntry } from '../../../../api/src/protocol/queries.ts';
import { ProtocolChanges, ProtocolRecordName } from './Changes.tsx';

const filters = [
  <TextInput key="user" source="user" alwaysOn helperText={false} />,
  <TextInput key="recordType" source="recordType" helperText={false} />,
  <TextInput key="recordId" source="recordId" helperText={false} />,
  <TextInput key="action" source="action" helperText={false} />,
  <DayField key="from" source="from" filter />,
  <DayField key="to" source="to" filter />,
];

/** What staff (and the payment events) changed, newest first. */
export function ProtocolList() {
  const locale = useLocale() as Locale;
  const translate = useTranslate();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
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
            render={(entry: ProtocolEntry) => (
              <>
                {formatDateTime(entry.at, locale)}
                <br />
                {entry.username ?? translate('app.protocol.system')}: <ProtocolRecordName entry={entry} />
              </>
            )}
          />
        )}
        {!isSmall && <DataTable.Col source="at" render={(entry: ProtocolEntry) => formatDateTime(entry.at, locale)} />}
        {!isSmall && (
          <DataTable.Col
            source="username"
            render={(entry: ProtocolEntry) => entry.username ?? translate('app.protocol.system')}
          />
        )}
        {!isSmall && (
          <DataTable.Col
            label="app.protocol.record"
            source="recordType"
            render={(entry: ProtocolEntry) => <ProtocolRecordName entry={entry} />}
          />
        )}
        <DataTable.Col label="app.protocol.changes" disableSort render={() => <ProtocolChanges />} />
      </DataTable>
    </List>
  );
}
