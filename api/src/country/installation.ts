import type { Knex } from 'knex';
import { type Country, presetOf } from './presets.ts';

type Db = Knex | Knex.Transaction;

/**
 * The installation's country: COUNTRY is taken at the start as long as no money has moved (the first
 * start, before the demo is seeded); once anything is booked the settings row keeps the country it
 * was set up in, whatever the environment says later.
 */
export async function adoptCountry(db: Db, country: Country): Promise<Country> {
  await db.raw(
    `update settings set country = ? where id = 1 and country <> ?
       and not exists (select 1 from ledger_rows) and not exists (select 1 from cash_movements)`,
    [country, country],
  );
  return installationCountry(db);
}

/** The country the settings row keeps. */
export async function installationCountry(db: Db): Promise<Country> {
  const row = await db('settings').where({ id: 1 }).first<{ country: string } | undefined>('country');
  return presetOf(row?.country ?? 'DE').country;
}
