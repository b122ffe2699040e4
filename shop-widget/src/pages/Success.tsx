import { useEffect, useState } from 'preact/hooks';
import { callApi } from '../api.ts';
import { failurePath, receiptPath } from '../route.ts';
import { navigate, t } from '../store.ts';
import { Screen } from '../ui.tsx';
import { retryDelay, unreachable } from './connection.ts';
import { charged, InvalidConfirmation, orderApi, type Receipt } from './Receipt.tsx';
import { ta } from './after-payment-texts.ts';

/** How long the customer watches the countdown (while the server answers "pending") before the payment counts as not confirmed. */
export const waitSeconds = 60;
/** Each ask waits on the server up to this long for the booking, which answers the moment it lands. */
const waitPerAsk = '10';
const askEveryMs = 2000;

/**
 * The verify call's answer: the receipt, and `charged` while Stripe has the money but the booking
 * has not landed.
 */
type Verified = Receipt & { charged?: boolean };

/**
 * Back from Stripe: asks the server (which asks Stripe, then waits for the booking) until the payment
 * is confirmed, with a visible countdown; then the receipt, or the failure page when the order failed.
 * Without Stripe's session id (a shortened or shared link) the order's token alone is asked, as the
 * receipt does. When time runs out the receipt page says the payment is not confirmed yet: a customer
 * Stripe sent here may have paid, so this page never leads to "nothing was charged".
 *
 * A server that does not answer says nothing about the payment: the page says the connection is
 * interrupted and keeps trying, and the countdown counts only the time the server answered "pending"
 * (a restart under load takes longer than the countdown). Once Stripe's word that the card was charged
 * comes back, the page says so and stays until the booking lands, with no countdown: the customer
 * has something true to show the vendor.
 */
export function Success(props: { order: string; sessionId: string }) {
  const [left, setLeft] = useState(waitSeconds);
  const [invalid, setInvalid] = useState(!props.order);
  const [interrupted, setInterrupted] = useState(false);
  const [paidAtStripe, setPaidAtStripe] = useState(false);
  useEffect(() => {
    if (!props.order) return;
    let done = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let away = false;
    let chargedSeen = false;
    let failures = 0;
    let counted = 0;
    let lastTick = Date.now();
    const finish = (to: string) => {
      done = true;
      navigate(to, true);
    };
    const countdown = setInterval(() => {
      const now = Date.now();
      if (!away && !chargedSeen) counted += now - lastTick;
      lastTick = now;
      const seconds = Math.max(0, Math.ceil((waitSeconds * 1000 - counted) / 1000));
      setLeft(seconds);
      if (seconds === 0 && !done) finish(receiptPath(props.order));
    }, 1000);
    const connection = (lost: boolean) => {
      away = lost;
      setInterrupted(lost);
    };
    let verify = Boolean(props.sessionId);
    const ask = async (): Promise<void> => {
      const query = new URLSearchParams({ order: props.order, session_id: props.sessionId, wait: waitPerAsk });
      const answer = await callApi<Verified>(
        verify ? `/api/orders/verify/?${query}` : orderApi(props.order, waitPerAsk),
      );
      if (done) return;
      if (!answer.ok && unreachable(answer.refusal.status)) {
        connection(true);
        failures++;
        retry = setTimeout(() => void ask(), retryDelay(failures));
        return;
      }
      connection(false);
      failures = 0;
      if (answer.ok && charged(answer.body.status)) return finish(receiptPath(props.order));
      if (answer.ok && answer.body.status !== 'pending') return finish(failurePath(props.order));
      if (answer.ok && answer.body.charged) {
        chargedSeen = true;
        setPaidAtStripe(true);
      }
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

  if (invalid) return <InvalidConfirmation />;
  return (
    <Screen id="shop-success" title={ta(paidAtStripe ? 'chargedConfirming' : 'waiting')}>
      {!paidAtStripe && (
        <>
          <p id="shop-countdown" class="shop-countdown" role="timer" aria-live="off">
            <span id="shop-countdown-seconds">{left}</span>
          </p>
          <p id="shop-countdown-text" class="shop-note shop-countdown-unit">
            {/* The number stands above in large; this line only says what it counts. */}
            {ta(left === 1 ? 'secondLeft' : 'secondsLeft')}
          </p>
        </>
      )}
      {/* Present from the start, so a screen reader announces the sentence when it appears. */}
      <div id="shop-success-connection" role="status">
        {interrupted && (
          <p id="shop-success-interrupted" class="shop-note">
            {t('connectionLost')}
          </p>
        )}
      </div>
    </Screen>
  );
}
