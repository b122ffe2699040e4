import { assetUrl, env, t } from '../store.ts';
import { Go, money, Screen } from '../ui.tsx';
import { Quantity } from './Quantity.tsx';
import { at, type StepProps } from './step.ts';

/** One item in detail, with the reminder that the vendor may not carry it today. */
export function ItemAvailable(props: StepProps) {
  const item = env.boot.items.find((candidate) => candidate.id === props.route.item);
  const back = (
    <Go id="shop-back" class="shop-link shop-back" to={at(props, 'shop')}>
      {t('toShop')}
    </Go>
  );
  // An address without an item, or with one no longer sold: say so, and lead to the products.
  if (!item)
    return (
      <Screen id="shop-item-available" title={t('itemUnknown')}>
        <Go id="shop-back" class="shop-button shop-primary" to={at(props, 'shop')}>
          {t('toShop')}
        </Go>
      </Screen>
    );
  const image = assetUrl(item.image);
  return (
    <Screen id="shop-item-available" title={item.name}>
      {image && <img class="shop-item-image" src={image} alt="" />}
      <p id="shop-item-available-price" class="shop-item-price">
        {money(item.price)}
      </p>
      {item.description && <p id="shop-item-available-description">{item.description}</p>}
      <p id="shop-item-available-text" class="shop-note">
        {t('askVendor')}
      </p>
      <Quantity {...props} item={item} />
      {back}
    </Screen>
  );
}
