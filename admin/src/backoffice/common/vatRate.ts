import { useLocale } from 'react-admin';

/**
 * A VAT rate in percent as its text field shows it: the API answers a number (5.5), shown with the
 * screen's decimal sign ("5,5" in German); what staff type stays as typed, the API reads both.
 */
export function useVatRateFormat() {
  const locale = useLocale();
  return (value: string | number | null | undefined) =>
    value == null ? '' : typeof value === 'number' && locale === 'de' ? String(value).replace('.', ',') : String(value);
}
