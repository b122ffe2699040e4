import { useState } from 'preact/hooks';
import { checkout, tipPresets } from '../cart.ts';
import { problemText } from '../problems.ts';
import { env, navigate, refusalOf, t } from '../store.ts';
import { Alert, Go, money, Progress, Screen, ShopForm } from '../ui.tsx';
import { itemsCheckout, useItemsFirst } from './Next.tsx';
import { at, update, type StepProps } from './step.ts';

/** Tip or donation (the label follows UseTipInsteadOfDonation): one tap chooses and moves on. */
export function Tipping(props: StepProps) {
  const chosen = props.flow.value.tip;
  const items = itemsCheckout(props);
  useItemsFirst(props);
  // A tip that lifts the total to the maximum is refused here, where it is chosen.
  const [problem, setProblem] = useState(() => refusalOf('tipping', 'tip')?.text ?? problemText(items));
  const choose = (event: Event, tip: number) => {
    event.preventDefault();
    const refused = problemText(checkout(env.boot.items, props.flow.value.cart, tip, env.boot.settings.maxOrderAmount));
    if (refused) return setProblem(refused);
    update(props, { tip });
    navigate(at(props, 'confirmation'));
  };
  const custom = chosen !== null && chosen > 0 && !tipPresets.includes(chosen);
  return (
    <Screen id="shop-tipping" title={t(env.boot.settings.useTipInsteadOfDonation ? 'tipTitle' : 'donationTitle')}>
      <Progress step={1} soFar={items.total} />
      <ShopForm class="shop-choices">
        {tipPresets.map((tip) => (
          <button
            type="submit"
            name="tip"
            value={tip}
            key={tip}
            id={`shop-tip-${tip}`}
            class="shop-button shop-choice shop-tip-preset"
            aria-pressed={chosen === tip}
            onClick={(event) => choose(event, tip)}
          >
            {money(tip)}
          </button>
        ))}
        <button
          type="submit"
          name="tip"
          value="other"
          id="shop-tip-other"
          class="shop-button shop-choice"
          aria-pressed={custom}
          onClick={(event) => {
            event.preventDefault();
            navigate(at(props, 'custom-tip'));
          }}
        >
          {t('otherAmount')}
          {custom && <span class="shop-choice-price"> ({money(chosen)})</span>}
        </button>
        <button
          type="submit"
          name="tip"
          value="0"
          id="shop-tip-none"
          class="shop-button shop-choice"
          aria-pressed={chosen === 0}
          onClick={(event) => choose(event, 0)}
        >
          {t('notToday')}
        </button>
      </ShopForm>
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
