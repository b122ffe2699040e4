import { MenuItem, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { presetDays, presetLabel, presets, type Days, type Preset } from './period.ts';

export interface PeriodChoice extends Days {
  preset: Preset | 'custom';
}

/** A preset, or two days of one's own (choosing a day makes the period "custom"). */
export function PeriodPicker({ value, onChange }: { value: PeriodChoice; onChange: (value: PeriodChoice) => void }) {
  const translate = useTranslate();
  const choosePreset = (preset: Preset | 'custom') =>
    onChange(preset === 'custom' ? { ...value, preset } : { preset, ...presetDays(preset) });
  const day = (end: 'from' | 'to', text: string) => {
    if (text) onChange({ ...value, [end]: text, preset: 'custom' });
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }} id="statistics-period">
      <TextField
        select
        size="small"
        label={translate('app.books.period')}
        value={value.preset}
        onChange={(event) => choosePreset(event.target.value as Preset | 'custom')}
        sx={{ minWidth: 200 }}
      >
        {presets.map((preset) => (
          <MenuItem key={preset} value={preset}>
            {translate(presetLabel(preset))}
          </MenuItem>
        ))}
        <MenuItem value="custom">{translate(presetLabel('custom'))}</MenuItem>
      </TextField>
      <TextField
        type="date"
        size="small"
        label={translate('app.statistics.from')}
        value={value.from}
        onChange={(event) => day('from', event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: value.to } }}
      />
      <TextField
        type="date"
        size="small"
        label={translate('app.statistics.to')}
        value={value.to}
        onChange={(event) => day('to', event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: value.from } }}
      />
    </Stack>
  );
}
