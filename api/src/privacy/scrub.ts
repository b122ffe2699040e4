import type { Knex } from 'knex';
import { ERASED } from '../language/erased.ts';

type Db = Knex | Knex.Transaction;

/** A copy of a JSON value with every string `isPersonal` picks replaced by ERASED, at any depth. */
export function scrubStrings<T>(value: T, isPersonal: (text: string) => boolean): T {
  if (typeof value === 'string') return (isPersonal(value) ? ERASED : value) as T;
  if (Array.isArray(value)) return value.map((inner: unknown) => scrubStrings(inner, isPersonal)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubStrings(inner, isPersonal)])) as T;
  }
  return value;
}

/**
 * Which strings hold a person's data: `contained` values (an e-mail address, a telephone number, a
 * full name) wherever they appear in a text, `whole` values (a first name alone) only as the whole
 * text, so a short name does not erase every word it is part of. Case does not matter.
 */
export interface PersonalValues {
  contained: string[];
  whole?: string[];
}

export function personalMatcher({ contained, whole = [] }: PersonalValues): (text: string) => boolean {
  const parts = contained.map((value) => value.trim().toLowerCase()).filter((value) => value.length >= 3);
  const exact = new Set(whole.map((value) => value.trim().toLowerCase()).filter(Boolean));
  return (text) => {
    const lower = text.trim().toLowerCase();
    return exact.has(lower) || parts.some((part) => lower.includes(part));
  };
}

/** A JSON column that may hold copies of personal values, with the columns that find its row again. */
export interface JsonColumn {
  table: string;
  column: string;
  key: string[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Erases the values from every row of the JSON columns that holds one: the database finds the
 * candidates (one scan per column), the exact decision and the replacement are made here, where a
 * JSON value is walked as JSON rather than edited as text. Answers the number of rows changed.
 */
export async function scrubJsonColumns(db: Db, columns: JsonColumn[], values: PersonalValues): Promise<number> {
  const needles = [...values.contained, ...(values.whole ?? [])]
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value.length >= 3);
  if (!needles.length) return 0;
  const isPersonal = personalMatcher(values);
  const patterns = needles.map((needle) => `%${escapeLike(JSON.stringify(needle).slice(1, -1))}%`);
  let changed = 0;
  for (const { table, column, key } of columns) {
    const rows: Record<string, unknown>[] = await db(table)
      .select([...key, column])
      .whereRaw(`lower(??::text) like any (?::text[])`, [column, patterns]);
    for (const row of rows) {
      const scrubbed = scrubStrings(row[column], isPersonal);
      if (JSON.stringify(scrubbed) === JSON.stringify(row[column])) continue;
      const where = Object.fromEntries(key.map((name) => [name, row[name]]));
      await db(table)
        .where(where)
        .update({ [column]: JSON.stringify(scrubbed) });
      changed++;
    }
  }
  return changed;
}
