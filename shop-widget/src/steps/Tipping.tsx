import { useState } from 'preact/hooks';
import { checkout } from '../cart.ts';
import { env, navigate, t } from '../store.ts';
import { Alert, Go, money, Screen } from '../ui.tsx';
import { itemsCheckout, problemText } from './Next.tsx';
import { at, update, type StepProps } from './step.ts';

/** The preset tips, in cents. */
export const tipPresets = [200, 100];

/** Tip or donation (the label follows UseTipInsteadOfDonation): one tap chooses and moves on. */
export function Tipping(props: StepProps) {
  const chosen = props.flow.value.tip;
  const items = itemsCheckout(props);
  // A tip that lifts the total to the maximum is refused here, where it is chosen.
  const [problem, setProblem] = useState(() => problemText(items));
  const choose = (tip: number) => {
    const refused = problemText(checkout(env.boot.items, props.flow.value.cart, tip, env.boot.settings.maxOrderAmount));
    if (refused) return setProblem(refused);
    update(props, { tip });
    navigate(at(props, 'confirmation'));
  };
  const custom = chosen !== null && chosen > 0 && !tipPresets.includes(chosen);
  return (
    <Screen id="shop-tipping" title={t(env.boot.settings.useTipInsteadOfDonation ? 'tipTitle' : 'donationTitle')}>
      <div class="shop-choices">
        {tipPresets.map((tip) => (
          <button
            type="button"
            key={tip}
            id={`shop-tip-${tip}`}
            class="shop-button shop-choice shop-tip-preset"
            aria-pressed={chosen === tip}
            onClick={() => choose(tip)}
          >
            {money(tip)}
          </button>
        ))}
        <button
          type="button"
          id="shop-tip-other"
          class="shop-button shop-choice"
          aria-pressed={custom}
          onClick={() => navigate(at(props, 'custom-tip'))}
        >
          {t('otherAmount')}
          {custom && <span class="shop-choice-price"> ({money(chosen)})</span>}
        </button>
        <button
          type="button"
          id="shop-tip-none"
          class="shop-button shop-choice"
          aria-pressed={chosen === 0}
          onClick={() => choose(0)}
        >
          {t('notToday')}
        </button>
      </div>
      {problem && <Alert id="shop-tip-problem">{problem}</Alert>}
      {items.problem && (
        <Go id="shop-tip-products" class="shop-button" to={at(props, 'shop')}>
          {t('toShop')}
        </Go>
      )}
      <Go id="shop-back" class="shop-link shop-back" to={at(props, 'landing-page')}>
        {t('back')}
      </Go>
    </Screen>
  );
}
