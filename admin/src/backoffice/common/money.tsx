import { InputAdornment } from '@mui/material';
import { TextInput, useLocale, type TextInputProps } from 'react-admin';
import type { Locale } from '../../shared/locale.ts';
import { centsToInput, formatCents, parseEuros } from '../../shared/money.ts';

/** Cents as the current language writes euros: "1,50 €" or "€1.50". */
export function useFormatCents(): (cents: number) => string {
  const locale = useLocale() as Locale;
  return (cents) => formatCents(cents, locale);
}

const invalidEuros = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' && parseEuros(value) === undefined
    ? 'app.validation.euros'
    : undefined;

/**
 * An amount in euros over a field the API holds in cents. The record's cents show as "1,50"; what
 * staff type stays text while they type (no reformatting under the cursor) and becomes cents in
 * `eurosToCents` when the form is saved.
 */
export function EuroInput({ validate, ...props }: TextInputProps) {
  const locale = useLocale() as Locale;
  return (
    <TextInput
      {...props}
      format={(value: unknown) =>
        typeof value === 'number' ? centsToInput(value, locale) : ((value as string | null | undefined) ?? '')
      }
      parse={(text: string) => text}
      validate={[invalidEuros, ...(Array.isArray(validate) ? validate : validate ? [validate] : [])]}
      slotProps={{ input: { endAdornment: <InputAdornment position="end">€</InputAdornment> } }}
    />
  );
}

/** The form's euro texts as the API's cents (empty: null); numbers left untouched are cents already. */
export function eurosToCents<T extends Record<string, unknown>>(values: T, fields: (keyof T)[]): T {
  const out: Record<string, unknown> = { ...values };
  for (const field of fields as string[]) {
    const value = out[field];
    if (typeof value === 'string') out[field] = value.trim() === '' ? null : (parseEuros(value) ?? value);
  }
  return out as T;
}
