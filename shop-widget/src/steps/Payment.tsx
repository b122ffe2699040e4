import { pendingKey, readStored, t, type PendingOrder } from '../store.ts';
import { Go, Screen } from '../ui.tsx';
import { at, type StepProps } from './step.ts';

/**
 * On the way to Stripe. Coming back here (Back from the card page, a reload) does not send the
 * customer off again: the card page is one tap away, the order one tap back.
 */
export function Payment(props: StepProps) {
  const order = props.route.order;
  const pending = order ? readStored<PendingOrder>('session', pendingKey(order)) : undefined;
  return (
    <Screen id="shop-payment" title={t('toPayment')}>
      {pending && (
        <a id="shop-continue-payment" class="shop-button shop-primary" href={pending.checkoutUrl}>
          {t('continuePayment')}
        </a>
      )}
      <Go id="shop-back-to-order" class="shop-link shop-back" to={at(props, 'confirmation')}>
        {t('backToOrder')}
      </Go>
    </Screen>
  );
}
