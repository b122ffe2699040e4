import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useFormatMoney } from '../common/money.tsx';
import type { CallApi, OrderRecord } from './record.ts';

/** Statuses Stripe may still change: the order is asked about again. */
const checkable = new Set(['pending', 'flagged', 'expired', 'failed']);

/** "Check with Stripe now" for open orders, a refund with confirmation for paid ones. */
export function OrderActions() {
  const record = useRecordContext<OrderRecord>();
  const call = useDataProvider().call as CallApi;
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [bearer, setBearer] = useState<'vendor' | 'newspaper' | null>(null);
  if (!record) return null;

  const run = async (path: string, done: (order: { id: number; status: string }) => string, body?: unknown) => {
    setBusy(true);
    try {
      const url = path.startsWith('/') ? path : `/api/orders/${record.id}/${path}`;
      const order = (await call(url, { method: 'POST', body })) as { id: number; status: string };
      notify(done(order), { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
      setBearer(null);
    }
  };
  const dispute = record.dispute;
  const decide = () =>
    run(
      `/api/disputes/${dispute?.id ?? ''}/decision`,
      () => translate(`app.order.dispute_decided_${bearer}`, { id: record.id }),
      { bearer },
    );
  const check = () =>
    run('reconcile', (order) =>
      translate('app.order.checked', { id: order.id, status: translate(`app.order.status_${order.status}`) }),
    );
  // A refund Stripe has not finished yet is not booked: the answer says so.
  const refund = () =>
    run('refund', (order) =>
      translate(order.status === 'refunded' ? 'app.order.refunded' : 'app.order.refund_requested', { id: order.id }),
    );

  return (
    <Stack direction="row" spacing={1} onClick={(event) => event.stopPropagation()}>
      {record.stripeSessionId && checkable.has(record.status) && (
        <Button size="small" variant="outlined" disabled={busy} onClick={() => void check()} className="order-check">
          {translate('app.order.check')}
        </Button>
      )}
      {dispute?.needsDecision && (
        <>
          <Button
            size="small"
            variant="outlined"
            color="warning"
            disabled={busy}
            onClick={() => setBearer('vendor')}
            className="dispute-vendor"
          >
            {translate('app.order.dispute_vendor')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={() => setBearer('newspaper')}
            className="dispute-newspaper"
          >
            {translate('app.order.dispute_newspaper')}
          </Button>
          <Confirm
            isOpen={bearer !== null}
            loading={busy}
            title={translate('app.order.dispute_title', { id: record.id })}
            content={translate(`app.order.dispute_content_${bearer ?? 'vendor'}`, {
              amount: formatMoney(dispute.amount),
              vendor: record.vendorLicenseId,
            })}
            onConfirm={() => void decide()}
            onClose={() => setBearer(null)}
          />
        </>
      )}
      {/* An inquiry (Stripe's `warning_…` statuses) leaves the payment refundable; the server asks Stripe. */}
      {record.status === 'paid' && (!record.dispute || record.dispute.status.startsWith('warning_')) && (
        <>
          <Button
            size="small"
            color="error"
            disabled={busy}
            onClick={() => setConfirming(true)}
            className="order-refund"
          >
            {translate('app.order.refund')}
          </Button>
          <Confirm
            isOpen={confirming}
            loading={busy}
            title={translate('app.order.refund_title', { id: record.id })}
            content={translate('app.order.refund_content', { amount: formatMoney(record.amountTotal) })}
            confirm="app.order.refund"
            confirmColor="warning"
            onConfirm={() => void refund()}
            onClose={() => setConfirming(false)}
          />
        </>
      )}
    </Stack>
  );
}
