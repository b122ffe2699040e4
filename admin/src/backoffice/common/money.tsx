import { InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { TextInput, useLocale, useTranslate, type TextInputProps } from 'react-admin';
import type { Locale } from '../../shared/locale.ts';
import { amountToInput, formatAmount, minorUnitExponent, moneySign, parseAmount } from '../../shared/money.ts';
import { useSettings } from '../SettingsContext.tsx';

/** The installation's currency ("EUR", "CHF", "JPY"), in which every amount of the back office is. */
export function useCurrency(): string {
  return useSettings().settings.currency;
}

/** Minor units as the current language writes the installation's currency: "CHF 1.50", "£1.50", "1,50 €". */
export function useFormatMoney(): (minor: number) => string {
  const locale = useLocale() as Locale;
  const currency = useCurrency();
  return (minor) => formatAmount(minor, currency, locale);
}

/**
 * What the office types as an amount, in the installation's currency: `parse` gives minor units
 * (undefined when the text is not one amount), `toInput` the text of minor units to edit ("1,50"),
 * `refusal` the sentence when the text is not an amount.
 */
export function useAmount() {
  const locale = useLocale() as Locale;
  const currency = useCurrency();
  const translate = useTranslate();
  return {
    parse: (text: string) => parseAmount(text, currency),
    toInput: (minor: number) => amountToInput(minor, currency, locale),
    refusal: () => translate(refusal.message, refusal.args(currency, locale)),
  };
}

/** The refusal names the currency's code and an example with its own decimals: 250 minor units read "2,50", "2.50" or (yen) "250". */
const refusal = {
  message: 'app.validation.amount',
  args: (currency: string, locale: Locale) => ({ currency, example: amountToInput(250, currency, locale) }),
};

/** An amount field's parts: the currency's sign after the number, and the phone's keyboard for its digits. */
function useAmountSlots() {
  const locale = useLocale() as Locale;
  const currency = useCurrency();
  return {
    input: { endAdornment: <InputAdornment position="end">{moneySign(currency, locale)}</InputAdornment> },
    htmlInput: { inputMode: minorUnitExponent(currency) === 0 ? ('numeric' as const) : ('decimal' as const) },
  };
}

/** A text field for an amount in the installation's currency, outside react-admin's forms (the counter, the tills). */
export function AmountField(props: Omit<TextFieldProps, 'slotProps'>) {
  return <TextField {...props} slotProps={useAmountSlots()} />;
}

/**
 * An amount in the installation's currency over a field the API holds in minor units. The record's
 * amount shows as "1,50" beside the currency's sign; what staff type stays text while they type (no
 * reformatting under the cursor) and becomes minor units in `toMinorUnits` when the form is saved.
 */
export function MoneyInput({ validate, ...props }: TextInputProps) {
  const locale = useLocale() as Locale;
  const currency = useCurrency();
  const slots = useAmountSlots();
  const invalid = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' && parseAmount(value, currency) === undefined
      ? { message: refusal.message, args: refusal.args(currency, locale) }
      : undefined;
  return (
    <TextInput
      {...props}
      format={(value: unknown) =>
        typeof value === 'number'
          ? amountToInput(value, currency, locale)
          : ((value as string | null | undefined) ?? '')
      }
      parse={(text: string) => text}
      validate={[invalid, ...(Array.isArray(validate) ? validate : validate ? [validate] : [])]}
      slotProps={slots}
    />
  );
}

/** The form's typed amounts as the API's minor units (empty: null); numbers left untouched are minor units already. */
export function toMinorUnits<T extends Record<string, unknown>>(values: T, fields: (keyof T)[], currency: string): T {
  const out: Record<string, unknown> = { ...values };
  for (const field of fields as string[]) {
    const value = out[field];
    if (typeof value === 'string') out[field] = value.trim() === '' ? null : (parseAmount(value, currency) ?? value);
  }
  return out as T;
}
