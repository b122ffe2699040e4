import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { receiptPath, stepPath } from '../route.ts';
import { env, lastVendor, navigate, pendingKey, readStored, restoreFlow, t, type PendingOrder } from '../store.ts';
import { Loading, Screen } from '../ui.tsx';
import { ta } from './after-payment-texts.ts';
import { charged, orderApi, type Receipt } from './Receipt.tsx';

/**
 * Cancelled, declined or never confirmed, as the server has the order: an order that was paid leads
 * to its receipt instead (Back button, a second tab, a shared link). "Try again" returns to the
 * confirmation with the order's own lines and tip from the server, in this browser or any other.
 */
export function Failure(props: { order: string }) {
  // null: the server knows no such order (or could not be asked).
  const [receipt, setReceipt] = useState<Receipt | null>();
  useEffect(() => {
    if (!props.order) return setReceipt(null);
    void callApi<Receipt>(orderApi(props.order)).then((answer) => {
      if (answer.ok && charged(answer.body.status)) navigate(receiptPath(props.order), true);
      else setReceipt(answer.ok ? answer.body : null);
    });
  }, [props.order]);
  if (receipt === undefined) return <Loading label={t('loading')} />;
  const vendor =
    receipt?.licenseId ??
    readStored<PendingOrder>('session', pendingKey(props.order))?.vendor ??
    env.licenceId ??
    lastVendor();
  const tryAgain = async () => {
    // Paid meanwhile, on another device: the receipt, not a second order of the same cart.
    const now = receipt && (await callApi<Receipt>(orderApi(receipt.order)));
    if (now && now.ok && charged(now.body.status)) return navigate(receiptPath(receipt.order), true);
    if (receipt) {
      const cart = Object.fromEntries(receipt.lines.map((line) => [line.item, line.quantity]));
      restoreFlow(receipt.licenseId, cart, receipt.tip, receipt.order);
    }
    // Without a vendor to return to, the start page says how to find one.
    navigate(vendor ? stepPath(vendor, 'confirmation') : '/');
  };
  return <FailureView receipt={receipt} tryAgain={() => void tryAgain()} />;
}

/**
 * The failure as it reads: said to be unpaid only of an order the server has as unpaid; "Try again"
 * is the script's button, or, drawn by the server for a browser without the script, a link to the
 * confirmation, where that browser's visit keeps the cart.
 */
export function FailureView({ receipt, tryAgain }: { receipt: Receipt | null; tryAgain: (() => void) | string }) {
  return (
    <Screen id="shop-failure" title={t('failed')}>
      <p id="shop-failure-text">{ta('failedText')}</p>
      {receipt && <p id="shop-failure-nothing-charged">{ta('nothingCharged')}</p>}
      {typeof tryAgain === 'string' ? (
        <a id="shop-try-again" class="shop-button shop-primary" href={tryAgain}>
          {ta('tryAgain')}
        </a>
      ) : (
        <button type="button" id="shop-try-again" class="shop-button shop-primary" onClick={tryAgain}>
          {ta('tryAgain')}
        </button>
      )}
    </Screen>
  );
}
