import { InputAdornment } from '@mui/material';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextInput, useTranslate, type TextInputProps } from 'react-admin';

/** "#abc" → "#aabbcc"; the browser's colour picker knows only six digits. */
function sixDigits(value: unknown): string {
  if (typeof value !== 'string') return '#000000';
  if (/^#[0-9a-f]{6}$/i.test(value)) return value;
  if (/^#[0-9a-f]{3}$/i.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`;
  if (/^#[0-9a-f]{8}$/i.test(value)) return value.slice(0, 7);
  return '#000000';
}

/** A colour as text (#c8102e, as the API takes it) with the browser's colour picker beside it. */
export function ColourInput(props: TextInputProps & { source: string }) {
  const value: unknown = useWatch({ name: props.source });
  const { setValue } = useFormContext();
  const translate = useTranslate();
  const picker = (
    <InputAdornment position="start">
      <input
        type="color"
        aria-label={translate('app.action.pick_colour')}
        value={sixDigits(value)}
        onChange={(event) => setValue(props.source, event.target.value, { shouldDirty: true })}
        // Without a colour the picker still needs one to show: it stays faint until one is chosen.
        style={{
          width: 32,
          height: 22,
          border: 0,
          padding: 0,
          background: 'none',
          cursor: 'pointer',
          opacity: value ? 1 : 0.3,
        }}
      />
    </InputAdornment>
  );
  return <TextInput {...props} slotProps={{ input: { startAdornment: picker }, inputLabel: { shrink: true } }} />;
}
