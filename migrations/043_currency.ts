import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// One currency per installation (api/src/money/currency.ts), every amount an integer in its minor unit:
// - settings.currency: the ISO 4217 code the books are kept in. A new installation takes CURRENCY on
//   its first start (api/src/settings/currency.ts); one that has booked already keeps the euro.
// - orders.currency: the order's currency as Stripe writes it (lower case), the installation's at the
//   time it was placed (once money has moved the installation's currency no longer changes).
// - system_state 'currency_chosen': the installation's currency is no longer CURRENCY's to set.
// The codes api/src/money/currency.ts offers, written here as they were when this migration was made.
const currencies = ['EUR', 'CHF', 'GBP', 'USD', 'CAD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'AUD', 'NZD', 'JPY', 'KRW'];

export async function up(knex: Knex): Promise<void> {
  const upper = currencies.map((code) => `'${code}'`).join(', ');
  const lower = currencies.map((code) => `'${code.toLowerCase()}'`).join(', ');
  await runSql(
    knex,
    `
    alter table settings add column currency text not null default 'EUR' check (currency in (${upper}));
    alter table orders drop constraint orders_currency_check;
    alter table orders add constraint orders_currency_check check (currency in (${lower}));
    insert into system_state (key, value)
      select 'currency_chosen', '{"by": "bookings"}'::jsonb
      where exists (select 1 from ledger_rows) or exists (select 1 from orders);
    `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
