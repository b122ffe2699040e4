import type { Locale } from '../../shared/locale.ts';
import type { Texts } from '../texts.ts';

/** What every page of /me gets from the app: its own file, so the pages need not import App.tsx. */
export interface PageProps {
  t: Texts;
  locale: Locale;
}
