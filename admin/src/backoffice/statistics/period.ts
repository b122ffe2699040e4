import { presetPeriod, presets as moneyPresets, type Preset as MoneyPreset } from '../accounting/period.ts';

// The statistics' presets: the money screens' ones (accounting/period.ts), led by the last 30 days,
// the default, so the screen is never empty on a newspaper that sells at all.

export const presets = ['last30', ...moneyPresets] as const;
export type Preset = 'last30' | MoneyPreset;

export interface Days {
  from: string;
  to: string;
}

/** A local day as "2026-05-01" (toISOString would give the UTC day, wrong around midnight). */
const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The days a preset stands for on `today`; the last 30 days match the API's default. */
export function presetDays(preset: Preset, today = new Date()): Days {
  if (preset !== 'last30') return presetPeriod(preset, today);
  return { from: dayOf(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29)), to: dayOf(today) };
}

/** The preset's label: the money screens' words, ours for the last 30 days. */
export const presetLabel = (preset: Preset | 'custom') =>
  preset === 'last30' || preset === 'custom' ? `app.statistics.preset_${preset}` : `app.books.preset_${preset}`;
