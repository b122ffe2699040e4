import { addDays, localDay } from '../../shared/dates.ts';
import { presetPeriod, presets as moneyPresets, type Preset as MoneyPreset } from '../accounting/period.ts';

// The statistics' presets: the money screens' ones (accounting/period.ts), led by the last 30 days,
// the default, so the screen is never empty on a newspaper that sells at all.

export const presets = ['last30', ...moneyPresets] as const;
export type Preset = 'last30' | MoneyPreset;

export interface Days {
  from: string;
  to: string;
}

/** The days a preset stands for at `now`, in the newspaper's zone; the last 30 days match the API's default. */
export function presetDays(preset: Preset, now = new Date()): Days {
  if (preset !== 'last30') return presetPeriod(preset, now);
  const today = localDay(now);
  return { from: addDays(today, -29), to: today };
}

/** The preset's label: the money screens' words, ours for the last 30 days. */
export const presetLabel = (preset: Preset | 'custom') =>
  preset === 'last30' || preset === 'custom' ? `app.statistics.preset_${preset}` : `app.books.preset_${preset}`;
