// The map screen's texts; merged in i18n/german.ts and i18n/english.ts.
export const de = {
  app: {
    menu: { map: 'Karte' },
    page: { map: 'Karte' },
    map: {
      profile: 'Zum Profil',
      failed: 'Die Karte konnte nicht geladen werden: %{message}',
      summary: '%{vendors} Verkäufer·innen an %{locations} Standorten',
      empty: 'Noch niemand mit Standort auf der Online-Karte.',
      zoom_in: 'Vergrößern',
      zoom_out: 'Verkleinern',
    },
  },
};

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
