import type { Knex } from 'knex';
import { conflictError } from '../foundations/errors.ts';
import { tr } from '../language/messages.ts';
import { isCurrency, type Currency } from '../money/currency.ts';

// The installation's currency lives on the settings row. CURRENCY chooses it on the first start; staff
// may change it in the settings until the first booking, after which every amount in the books, every
// order and every Stripe object is in it, and a change would turn 500 yen into 500 cents.

const chosen = 'currency_chosen';

/** The currency the books are kept in ("EUR", "CHF", "JPY"). */
export async function installationCurrency(db: Knex | Knex.Transaction): Promise<Currency> {
  const row = await db('settings').where({ id: 1 }).first<{ currency: string } | undefined>('currency');
  const currency = row?.currency;
  if (typeof currency !== 'string' || !isCurrency(currency)) throw new Error(`Unknown currency ${String(currency)}`);
  return currency;
}

/**
 * On an installation's first start the settings take CURRENCY; later starts leave the currency as
 * the settings hold it (a database that had booked before the currency was a setting stays in euro).
 */
export async function chooseCurrencyOnFirstStart(db: Knex, currency: Currency): Promise<void> {
  await db.transaction(async (trx) => {
    const inserted = await trx('system_state')
      .insert({ key: chosen, value: JSON.stringify({ by: 'CURRENCY', currency }) })
      .onConflict('key')
      .ignore()
      .returning('key');
    if (inserted.length > 0) await trx('settings').where({ id: 1 }).update({ currency, updated_at: trx.fn.now() });
  });
}

/** Whether money has moved: a ledger row or an order, in any state. */
export async function hasBookings(db: Knex | Knex.Transaction): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { booked: boolean }[] }>(
    `select exists (select 1 from ledger_rows) or exists (select 1 from orders) as booked`,
  );
  return Boolean(rows[0]?.booked);
}

/**
 * Refuses a new currency once anything is booked. The settings row stays locked until the change
 * commits; a new order reads the currency under a key share lock of that row (api/src/orders/place.ts), so none slips in between.
 */
export async function assertCurrencyChangeable(trx: Knex.Transaction, next: Currency): Promise<void> {
  const row = await trx('settings').where({ id: 1 }).forUpdate().first<{ currency: string }>('currency');
  if (row.currency === next) return;
  if (await hasBookings(trx))
    throw conflictError(
      tr(
        'The currency stays {currency}: amounts have been booked in it already (orders, sales or payouts), and they would be read in another currency. A new currency needs a new installation.',
        { currency: row.currency },
      ),
      { currency: tr('Money has been booked in {currency} already.', { currency: row.currency }) },
    );
}

/**
 * Refuses an export whose format counts in euro only (DATEV's file in German bookkeeping, the
 * DSFinV-K of a German tax audit) when the books are kept in another currency: its amounts would be
 * written as euros that were never euros.
 */
export async function assertEuroBooks(db: Knex | Knex.Transaction, format: 'datev' | 'dsfinvk'): Promise<void> {
  const currency = await installationCurrency(db);
  if (currency === 'EUR') return;
  throw conflictError(
    format === 'datev'
      ? tr(
          'The DATEV file counts in euro only, and this installation keeps its books in {currency}: its amounts would be read as euros.',
          { currency },
        )
      : tr(
          'The DSFinV-K of a German tax audit counts in euro only, and this installation keeps its books in {currency}: its amounts would be read as euros.',
          { currency },
        ),
  );
}
