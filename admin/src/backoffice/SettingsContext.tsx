import { createContext, useContext } from 'react';
import type { PublicSettings } from '../shared/settings.ts';

/** The public settings the whole back office draws on (name, colours, postfix), and their update after a save. */
export interface SettingsState {
  settings: PublicSettings;
  setSettings: (settings: PublicSettings) => void;
}

export const SettingsContext = createContext<SettingsState | null>(null);

export function useSettings(): SettingsState {
  const state = useContext(SettingsContext);
  if (!state) throw new Error('useSettings outside of the back office');
  return state;
}
