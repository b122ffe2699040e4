// The statistics screen's texts; merged in i18n/german.ts and i18n/english.ts.
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

export const en: typeof de = {
  app: {
    menu: { statistics: 'Statistics' },
    page: { statistics: 'Statistics' },
    statistics: {
      preset_last30: 'Last 30 days',
      preset_custom: 'Custom period',
      from: 'From',
      to: 'To',
      failed: 'The statistics could not be loaded: %{message}',
      vendor_activity: '%{active} of %{total} vendors sold in this period (%{percent} %)',
      per_item: 'Sales per product',
      item: 'Product',
      quantity: 'Quantity',
      amount: 'Amount',
      total: 'Total',
      tips: 'Tips and donations',
      empty: 'Nothing was sold in this period.',
      csv: 'Download CSV',
      over_time_day: 'Sales per day',
      over_time_week: 'Sales per week',
      over_time_month: 'Sales per month',
      orders: '%{smart_count} order |||| %{smart_count} orders',
    },
  },
};
