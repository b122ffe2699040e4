import { cartLines, editions } from '../cart.ts';
import { assetUrl, env, t } from '../store.ts';
import { External, Go, money, Screen, WithName } from '../ui.tsx';
import { NextToTipping } from './Next.tsx';
import { at, type StepProps } from './step.ts';

export function Landing(props: StepProps) {
  const { vendor } = props;
  const lines = cartLines(env.boot.items, props.flow.value.cart);
  const proof = vendor.accountProofUrl && (
    <External
      id="shop-account-proof"
      class="shop-info-button"
      href={vendor.accountProofUrl}
      label={t('accountProof', { name: vendor.displayName })}
    >
      <span aria-hidden="true">i</span>
    </External>
  );
  const image = assetUrl(lines[0]?.item.image);
  return (
    <Screen
      id="shop-landing"
      title={<WithName text="buyFrom" name={<span id="shop-vendor-name">{vendor.displayName}</span>} />}
      aside={proof}
    >
      {image && <img id="shop-landing-image" class="shop-item-image" src={image} alt="" />}
      {lines.length ? (
        <ul id="shop-cart-lines" class="shop-lines">
          {lines.map((line) => (
            <li key={line.item.id} class="shop-line shop-cart-line" data-item={line.item.id}>
              <span class="shop-line-name">
                {line.quantity} × {line.item.name}
              </span>
              <span class="shop-line-amount">{money(line.amount)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p id="shop-cart-empty">{t('cartEmpty')}</p>
      )}
      <NextToTipping {...props} />
      <nav class="shop-more">
        {editions(env.boot.items) && (
          <Go id="shop-print-digital-link" to={at(props, 'print-digital')}>
            {t('printOrDigital')}
          </Go>
        )}
        <Go id="shop-other-products" to={at(props, 'shop')}>
          {t('otherProducts')}
        </Go>
      </nav>
    </Screen>
  );
}
