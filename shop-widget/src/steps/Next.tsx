import { useState } from 'preact/hooks';
import { checkout, type Checkout } from '../cart.ts';
import { env, t } from '../store.ts';
import { Alert, GoButton, money } from '../ui.tsx';
import { at, type StepProps } from './step.ts';

/** Why an order cannot be paid, in words: the same limits the API refuses with. */
export function problemText(summary: Checkout): string | undefined {
  const max = env.boot.settings.maxOrderAmount;
  switch (summary.problem) {
    case 'empty':
      return t('cartEmpty');
    case 'donationOnly':
      return t('donationOnly');
    case 'tooHigh':
      return t('tooHigh', { total: money(summary.total), max: money(max) });
  }
}

/** The items as chosen so far, without a tip. */
export const itemsCheckout = (props: StepProps) =>
  checkout(env.boot.items, props.flow.value.cart, 0, env.boot.settings.maxOrderAmount);

/**
 * "Next" from where the items are chosen: a cart the API would refuse is reported here, not at the
 * confirmation. A total above the maximum shows as soon as it is reached; an empty cart when it is
 * taken further.
 */
export function NextToTipping(props: StepProps) {
  const [tried, setTried] = useState(false);
  const summary = itemsCheckout(props);
  const problem = (tried || summary.problem === 'tooHigh') && problemText(summary);
  return (
    <>
      {problem && <Alert id="shop-cart-problem">{problem}</Alert>}
      <GoButton
        id="shop-next"
        to={at(props, 'tipping')}
        describedBy={problem ? 'shop-cart-problem' : undefined}
        canGo={() => {
          if (summary.problem) setTried(true);
          return !summary.problem;
        }}
      >
        {t('next')}
      </GoButton>
    </>
  );
}
