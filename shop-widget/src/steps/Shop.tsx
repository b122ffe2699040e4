import { cartLines, itemsTotal } from '../cart.ts';
import { assetUrl, env, t } from '../store.ts';
import { Go, money, Screen } from '../ui.tsx';
import { NextToTipping } from './Next.tsx';
import { Quantity } from './Quantity.tsx';
import { at, type StepProps } from './step.ts';

/**
 * Every item for sale with − / + (`shop` and `items`), or the items beside the main one
 * (`additionalproducts`). The sum is shown as it grows, and when it reaches the maximum.
 */
export function Shop(props: StepProps) {
  const others = props.route.step === 'additionalproducts';
  const items = env.boot.items.filter((item) => !(others && item.isMainProduct));
  const sum = itemsTotal(cartLines(env.boot.items, props.flow.value.cart));
  return (
    <Screen id="shop-shop" title={t(others ? 'otherProducts' : 'shopTitle')}>
      <ul id="shop-items" class="shop-items">
        {items.map((item) => {
          const image = assetUrl(item.image);
          return (
            <li
              key={item.id}
              class="shop-item"
              data-item={item.id}
              style={item.color ? { background: item.color, color: item.fontColor ?? undefined } : undefined}
            >
              {image && <img class="shop-item-image" src={image} alt="" loading="lazy" />}
              <div class="shop-item-text">
                <h2 class="shop-item-name">{item.name}</h2>
                <p class="shop-item-price">{money(item.price)}</p>
                <Go class="shop-link shop-item-details" to={at(props, 'item-available', `?item=${item.id}`)}>
                  <span aria-hidden="true">Details</span>
                  <span class="shop-visually-hidden">{t('details', { name: item.name })}</span>
                </Go>
              </div>
              <Quantity {...props} item={item} />
            </li>
          );
        })}
      </ul>
      <p id="shop-cart-total" class="shop-total">
        {t('total')}: {money(sum)}
      </p>
      <NextToTipping {...props} />
      <Go id="shop-back" class="shop-link shop-back" to={at(props, 'landing-page')}>
        {t('back')}
      </Go>
    </Screen>
  );
}
