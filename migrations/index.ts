import type { Knex } from 'knex';
import * as catalogue from './001_catalogue.ts';
import * as identity from './002_identity.ts';
import * as protocol from './003_protocol.ts';
import * as ledgerOrders from './004_ledger_orders.ts';
import * as deliveries from './005_deliveries.ts';
import * as books from './006_books.ts';
import * as booksIndexes from './007_books_indexes.ts';
import * as embedOrigins from './008_embed_origins.ts';
import * as ledgerGuard from './009_ledger_guard.ts';
import * as rateLimits from './010_rate_limits.ts';
import * as loginThrottle from './011_login_throttle.ts';
import * as stripeSandboxClosed from './012_stripe_sandbox_closed.ts';
import * as stripeLifecycle from './013_stripe_lifecycle.ts';
import * as counter from './014_counter.ts';
import * as datev from './016_datev.ts';
import * as privacy from './017_privacy.ts';
import * as webhooks from './018_webhooks.ts';
import * as orderCarts from './020_order_carts.ts';
import * as vendorLanguage from './021_vendor_language.ts';
import * as shopRevision from './022_shop_revision.ts';
import * as requestIds from './023_request_ids.ts';
import * as cashBookIndexes from './024_cash_book_indexes.ts';
import * as openCreditIndexes from './025_open_credit_indexes.ts';
import * as stripeMoney from './026_stripe_money.ts';
import * as stripePayouts from './027_stripe_payouts.ts';
import * as cashDay from './028_cash_day.ts';
import * as vatRates from './029_vat_rates.ts';
import * as fiscal from './030_fiscal.ts';
import * as cashTendered from './031_cash_tendered.ts';
import * as rksv from './032_rksv.ts';
import * as benefitScheme from './033_benefit_scheme.ts';
import * as germanVariant from './034_german_variant.ts';
import * as itemEnglish from './035_item_english.ts';
import * as fiscalMasterData from './036_fiscal_master_data.ts';
import * as tseCertificate from './037_tse_certificate.ts';
import * as salesIndex from './038_sales_index.ts';
import * as rksvSignAt from './039_rksv_sign_at.ts';
import * as fiskalySetup from './040_fiskaly_setup.ts';
import * as fiscalDecommissions from './041_fiscal_decommissions.ts';
import * as country from './042_country.ts';
import * as currency from './043_currency.ts';
import * as cashRounding from './044_cash_rounding.ts';
import * as swissVatId from './045_swiss_vat_id.ts';
import * as stripeConnect from './046_stripe_connect.ts';
import * as payoutRounding from './047_payout_rounding.ts';

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Forward-only, in order. A new migration is a new file listed here. */
export const migrations: Migration[] = [
  { name: '001_catalogue', ...catalogue },
  { name: '002_identity', ...identity },
  { name: '003_protocol', ...protocol },
  { name: '004_ledger_orders', ...ledgerOrders },
  { name: '005_deliveries', ...deliveries },
  { name: '006_books', ...books },
  { name: '007_books_indexes', ...booksIndexes },
  { name: '008_embed_origins', ...embedOrigins },
  { name: '009_ledger_guard', ...ledgerGuard },
  { name: '010_rate_limits', ...rateLimits },
  { name: '011_login_throttle', ...loginThrottle },
  { name: '012_stripe_sandbox_closed', ...stripeSandboxClosed },
  { name: '013_stripe_lifecycle', ...stripeLifecycle },
  { name: '014_counter', ...counter },
  { name: '016_datev', ...datev },
  { name: '017_privacy', ...privacy },
  { name: '018_webhooks', ...webhooks },
  { name: '020_order_carts', ...orderCarts },
  { name: '021_vendor_language', ...vendorLanguage },
  { name: '022_shop_revision', ...shopRevision },
  { name: '023_request_ids', ...requestIds },
  { name: '024_cash_book_indexes', ...cashBookIndexes },
  { name: '025_open_credit_indexes', ...openCreditIndexes },
  { name: '026_stripe_money', ...stripeMoney },
  { name: '027_stripe_payouts', ...stripePayouts },
  { name: '028_cash_day', ...cashDay },
  { name: '029_vat_rates', ...vatRates },
  { name: '030_fiscal', ...fiscal },
  { name: '031_cash_tendered', ...cashTendered },
  { name: '032_rksv', ...rksv },
  { name: '033_benefit_scheme', ...benefitScheme },
  { name: '034_german_variant', ...germanVariant },
  { name: '035_item_english', ...itemEnglish },
  { name: '036_fiscal_master_data', ...fiscalMasterData },
  { name: '037_tse_certificate', ...tseCertificate },
  { name: '038_sales_index', ...salesIndex },
  { name: '039_rksv_sign_at', ...rksvSignAt },
  { name: '040_fiskaly_setup', ...fiskalySetup },
  { name: '041_fiscal_decommissions', ...fiscalDecommissions },
  { name: '042_country', ...country },
  { name: '043_currency', ...currency },
  { name: '044_cash_rounding', ...cashRounding },
  { name: '045_swiss_vat_id', ...swissVatId },
  { name: '046_stripe_connect', ...stripeConnect },
  { name: '047_payout_rounding', ...payoutRounding },
];
