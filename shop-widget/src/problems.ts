import type { Checkout } from './cart.ts';
import { formatMoney } from './money.ts';
import { env, lang, t } from './store.ts';

/** Why an order cannot be paid, in words: the same limits the API refuses with. */
export function problemText(summary: Checkout): string | undefined {
  const max = env.boot.settings.maxOrderAmount;
  switch (summary.problem) {
    case 'empty':
      return t('cartEmpty');
    case 'donationOnly':
      return t('donationOnly');
    case 'tooHigh':
      return t('tooHigh', {
        total: formatMoney(summary.total, lang.value, env.boot.settings.currency),
        max: formatMoney(max, lang.value, env.boot.settings.currency),
      });
  }
}
