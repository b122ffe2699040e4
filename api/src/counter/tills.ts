import type { Knex } from 'knex';
import { presetOf } from '../country/presets.ts';
import { oneRow } from '../foundations/one-row.ts';
import { tillBalanceSql } from '../ledger/till.ts';
import { toIso } from '../foundations/dates.ts';

// The tills with their balance and what their next close covers, and the office's local day.

type Db = Knex | Knex.Transaction;

export interface Till {
  id: number;
  name: string;
  openingBalance: number;
  balance: number;
  /** The day of the last close (YYYY-MM-DD), or null. */
  closedUntil: string | null;
  /** When the last close was made, or null. */
  closedAt: string | null;
  /** Today (in the newspaper's time zone) is closed: cash moved now goes into the next day's close. */
  closedToday: boolean;
  /** The days with movements no close has counted yet, oldest first: the next close covers them all. */
  openDays: { day: string; movements: number }[];
  /** Where the till stands, as the DSFinV-K's Stamm_Orte names it; an empty field: the paper's address. */
  location: TillLocation;
  /** The coins and notes a count lists, in minor units, largest first: the country's (country/presets.ts). */
  denominations: readonly number[];
}

export interface TillLocation {
  name: string;
  street: string;
  postcode: string;
  town: string;
}

interface TillRow {
  id: number;
  name: string;
  opening_balance: number | string;
  balance: number | string;
  closed_until: string | null;
  closed_at: Date | string | null;
  closed_today: boolean | null;
  open_days: { day: string; movements: number }[] | string;
  location_name: string;
  location_street: string;
  location_postcode: string;
  location_town: string;
  country: string;
}

/** Tills with their balance and what their next close covers, in one statement; one till by `id`. */
async function tills(db: Db, timeZone: string, id?: number): Promise<Till[]> {
  const { rows } = await db.raw<{ rows: TillRow[] }>(
    `select t.id, t.name, t.opening_balance, ${tillBalanceSql('t')} as balance,
       t.location_name, t.location_street, t.location_postcode, t.location_town,
       (select s.country from settings s where s.id = 1) as country,
       to_char(c.day, 'YYYY-MM-DD') as closed_until, c.created_at as closed_at,
       c.day = (now() at time zone ?)::date as closed_today,
       (select coalesce(json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'movements', d.n) order by d.day), '[]')
        from (select m.day, count(*)::integer as n from cash_movements m
              where m.till_id = t.id and m.id > coalesce(c.last_movement_id, 0) group by m.day) d) as open_days
     from tills t
     left join lateral (select day, created_at, last_movement_id from till_closes
                        where till_id = t.id order by day desc, id desc limit 1) c on true
     ${id === undefined ? '' : 'where t.id = ?'}
     order by t.id`,
    id === undefined ? [timeZone] : [timeZone, id],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    openingBalance: Number(row.opening_balance),
    balance: Number(row.balance),
    closedUntil: row.closed_until,
    closedAt: toIso(row.closed_at) ?? null,
    closedToday: row.closed_today === true,
    openDays:
      typeof row.open_days === 'string'
        ? (JSON.parse(row.open_days) as { day: string; movements: number }[])
        : row.open_days,
    location: {
      name: row.location_name,
      street: row.location_street,
      postcode: row.location_postcode,
      town: row.location_town,
    },
    denominations: presetOf(row.country).denominations.values,
  }));
}

export const listTills = (db: Db, timeZone: string): Promise<Till[]> => tills(db, timeZone);

/** One till; not every till's balance to find it (a till screen, a close, the protocol read one). */
export async function findTill(db: Db, id: number, timeZone: string): Promise<Till | undefined> {
  return (await tills(db, timeZone, id))[0];
}

/** The local date today in the newspaper's time zone, YYYY-MM-DD. */
export async function localToday(db: Db, timeZone: string): Promise<string> {
  const { rows } = await db.raw<{ rows: { day: string }[] }>(
    `select to_char(now() at time zone ?, 'YYYY-MM-DD') as day`,
    [timeZone],
  );
  return oneRow(rows).day;
}
