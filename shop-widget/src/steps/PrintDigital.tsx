import { chooseEdition, editions } from '../cart.ts';
import { env, navigate, t } from '../store.ts';
import { Go, money, Screen, ShopForm } from '../ui.tsx';
import { at, update, type StepProps } from './step.ts';

/** The issue in print or as e-paper: the chosen edition replaces the other in the cart. */
export function PrintDigital(props: StepProps) {
  const pair = editions(env.boot.items);
  const cart = props.flow.value.cart;
  const choice = (id: string, label: string, chosen = pair?.print, other = pair?.digital) =>
    chosen &&
    other && (
      <button
        type="submit"
        name="edition"
        value={chosen.id}
        id={id}
        class="shop-button shop-choice"
        aria-pressed={(cart[chosen.id] ?? 0) > 0}
        onClick={(event) => {
          event.preventDefault();
          update(props, { cart: chooseEdition(cart, chosen, other) });
          navigate(at(props, 'landing-page'));
        }}
      >
        <span>{label}</span> <span class="shop-choice-price">{money(chosen.price)}</span>
      </button>
    );
  return (
    <Screen id="shop-print-digital" title={t('printOrDigital')}>
      <ShopForm class="shop-choices">
        {choice('shop-choose-print', t('print'))}
        {choice('shop-choose-digital', t('digital'), pair?.digital, pair?.print)}
      </ShopForm>
      <nav class="shop-more">
        <Go id="shop-information-link" to={at(props, 'information')}>
          {t('difference')}
        </Go>
        <Go id="shop-back" class="shop-link shop-back" to={at(props, 'landing-page')}>
          {t('back')}
        </Go>
      </nav>
    </Screen>
  );
}
