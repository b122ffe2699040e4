import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { receiptPath, stepPath } from '../route.ts';
import { env, lastVendor, navigate, pendingKey, readStored, restoreFlow, t, type PendingOrder } from '../store.ts';
import { Loading, Screen } from '../ui.tsx';
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
  const tryAgain = () => {
    if (receipt) {
      const cart = Object.fromEntries(receipt.lines.map((line) => [line.item, line.quantity]));
      restoreFlow(receipt.licenseId, cart, receipt.tip);
    }
    // Without a vendor to return to, the start page says how to find one.
    navigate(vendor ? stepPath(vendor, 'confirmation') : '/');
  };
  return (
    <Screen id="shop-failure" title={t('failed')}>
      <p id="shop-failure-text">{t('failedText')}</p>
      {/* Said only of an order the server has as unpaid. */}
      {receipt && <p id="shop-failure-nothing-charged">{t('nothingCharged')}</p>}
      <button type="button" id="shop-try-again" class="shop-button shop-primary" onClick={tryAgain}>
        {t('tryAgain')}
      </button>
    </Screen>
  );
}
