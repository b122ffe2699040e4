// The map screen's texts; merged in i18n/german.ts and i18n/english.ts.
// In German; the English texts are in messages-en.ts, so that each language loads alone.
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
