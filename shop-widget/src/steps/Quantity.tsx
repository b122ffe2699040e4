import type { ShopItem } from '../boot.ts';
import { quantityLimit, setQuantity } from '../cart.ts';
import { t } from '../store.ts';
import { ShopForm } from '../ui.tsx';
import { update, type StepProps } from './step.ts';

/** − count + for one item; the count is announced when it changes, the API's limit when it is reached. */
export function Quantity(props: StepProps & { item: ShopItem }) {
  const { item } = props;
  const count = props.flow.value.cart[item.id] ?? 0;
  const change = (event: Event, by: number) => {
    event.preventDefault();
    update(props, { cart: setQuantity(props.flow.value.cart, item, count + by) });
  };
  const limit = quantityLimit(item);
  const { name } = item;
  return (
    <>
      <ShopForm class="shop-quantity">
        <button
          type="submit"
          name="quantity"
          value={`${item.id}:${count - 1}`}
          class="shop-quantity-button shop-item-decrease"
          aria-label={t('one', { name })}
          disabled={count === 0}
          onClick={(event) => change(event, -1)}
        >
          −
        </button>
        <output class="shop-item-quantity" aria-live="polite" aria-label={t('quantity', { name })}>
          {count}
        </output>
        <button
          type="submit"
          name="quantity"
          value={`${item.id}:${count + 1}`}
          class="shop-quantity-button shop-item-increase"
          aria-label={t('more', { name })}
          disabled={count >= limit}
          onClick={(event) => change(event, 1)}
        >
          +
        </button>
      </ShopForm>
      {count >= limit && <p class="shop-note shop-quantity-limit">{t('quantityAtLimit', { max: limit, name })}</p>}
    </>
  );
}
