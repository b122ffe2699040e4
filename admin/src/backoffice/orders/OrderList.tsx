import { Chip, useMediaQuery, type ChipProps, type Theme } from '@mui/material';
import {
  AutocompleteInput,
  BooleanInput,
  DataTable,
  List,
  ReferenceInput,
  SelectArrayInput,
  useLocale,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { formatDate, formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { useFormatMoney } from '../common/money.tsx';
import { useVendorLabel } from '../common/vendorLabel.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { OrderActions } from './OrderActions.tsx';
import type { OrderRecord } from './record.ts';

export const orderStatuses = ['pending', 'flagged', 'paid', 'failed', 'expired', 'refunded'] as const;

const colours: Record<string, ChipProps['color']> = {
  pending: 'info',
  flagged: 'warning',
  paid: 'success',
  failed: 'error',
  expired: 'default',
  refunded: 'default',
};

export function OrderStatus() {
  const record = useRecordContext<OrderRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Chip
      size="small"
      color={colours[record.status]}
      label={translate(`app.order.status_${record.status}`)}
      className={`order-status-${record.status}`}
    />
  );
}

const filters = [
  <SelectArrayInput
    key="status"
    source="status"
    alwaysOn
    choices={orderStatuses.map((status) => ({ id: status, name: `app.order.status_${status}` }))}
    sx={{ minWidth: 220 }}
  />,
  <ReferenceInput key="vendor" source="vendor" reference="vendorsummary">
    <AutocompleteInput label="app.order.vendor" helperText={false} sx={{ minWidth: 220 }} />
  </ReferenceInput>,
  <BooleanInput key="attention" source="attention" label="app.order.attention" helperText={false} />,
];

/** What Stripe still does with the money: a refund's status, a chargeback with its amount and deadline. */
function StripeState() {
  const record = useRecordContext<OrderRecord>();
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  if (!record) return null;
  const refund = record.refundStatus && record.refundStatus !== 'succeeded' && (
    <Chip
      size="small"
      color={record.refundStatus === 'failed' ? 'error' : 'info'}
      className={`refund-status-${record.refundStatus}`}
      label={translate(`app.order.refund_${record.refundStatus}`, { _: record.refundStatus })}
    />
  );
  const partly = record.status === 'paid' && record.amountRefunded > 0 && (
    <Chip
      size="small"
      color="info"
      className="order-partly-refunded"
      label={translate('app.order.partly_refunded', { amount: formatMoney(record.amountRefunded) })}
    />
  );
  // Radar's warning: refunding now may spare a chargeback and its fee.
  const fraud = record.fraudWarning && record.status === 'paid' && !record.dispute && (
    <Chip
      size="small"
      color="warning"
      className="order-fraud-warning"
      label={translate('app.order.fraud_warning', { type: record.fraudWarning })}
    />
  );
  const dispute = record.dispute && (
    <Chip
      size="small"
      color={record.dispute.needsDecision ? 'warning' : 'default'}
      className="order-dispute"
      label={translate(
        record.dispute.bearer ? `app.order.dispute_borne_${record.dispute.bearer}` : 'app.order.dispute',
        {
          amount: formatMoney(record.dispute.amount),
          due: record.dispute.evidenceDueBy ? formatDate(record.dispute.evidenceDueBy, locale) : '–',
          status: record.dispute.status,
        },
      )}
    />
  );
  return (
    <>
      {partly}
      {refund}
      {fraud}
      {dispute}
    </>
  );
}

/**
 * Orders that need a look: by default the open and flagged ones, which a lost webhook or an
 * amount that did not match left behind.
 */
export function OrderList() {
  const vendorLabel = useVendorLabel();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const when = (record: OrderRecord) => (record.createdAt ? formatDateTime(record.createdAt, locale) : '');
  return (
    <List
      title={<PageTitle page="app.page.orders" />}
      filters={filters}
      filterDefaultValues={{ status: ['pending', 'flagged'] }}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
    >
      <DataTable bulkActionButtons={false} rowClick={false} empty={<EmptyOrders />}>
        {isSmall && (
          // A phone has room for three columns: the order in one, then its status and actions.
          <DataTable.Col
            source="id"
            label="app.order.order"
            render={(record: OrderRecord) => (
              <>
                #{record.id} · {formatMoney(record.amountTotal)}
                <br />
                {when(record)}
                <br />
                {record.vendorLicenseId ?? vendorLabel({ id: record.vendorId, licenseId: null, name: '' })}
              </>
            )}
          />
        )}
        {!isSmall && <DataTable.Col source="id" />}
        {!isSmall && <DataTable.Col source="createdAt" render={when} />}
        {!isSmall && (
          <DataTable.Col
            label="app.order.vendor"
            disableSort
            render={(record: OrderRecord) =>
              vendorLabel({ id: record.vendorId, licenseId: record.vendorLicenseId, name: record.vendorName })
            }
          />
        )}
        {!isSmall && (
          <DataTable.Col
            source="amountTotal"
            align="right"
            render={(record: OrderRecord) => formatMoney(record.amountTotal)}
          />
        )}
        <DataTable.Col source="status" render={() => <OrderStatus />} />
        {!isSmall && (
          <DataTable.Col source="flagReason" disableSort render={(record: OrderRecord) => record.flagReason ?? ''} />
        )}
        <DataTable.Col label="app.order.stripe" disableSort render={() => <StripeState />} />
        <DataTable.Col label="app.vendor.actions" disableSort render={() => <OrderActions />} />
      </DataTable>
    </List>
  );
}

function EmptyOrders() {
  const translate = useTranslate();
  return <p style={{ padding: 16 }}>{translate('app.order.empty')}</p>;
}
