import { useState } from 'preact/hooks';
import { cartLines, itemsTotal } from '../cart.ts';
import { currencySymbol, minorUnitExponent, moneyLocale } from '../../../api/src/money/currency.ts';
import { maxTip, moneyInput, parseMoney, type MoneyProblem, type Lang } from '../money.ts';
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

/** An amount as typed in the currency: "1,50" or "1.50"; whole yen "200". */
const example = (lang: Lang, currency: string) =>
  minorUnitExponent(currency) === 0 ? '200' : lang === 'de' ? '1,50' : '1.50';

/** A tip of the customer's own amount: "1,50" or "1.50", whole cents, below the order maximum. */
export function CustomTip(props: StepProps) {
  const current = props.flow.value.tip;
  useItemsFirst(props);
  const refused = refusalOf('custom-tip', 'amount');
  const { currency } = env.boot.settings;
  const [text, setText] = useState(refused?.value ?? (current ? moneyInput(current, lang.value, currency) : ''));
  const [problem, setProblem] = useState(refused?.code as MoneyProblem | undefined);
  const max = env.boot.settings.maxOrderAmount;
  const soFar = itemsTotal(cartLines(env.boot.items, props.flow.value.cart));
  const limit = maxTip(soFar, max);
  const submit = (event: Event) => {
    event.preventDefault();
    const parsed = parseMoney(text, limit, currency);
    if ('problem' in parsed) return setProblem(parsed.problem);
    update(props, { tip: parsed.cents });
    navigate(at(props, 'confirmation'));
  };
  return (
    <Screen id="shop-custom-tip" title={t('customTipTitle')}>
      <Progress step={1} soFar={soFar} />
      <ShopForm id="shop-custom-tip-form" class="shop-form" onSubmit={submit} noValidate>
        <label for="shop-custom-tip-amount" class="shop-label">
          {t('amountLabel', { currency: currencySymbol(currency, moneyLocale(lang.value, currency)) })}
        </label>
        <input
          id="shop-custom-tip-amount"
          name="amount"
          class="shop-input"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('amountHint', { example: example(lang.value, currency) })}
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'shop-custom-tip-error' : undefined}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        {problem && (
          <p id="shop-custom-tip-error" class="shop-alert" role="alert">
            {t(messages[problem], {
              max: money(limit),
              limit: money(max),
              digits: minorUnitExponent(currency),
              example: example(lang.value, currency),
            })}
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
