import DownloadIcon from '@mui/icons-material/Download';
import { Box, Card, CardContent, Chip, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  DataTable,
  FilterButton,
  NullableBooleanInput,
  ReferenceInput,
  SelectInput,
  SimpleList,
  TextInput,
  TopToolbar,
  useDataProvider,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { formatDate, formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { filterParam, periodFilename, useDownload } from '../common/download.ts';
import { PeriodList, periodInputs, usePeriodFilter } from '../accounting/PeriodFilter.tsx';
import { useFormatMoney } from '../common/money.tsx';
import { useVendorLabel } from '../common/vendorLabel.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { ReceiptButton } from './Receipt.tsx';
import { ReverseButton, type PayoutRecord } from './ReverseButton.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

interface PayoutItem {
  itemId: number | null;
  kind: string;
  itemName: string;
  quantity: number;
  amount: number;
}

/** A payout as GET /api/payouts answers it. */
interface PayoutListRecord extends PayoutRecord {
  createdAt: string;
  authorisedBy: string;
  reversedAt: string | null;
  reversedBy: string | null;
  reversalReason: string | null;
  /** The voucher of the cash that came back with the reversal. */
  reversalVoucher: string | null;
  items: PayoutItem[];
}

const filters = [
  ...periodInputs,
  <TextInput key="vendor" source="vendor" alwaysOn />,
  <ReferenceInput key="item" source="item" reference="productsettings">
    <SelectInput optionText="name" label="resources.payouts.fields.item" />
  </ReferenceInput>,
  <NullableBooleanInput key="reversed" source="reversed" />,
];

function Actions() {
  const filterValues = usePeriodFilter();
  const download = useDownload();
  return (
    <TopToolbar>
      <FilterButton />
      <Button
        label="app.books.csv"
        id="payouts-csv"
        onClick={() =>
          void download(
            `/api/payouts?format=csv&${filterParam(filterValues)}`,
            periodFilename('auszahlungen', filterValues),
          )
        }
      >
        <DownloadIcon />
      </Button>
    </TopToolbar>
  );
}

/** What the payout settled, one line per item: "Zeitung × 3: 7,50 €". */
function Settled() {
  const record = useRecordContext<PayoutListRecord>();
  const formatMoney = useFormatMoney();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {record.items.map((item) => (
        <li key={`${item.kind}-${item.itemId}`}>
          {item.kind === 'item' ? item.itemName : translate(`app.vendor.kind_${item.kind}`, { _: item.itemName })} ×{' '}
          {item.quantity}: {formatMoney(item.amount)}
        </li>
      ))}
    </Box>
  );
}

function Reversed() {
  const record = useRecordContext<PayoutListRecord>();
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  if (!record?.reversed || record.reversedAt === null) return null;
  const detail = translate('app.books.reversed_detail', {
    date: formatDate(record.reversedAt, locale),
    name: record.reversedBy,
    reason: record.reversalReason,
  });
  return (
    <Tooltip title={detail}>
      <Chip size="small" label={translate('app.books.reversed')} className="payout-reversed" aria-label={detail} />
    </Tooltip>
  );
}

function RowActions() {
  const record = useRecordContext<PayoutListRecord>();
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap' }}>
      <ReceiptButton payoutId={record.id} voucher={record.voucher} />
      {record.reversalVoucher && <ReceiptButton payoutId={record.id} voucher={record.reversalVoucher} reversal />}
      {!record.reversed && <ReverseButton payout={record} />}
    </Box>
  );
}

interface PayoutTotals {
  count: number;
  amount: number;
  reversedCount: number;
  reversedAmount: number;
}

/** GET /api/payouts/totals: the whole filtered period, not only the page. */
function Totals() {
  const filterValues = usePeriodFilter();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const { data, error } = useQuery({
    queryKey: ['payouts', 'totals', filterValues],
    queryFn: () => dataProvider.call(`/api/payouts/totals?${filterParam(filterValues)}`) as Promise<PayoutTotals>,
  });
  return (
    <Card sx={{ mt: 2 }} id="payouts-totals">
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate('app.books.totals')}
        </Typography>
        {error ? (
          <Typography color="error">{translate('app.books.totals_failed', { message: error.message })}</Typography>
        ) : !data ? (
          <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>
        ) : (
          <>
            <Typography sx={{ fontWeight: 700 }} id="payouts-total">
              {translate('app.books.payouts_total', { smart_count: data.count, amount: formatMoney(data.amount) })}
            </Typography>
            {data.reversedCount > 0 && (
              <Typography color="text.secondary">
                {translate('app.books.reversed_total', {
                  count: data.reversedCount,
                  amount: formatMoney(data.reversedAmount),
                })}
              </Typography>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** /payouts: every payout with what it settled, who paid it out, its receipt and its reversal. */
export function PayoutList() {
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  const vendorLabel = useVendorLabel();
  const vendor = (record: PayoutListRecord) => vendorLabel(record.vendor);
  return (
    <PeriodList title={<PageTitle page="app.page.payouts" />} filters={filters} actions={<Actions />}>
      {isSmall ? (
        <SimpleList
          primaryText={(record: PayoutListRecord) => `${formatMoney(record.amount)} · ${vendor(record)}`}
          secondaryText={(record: PayoutListRecord) =>
            `${record.voucher} · ${formatDateTime(record.createdAt, locale)} · ${record.authorisedBy}`
          }
          tertiaryText={() => (
            <>
              <Reversed />
              <RowActions />
            </>
          )}
          linkType={false}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="voucher" />
          <DataTable.Col
            source="createdAt"
            render={(record: PayoutListRecord) => formatDateTime(record.createdAt, locale)}
          />
          <DataTable.Col source="vendor" render={vendor} />
          <DataTable.Col
            source="amount"
            align="right"
            render={(record: PayoutListRecord) => formatMoney(record.amount)}
          />
          <DataTable.Col source="items" disableSort render={() => <Settled />} />
          <DataTable.Col source="authorisedBy" disableSort />
          <DataTable.Col source="reversed" disableSort render={() => <Reversed />} />
          <DataTable.Col label="app.vendor.actions" disableSort render={() => <RowActions />} />
        </DataTable>
      )}
      <Totals />
    </PeriodList>
  );
}
