import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useFormatCents } from '../common/money.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

/** Statuses Stripe may still change: the order is asked about again. */
const checkable = new Set(['pending', 'flagged', 'expired', 'failed']);

/** "Check with Stripe now" for open orders, a refund with confirmation for paid ones. */
export function OrderActions() {
  const record = useRecordContext<{ id: number; status: string; stripeSessionId: string | null; amountTotal: number }>();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();
  const formatCents = useFormatCents();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (!record) return null;

  const run = async (path: string, done: (order: { id: number; status: string }) => string) => {
    setBusy(true);
    try {
      const order = (await dataProvider.call(`/api/orders/${record.id}/${path}`, { method: 'POST' })) as { id: number; status: string };
      notify(done(order), { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const check = () =>
    run('reconcile', (order) => translate('app.order.checked', { id: order.id, status: translate(`app.order.status_${order.status}`) }));
  const refund = () => run('refund', (order) => translate('app.order.refunded', { id: order.id }));

  return (
    <Stack direction="row" spacing={1} onClick={(event) => event.stopPropagation()}>
      {record.stripeSessionId && checkable.has(record.status) && (
        <Button size="small" variant="outlined" disabled={busy} onClick={() => void check()} className="order-check">
          {translate('app.order.check')}
        </Button>
      )}
      {record.status === 'paid' && (
        <>
          <Button size="small" color="error" disabled={busy} onClick={() => setConfirming(true)} className="order-refund">
            {translate('app.order.refund')}
          </Button>
          <Confirm
            isOpen={confirming}
            loading={busy}
            title={translate('app.order.refund_title', { id: record.id })}
            content={translate('app.order.refund_content', { amount: formatCents(record.amountTotal) })}
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
