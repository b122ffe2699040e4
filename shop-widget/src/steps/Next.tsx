import { useState } from 'preact/hooks';
import { checkout } from '../cart.ts';
import { problemText } from '../problems.ts';
import { env, t } from '../store.ts';
import { Alert, GoButton } from '../ui.tsx';
import { at, type StepProps } from './step.ts';

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
