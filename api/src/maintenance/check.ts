import type { Knex } from 'knex';
import type { Db } from '../db/connection.ts';
import { checkBooks } from '../ledger/consistency.ts';
import { log } from '../foundations/log.ts';
import { oneRow } from '../foundations/one-row.ts';

// npm run check, and the same at every start: are the books consistent, and do the indexes agree
// with their tables? Two processes on one embedded data directory left orders an index
// no longer found and payouts issued twice; only a backup noticed. The checks only read: they run
// in a transaction that is rolled back (amcheck is created inside it and gone afterwards).

export interface CheckResult {
  check: string;
  problems: string[];
}

/** Rolls back whatever `work` did, answering its result. */
async function readOnly<T>(db: Db, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const rollback = new Error('rollback');
  let result: T;
  try {
    await db.transaction(async (trx) => {
      result = await work(trx);
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return result!;
}

/**
 * Every btree index of the schema against its table with amcheck's bt_index_check (heapallindexed:
 * every row of the table is found in the index). Where amcheck cannot be created (a PostgreSQL
 * without contrib or without the right), the row count read through the table is compared with
 * the one read through its primary key.
 */
async function indexesAgree(trx: Knex.Transaction): Promise<CheckResult> {
  const check = 'indexes agree with their tables';
  const amcheck = await trx
    .transaction(async (sp) => {
      await sp.raw('create extension if not exists amcheck');
      return true;
    })
    .catch(() => false);
  const { rows: indexes } = await trx.raw<{ rows: { oid: number; index: string; table: string; primary: boolean }[] }>(`
    select c.oid::integer as oid, c.relname as index, t.relname as "table", i.indisprimary as primary
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_class t on t.oid = i.indrelid
    join pg_am a on a.oid = c.relam
    where a.amname = 'btree' and c.relnamespace = current_schema()::regnamespace and t.relkind = 'r'
    order by t.relname, c.relname
  `);
  const problems: string[] = [];
  for (const { oid, index, table, primary } of indexes) {
    try {
      await trx.transaction(async (sp) => {
        if (amcheck) {
          await sp.raw('select bt_index_check(?::oid, true)', [oid]);
          return;
        }
        if (!primary) return;
        await sp.raw(`select set_config('enable_seqscan', 'on', true), set_config('enable_indexscan', 'off', true),
          set_config('enable_indexonlyscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
        const heap = oneRow(
          (await sp.raw<{ rows: { n: string }[] }>(`select count(*)::bigint as n from "${table}"`)).rows,
        ).n;
        await sp.raw(`select set_config('enable_seqscan', 'off', true),
          set_config('enable_indexonlyscan', 'on', true)`);
        const viaIndex = oneRow(
          (await sp.raw<{ rows: { n: string }[] }>(`select count(*)::bigint as n from "${table}"`)).rows,
        ).n;
        if (heap !== viaIndex) throw new Error(`the table has ${heap} rows, the index ${viaIndex}`);
      });
    } catch (error) {
      const why = String((error as Error)?.message ?? error);
      problems.push(`The index ${index} does not agree with the table ${table}: ${why}.`);
    }
  }
  return { check: amcheck ? check : `${check} (row counts; amcheck is not available)`, problems };
}

/** Every check of the books and the indexes, with the problems each found. */
export async function checkDatabase(db: Db): Promise<CheckResult[]> {
  return readOnly(db, async (trx) => [...(await checkBooks(trx)), await indexesAgree(trx)]);
}

/** The check at a start: a warning naming each problem when it fails; the start goes on. */
export async function checkAtStart(db: Db): Promise<void> {
  let results: CheckResult[];
  try {
    results = await checkDatabase(db);
  } catch (error) {
    log.warn('consistency check could not run', { error: String((error as Error)?.message ?? error) });
    return;
  }
  const problems = results.flatMap((r) => r.problems.map((problem) => `${r.check}: ${problem}`));
  if (!problems.length) {
    log.info('consistency check passed', { checks: results.map((r) => r.check) });
    return;
  }
  log.warn('consistency check failed', { problems });
  console.warn(
    [
      '',
      'WARNING: the consistency check of the books found problems:',
      ...problems.map((p) => `  - ${p}`),
      'The shop keeps running. Stop writing to it if you can, keep a backup, and see docs/data-safety.md.',
      '',
    ].join('\n'),
  );
}
