import { receiptPath } from '../route.ts';
import { pendingKey, readStored, t, type PendingOrder } from '../store.ts';
import { Go, Screen } from '../ui.tsx';
import { at, type StepProps } from './step.ts';

/**
 * On the way to Stripe. Coming back here (Back from the card page, a reload) does not send the
 * customer off again: the card page is one tap away, the order one tap back. Opened without an
 * order this browser started, nothing is on its way: the order, or the order's confirmation.
 */
export function Payment(props: StepProps) {
  const order = props.route.order;
  const pending = order ? readStored<PendingOrder>('session', pendingKey(order)) : undefined;
  return (
    <Screen id="shop-payment" title={t(pending ? 'toPayment' : 'noPayment')}>
      {pending && (
        <a id="shop-continue-payment" class="shop-button shop-primary" href={pending.checkoutUrl}>
          {t('continuePayment')}
        </a>
      )}
      {!pending && order && (
        <Go id="shop-payment-receipt" class="shop-button" to={receiptPath(order)}>
          {t('toReceipt')}
        </Go>
      )}
      <Go
        id="shop-back-to-order"
        class={pending ? 'shop-link shop-back' : 'shop-button shop-primary'}
        to={at(props, 'confirmation')}
      >
        {t('backToOrder')}
      </Go>
    </Screen>
  );
}
