import type { de } from './messages-de.ts';

// The statistics screen's texts; merged in i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
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
