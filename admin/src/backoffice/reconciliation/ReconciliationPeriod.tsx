import { MenuItem, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { presetPeriod, presets, type Preset } from '../accounting/period.ts';
import { DayInput } from '../common/DayInput.tsx';
import type { Days } from './types.ts';

export interface PeriodChoice extends Days {
  preset: Preset | 'custom';
}

/** The period to compare: a preset of the money screens (last month first), or two days of one's own. */
export function ReconciliationPeriod({
  value,
  onChange,
}: {
  value: PeriodChoice;
  onChange: (value: PeriodChoice) => void;
}) {
  const translate = useTranslate();
  const choosePreset = (preset: Preset | 'custom') =>
    onChange(preset === 'custom' ? { ...value, preset } : { preset, ...presetPeriod(preset) });
  const day = (end: 'from' | 'to', text: string) => {
    if (text) onChange({ ...value, [end]: text, preset: 'custom' });
  };
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      useFlexGap
      sx={{ my: 2, flexWrap: 'wrap' }}
      id="reconciliation-period"
    >
      <TextField
        select
        size="small"
        id="reconciliation-preset"
        label={translate('app.reconciliation.period')}
        value={value.preset}
        onChange={(event) => choosePreset(event.target.value as Preset | 'custom')}
        sx={{ minWidth: 200 }}
      >
        {presets.map((preset) => (
          <MenuItem key={preset} value={preset}>
            {translate(`app.books.preset_${preset}`)}
          </MenuItem>
        ))}
        <MenuItem value="custom">{translate('app.reconciliation.preset_custom')}</MenuItem>
      </TextField>
      <DayInput
        id="reconciliation-from"
        label={translate('app.reconciliation.from')}
        value={value.from}
        onChange={(text) => day('from', text)}
      />
      <DayInput
        id="reconciliation-to"
        label={translate('app.reconciliation.to')}
        value={value.to}
        onChange={(text) => day('to', text)}
      />
    </Stack>
  );
}
