import { useState } from 'preact/hooks';
import { cartLines, itemsTotal } from '../cart.ts';
import { maxTip, moneyInput, parseMoney, type MoneyProblem } from '../money.ts';
import { env, lang, navigate, refusalOf, t } from '../store.ts';
import type { TextKey } from '../texts.ts';
import { Go, money, Progress, Screen, ShopForm } from '../ui.tsx';
import { useItemsFirst } from './Next.tsx';
import { at, update, type StepProps } from './step.ts';

const messages: Record<MoneyProblem, TextKey> = {
  empty: 'moneyEmpty',
  invalid: 'moneyInvalid',
  negative: 'moneyNegative',
  cents: 'moneyCents',
  tooHigh: 'moneyTooHigh',
};

/** A tip of the customer's own amount: "1,50" or "1.50", whole cents, below the order maximum. */
export function CustomTip(props: StepProps) {
  const current = props.flow.value.tip;
  useItemsFirst(props);
  const refused = refusalOf('custom-tip', 'amount');
  const [text, setText] = useState(refused?.value ?? (current ? moneyInput(current, lang.value) : ''));
  const [problem, setProblem] = useState(refused?.code as MoneyProblem | undefined);
  const max = env.boot.settings.maxOrderAmount;
  const soFar = itemsTotal(cartLines(env.boot.items, props.flow.value.cart));
  const limit = maxTip(soFar, max);
  const submit = (event: Event) => {
    event.preventDefault();
    const parsed = parseMoney(text, limit);
    if ('problem' in parsed) return setProblem(parsed.problem);
    update(props, { tip: parsed.cents });
    navigate(at(props, 'confirmation'));
  };
  return (
    <Screen id="shop-custom-tip" title={t('customTipTitle')}>
      <Progress step={1} soFar={soFar} />
      <ShopForm id="shop-custom-tip-form" class="shop-form" onSubmit={submit} noValidate>
        <label for="shop-custom-tip-amount" class="shop-label">
          {t('amountLabel')}
        </label>
        <input
          id="shop-custom-tip-amount"
          name="amount"
          class="shop-input"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('amountHint')}
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'shop-custom-tip-error' : undefined}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        {problem && (
          <p id="shop-custom-tip-error" class="shop-alert" role="alert">
            {t(messages[problem], { max: money(limit), limit: money(max) })}
          </p>
        )}
        <button type="submit" id="shop-custom-tip-next" class="shop-button shop-primary">
          {t('next')}
        </button>
      </ShopForm>
      <Go id="shop-back" class="shop-link shop-back" to={at(props, 'tipping')}>
        {t('back')}
      </Go>
    </Screen>
  );
}
