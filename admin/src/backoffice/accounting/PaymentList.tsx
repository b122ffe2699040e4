import DownloadIcon from '@mui/icons-material/Download';
import SummarizeIcon from '@mui/icons-material/Summarize';
import { useMediaQuery, type Theme } from '@mui/material';
import {
  Button,
  DataTable,
  FilterButton,
  ReferenceInput,
  SelectInput,
  SimpleList,
  TextInput,
  TopToolbar,
  useLocale,
  useTranslate,
} from 'react-admin';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { filterParam, periodFilename, useDownload } from '../common/download.ts';
import { DatevExport } from './DatevExport.tsx';
import { ListTotals } from './PaymentTotals.tsx';
import { PeriodList, periodInputs, usePeriodFilter } from './PeriodFilter.tsx';

/** A ledger row as GET /api/payments answers it (the fields these screens show). */
interface PaymentRecord {
  id: number;
  createdAt: string;
  kind: string;
  amount: number;
  senderName: string;
  receiverName: string;
  itemName: string | null;
  quantity: number | null;
}

const filters = [
  ...periodInputs,
  <ReferenceInput key="item" source="item" reference="productsettings" alwaysOn>
    <SelectInput optionText="name" label="resources.payments.fields.item" />
  </ReferenceInput>,
  <TextInput key="vendor" source="vendor" />,
];

/** The sales screen's fixed filter: what customers paid vendors. */
const salesOnly = { kind: 'sales' };

/** CSV of the filtered rows, and (accounting only) each account's statement for the period. */
function Downloads({ accounts, permanent }: { accounts: boolean; permanent?: Record<string, unknown> }) {
  const filterValues = usePeriodFilter();
  const download = useDownload();
  const period = { from: filterValues.from, to: filterValues.to };
  return (
    <>
      <Button
        label="app.books.csv"
        id="books-csv"
        onClick={() =>
          void download(
            `/api/payments?format=csv&${filterParam({ ...filterValues, ...permanent })}`,
            // The sales screen's file holds sales and tips only: named after them, not as the books.
            periodFilename(accounts ? 'buchungen' : 'verkaeufe', period),
          )
        }
      >
        <DownloadIcon />
      </Button>
      {accounts && (
        <Button
          label="app.books.csv_accounts"
          id="books-csv-accounts"
          onClick={() =>
            void download(`/api/payments/accounts?format=csv&${filterParam(period)}`, periodFilename('konten', period))
          }
        >
          <SummarizeIcon />
        </Button>
      )}
      {accounts && <DatevExport period={period} />}
    </>
  );
}

function Actions({ accounts, permanent }: { accounts: boolean; permanent?: Record<string, unknown> }) {
  return (
    <TopToolbar>
      <FilterButton />
      <Downloads accounts={accounts} permanent={permanent} />
    </TopToolbar>
  );
}

/**
 * The ledger's rows, server-side paginated, with the totals of the whole filtered period below.
 * `sales` narrows it to what customers paid vendors (the sales screen); without it, it is the
 * accounting screen with every kind and the per-account export.
 */
export function PaymentList({ sales = false }: { sales?: boolean }) {
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  const kindName = (record: PaymentRecord) => translate(`app.vendor.kind_${record.kind}`, { _: record.kind });
  // What a row is about: its item, or for a tip or a fee its kind.
  const what = (record: PaymentRecord) => record.itemName ?? kindName(record);
  const date = (record: PaymentRecord) => formatDateTime(record.createdAt, locale);
  return (
    <PeriodList
      resource="payments"
      storeKey={sales ? 'sales' : 'payments'}
      title={<PageTitle page={sales ? 'app.page.sales' : 'app.page.accounting'} />}
      filter={sales ? salesOnly : undefined}
      filters={filters}
      actions={<Actions accounts={!sales} permanent={sales ? salesOnly : undefined} />}
    >
      {isSmall ? (
        <SimpleList
          primaryText={(record: PaymentRecord) => `${what(record)}${record.quantity ? ` × ${record.quantity}` : ''}`}
          secondaryText={(record: PaymentRecord) => `${date(record)} · ${record.senderName} → ${record.receiverName}`}
          tertiaryText={(record: PaymentRecord) => formatMoney(record.amount)}
          linkType={false}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="createdAt" render={date} />
          {!sales && <DataTable.Col source="kind" disableSort render={kindName} />}
          <DataTable.Col source="senderName" disableSort />
          <DataTable.Col source="receiverName" disableSort />
          <DataTable.Col
            source="itemName"
            disableSort
            render={(record: PaymentRecord) => (sales ? what(record) : (record.itemName ?? ''))}
          />
          <DataTable.Col source="quantity" disableSort align="right" />
          <DataTable.Col source="amount" align="right" render={(record: PaymentRecord) => formatMoney(record.amount)} />
        </DataTable>
      )}
      <ListTotals permanent={sales ? salesOnly : undefined} />
    </PeriodList>
  );
}
