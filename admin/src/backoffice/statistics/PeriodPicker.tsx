import { MenuItem, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DayInput } from '../common/DayInput.tsx';
import { presetDays, presetLabel, presets, type Days, type Preset } from './period.ts';

export interface PeriodChoice extends Days {
  preset: Preset | 'custom';
}

/** Where a screen's tests and labels find the picker's parts. */
interface PickerIds {
  period: string;
  preset?: string;
  from: string;
  to: string;
}

const statisticsIds: PickerIds = { period: 'statistics-period', from: 'period-from', to: 'period-to' };

/**
 * A preset, or two days of one's own (choosing a day makes the period "custom"). `choices`: the
 * presets a screen offers, all of them unless it says otherwise.
 */
export function PeriodPicker({
  value,
  onChange,
  choices = presets,
  ids = statisticsIds,
}: {
  value: PeriodChoice;
  onChange: (value: PeriodChoice) => void;
  choices?: readonly Preset[];
  ids?: PickerIds;
}) {
  const translate = useTranslate();
  const choosePreset = (preset: Preset | 'custom') =>
    onChange(preset === 'custom' ? { ...value, preset } : { preset, ...presetDays(preset) });
  const day = (end: 'from' | 'to', text: string) => {
    if (text) onChange({ ...value, [end]: text, preset: 'custom' });
  };
  return (
    // Wrapping, not a fixed row: beside the sidebar a tablet (768 px) has no room for all three.
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      useFlexGap
      sx={{ my: 2, flexWrap: 'wrap' }}
      id={ids.period}
    >
      <TextField
        select
        size="small"
        id={ids.preset}
        label={translate('app.books.period')}
        value={value.preset}
        onChange={(event) => choosePreset(event.target.value as Preset | 'custom')}
        sx={{ minWidth: 200 }}
      >
        {choices.map((preset) => (
          <MenuItem key={preset} value={preset}>
            {translate(presetLabel(preset))}
          </MenuItem>
        ))}
        <MenuItem value="custom">{translate(presetLabel('custom'))}</MenuItem>
      </TextField>
      <DayInput
        id={ids.from}
        label={translate('app.statistics.from')}
        value={value.from}
        onChange={(text) => day('from', text)}
      />
      <DayInput
        id={ids.to}
        label={translate('app.statistics.to')}
        value={value.to}
        onChange={(text) => day('to', text)}
      />
    </Stack>
  );
}
