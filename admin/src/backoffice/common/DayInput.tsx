import { TextField } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { FieldTitle, useInput, useLocaleState, useResourceContext, useTranslate } from 'react-admin';
import { dayPattern, formatDay, parseDay } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';

// Days are typed as the back office's language writes them (21.11.2026 in German, 21/11/2026 in
// English), not as the browser's own date input shows them: Chromium's follows the browser's
// language. The API keeps its ISO days; a calendar is not needed to type a day.

/**
 * The text of a day input for `value` ("YYYY-MM-DD", '' or text that is no day yet): what was typed
 * stays while it means that value; a change from outside (a preset, another record, the language
 * switch) replaces it.
 */
function useDayText(value: string, locale: Locale) {
  const [text, setText] = useState(() => formatDay(value, locale));
  const [shown, setShown] = useState({ value, locale });
  if (shown.value !== value || shown.locale !== locale) {
    setShown({ value, locale });
    if ((parseDay(text, locale) ?? text) !== value || shown.locale !== locale) setText(formatDay(value, locale));
  }
  const invalid = text.trim() !== '' && !parseDay(text, locale);
  return { text, setText, invalid };
}

interface DayTextFieldProps {
  id?: string;
  label: ReactNode;
  text: string;
  invalid: boolean;
  onText: (text: string) => void;
  onBlur?: () => void;
}

function DayTextField({ id, label, text, invalid, onText, onBlur }: DayTextFieldProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <TextField
      id={id}
      size="small"
      label={label}
      value={text}
      placeholder={dayPattern(locale as Locale)}
      error={invalid}
      helperText={invalid ? translate('app.validation.day') : undefined}
      onBlur={onBlur}
      onChange={(event) => onText(event.target.value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
      sx={{ width: 190 }}
    />
  );
}

/** A day picker for a page's own state: `value` and `onChange` speak "YYYY-MM-DD". */
export function DayInput({
  id,
  label,
  value,
  onChange,
}: {
  id?: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
}) {
  const [locale] = useLocaleState();
  const { text, setText, invalid } = useDayText(value, locale as Locale);
  const onText = (typed: string) => {
    setText(typed);
    const day = parseDay(typed, locale as Locale);
    if (day) onChange(day);
  };
  return <DayTextField id={id} label={label} text={text} invalid={invalid} onText={onText} />;
}

/**
 * A react-admin day field (the record or filter holds "YYYY-MM-DD" or null). In a form, text that is
 * no day yet becomes the value, so that saving is refused with our message; a list filter keeps its
 * last day until the text is one.
 */
export function DayField({
  source,
  label,
  filter = false,
}: {
  source: string;
  label?: string;
  filter?: boolean;
  /** Read by react-admin's filter form: the filter shows without being chosen first. */
  alwaysOn?: boolean;
}) {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const resource = useResourceContext();
  const valid = (value: unknown) =>
    typeof value !== 'string' || value === '' || parseDay(value, locale as Locale)
      ? undefined
      : translate('app.validation.day');
  const { field, fieldState, id } = useInput({ source, validate: filter ? undefined : valid });
  const { text, setText, invalid } = useDayText(typeof field.value === 'string' ? field.value : '', locale as Locale);
  const onText = (typed: string) => {
    setText(typed);
    const day = parseDay(typed, locale as Locale);
    if (day) field.onChange(day);
    else if (typed.trim() === '') field.onChange(null);
    else if (!filter) field.onChange(typed);
  };
  return (
    <DayTextField
      id={id}
      label={<FieldTitle label={label} source={source} resource={resource} />}
      text={text}
      invalid={invalid || fieldState.invalid}
      onText={onText}
      onBlur={field.onBlur}
    />
  );
}
