import type { de } from './messages-de.ts';

// The map screen's texts; merged in i18n/german.ts and i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
export const en: typeof de = {
  app: {
    menu: { map: 'Map' },
    page: { map: 'Map' },
    map: {
      profile: 'Open profile',
      failed: 'The map could not be loaded: %{message}',
      summary: '%{vendors} vendors at %{locations} locations',
      empty: 'No vendor with a location on the online map yet.',
      zoom_in: 'Zoom in',
      zoom_out: 'Zoom out',
    },
  },
};
