import { useEffect, useState } from 'preact/hooks';
import { checkout } from '../cart.ts';
import { problemText } from '../problems.ts';
import { env, navigate, refusalOf, t } from '../store.ts';
import { Alert, ShopForm } from '../ui.tsx';
import { at, type StepProps } from './step.ts';

/** The items as chosen so far, without a tip. */
export const itemsCheckout = (props: StepProps) =>
  checkout(env.boot.items, props.flow.value.cart, 0, env.boot.settings.maxOrderAmount);

/**
 * "Next" from where the items are chosen: a cart the API would refuse is reported here, not at the
 * confirmation. A total above the maximum shows as soon as it is reached; an empty cart when it is
 * taken further. Without the script the server answers the form the same way.
 */
export function NextToTipping(props: StepProps) {
  const [tried, setTried] = useState(() => Boolean(refusalOf(props.route.step, 'next')));
  const summary = itemsCheckout(props);
  const problem = (tried || summary.problem === 'tooHigh') && problemText(summary);
  return (
    <>
      {problem && <Alert id="shop-cart-problem">{problem}</Alert>}
      <ShopForm
        onSubmit={(event) => {
          event.preventDefault();
          if (summary.problem) setTried(true);
          else navigate(at(props, 'tipping'));
        }}
      >
        <button
          type="submit"
          name="next"
          value="tipping"
          id="shop-next"
          class="shop-button shop-primary"
          aria-describedby={problem ? 'shop-cart-problem' : undefined}
        >
          {t('next')}
        </button>
      </ShopForm>
    </>
  );
}

/** The tip and its amount need something in the cart: an empty cart goes back to the products. */
export function useItemsFirst(props: StepProps): void {
  const empty = itemsCheckout(props).problem === 'empty';
  const products = at(props, 'shop');
  useEffect(() => {
    if (empty) navigate(products, true);
  }, [empty, products]);
}
