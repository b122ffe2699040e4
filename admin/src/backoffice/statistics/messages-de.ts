// The statistics screen's texts; merged in i18n/german.ts.
// In German; the English texts are in messages-en.ts, so that each language loads alone.
export const de = {
  app: {
    menu: { statistics: 'Statistik' },
    page: { statistics: 'Statistik' },
    statistics: {
      preset_last30: 'Letzte 30 Tage',
      preset_custom: 'Eigener Zeitraum',
      from: 'Von',
      to: 'Bis',
      failed: 'Die Statistik konnte nicht geladen werden: %{message}',
      vendor_activity:
        '%{active} von %{total} Verkäuferinnen und Verkäufern haben in diesem Zeitraum verkauft (%{percent} %)',
      per_item: 'Verkäufe pro Produkt',
      item: 'Produkt',
      quantity: 'Menge',
      amount: 'Betrag',
      total: 'Summe',
      tips: 'Trinkgeld und Spenden',
      empty: 'In diesem Zeitraum wurde nichts verkauft.',
      csv: 'CSV herunterladen',
      over_time_day: 'Verkäufe pro Tag',
      over_time_week: 'Verkäufe pro Woche',
      over_time_month: 'Verkäufe pro Monat',
      orders: '%{smart_count} Bestellung |||| %{smart_count} Bestellungen',
    },
  },
};
