import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { failurePath, receiptPath } from '../route.ts';
import { navigate, t } from '../store.ts';
import { Screen } from '../ui.tsx';
import { charged, orderApi, type Receipt } from './Receipt.tsx';
import { WayOn } from './WayOn.tsx';

/** How long the customer watches the countdown before the payment counts as not confirmed. */
export const waitSeconds = 60;
/** Each ask waits on the server up to this long for the booking, which answers the moment it lands. */
const waitPerAsk = '10';
const askEveryMs = 2000;

/**
 * Back from Stripe: asks the server (which asks Stripe, then waits for the booking) until the payment
 * is confirmed, with a visible countdown; then the receipt, or the failure page when the order failed.
 * Without Stripe's session id (a shortened or shared link) the order's token alone is asked, as the
 * receipt does. When time runs out the receipt page says the payment is not confirmed yet: a customer
 * Stripe sent here may have paid, so this page never leads to "nothing was charged".
 */
export function Success(props: { order: string; sessionId: string }) {
  const [left, setLeft] = useState(waitSeconds);
  const [invalid, setInvalid] = useState(!props.order);
  useEffect(() => {
    if (!props.order) return;
    const deadline = Date.now() + waitSeconds * 1000;
    let done = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const finish = (to: string) => {
      done = true;
      navigate(to, true);
    };
    const countdown = setInterval(() => {
      const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(seconds);
      if (seconds === 0 && !done) finish(receiptPath(props.order));
    }, 1000);
    let verify = Boolean(props.sessionId);
    const ask = async (): Promise<void> => {
      const query = new URLSearchParams({ order: props.order, session_id: props.sessionId, wait: waitPerAsk });
      const answer = await callApi<Receipt>(
        verify ? `/api/orders/verify/?${query}` : orderApi(props.order, waitPerAsk),
      );
      if (done) return;
      if (answer.ok && charged(answer.body.status)) return finish(receiptPath(props.order));
      if (answer.ok && answer.body.status !== 'pending') return finish(failurePath(props.order));
      if (!answer.ok && answer.refusal.status === 404) {
        // A session id that is not the order's: the token alone still names the order.
        if (verify) {
          verify = false;
          return ask();
        }
        done = true;
        return setInvalid(true);
      }
      retry = setTimeout(() => void ask(), askEveryMs);
    };
    void ask();
    return () => {
      done = true;
      clearInterval(countdown);
      clearTimeout(retry);
    };
  }, [props.order, props.sessionId]);

  if (invalid)
    return (
      <Screen id="shop-receipt-problem" titleId="shop-receipt-invalid" title={t('invalidConfirmation')}>
        <WayOn />
      </Screen>
    );
  return (
    <Screen id="shop-success" title={t('waiting')}>
      <p id="shop-countdown" class="shop-countdown" role="timer" aria-live="off">
        <span id="shop-countdown-seconds">{left}</span>
      </p>
      <p id="shop-countdown-text" class="shop-note shop-countdown-unit">
        {/* The number stands above in large; this line only says what it counts. */}
        {t(left === 1 ? 'secondLeft' : 'secondsLeft')}
      </p>
    </Screen>
  );
}
