import type { Knex } from 'knex';
import { clientConfig, type Db } from '../../api/src/db/connection.ts';
import { oneRow } from '../../api/src/foundations/one-row.ts';
import { isDerivedTable, listTables, quoteIdent, readSequences } from '../../api/src/maintenance/tables.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { demoLoginsAtTestCost } from './demo-logins.ts';

// The demo newspaper loaded back into a database between suites: the API tests' engines before each
// suite, and the e2e tests' server process (tests/e2e/paper-host.ts) before each paper it serves from
// the seeded template.

/** The tables a reset empties: all but knex's and the sandbox's credentials. */
const resetTables = (db: Db) =>
  db
    .raw<{ rows: { tablename: string }[] }>(
      `select tablename from pg_tables where schemaname = current_schema()
         and tablename not like 'knex_migrations%' and tablename <> 'stripe_sandbox_credentials'`,
    )
    .then(({ rows }) => rows.map((r) => r.tablename));

/**
 * Runs `work` (one transaction) again when PostgreSQL chose it as a deadlock victim: a suite's own
 * server may still be at work when the next test resets (a sandbox retrying a webhook, say), and the
 * victim rolls back, so trying again is safe.
 */
async function retryDeadlock(work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
    }
  }
}

/**
 * The demo newspaper as seeding it left a schema: its rows (as JSON, with the statement that puts them
 * back) and every serial's position. Loading it back costs a handful of statements where seeding
 * again ran the seed's JavaScript.
 */
interface SeededSnapshot {
  tables: string[];
  /** Per table with seeded rows, in the order of their foreign keys: its insert and the rows' JSON. */
  inserts: { table: string; sql: string; rows: string }[];
  /** One statement setting every serial where the seed left it, as `restart identity` and the seed would. */
  sequences?: string;
  /**
   * How the tables are emptied. PostgreSQL takes about a second to TRUNCATE 34 tables (new files for
   * each table and index, hundreds of times per run), so there a superuser DELETEs with triggers off
   * and vacuums now and then. PGlite truncates in memory in tens of milliseconds, and its tables stay
   * as fresh as a new database's: a DELETE there would leave dead rows that nothing vacuums, and its
   * queries would grow several times slower within a few hundred resets.
   */
  empty: 'delete' | 'truncate';
  /** Resets since the last vacuum (DELETE only). */
  sinceVacuum: number;
  /** Per table, the tables whose foreign keys point at it: TRUNCATE … CASCADE empties them too. */
  referencedBy: Map<string, string[]>;
  /** Each table's state when the last reset ended (TRUNCATE only): see `changedTables`. */
  states: Map<string, string>;
  /** When a reset last stamped every table's rows with its time (TRUNCATE only). */
  stampedAt: number;
}

/** DELETE leaves dead rows behind; a vacuum this often keeps the seeded tables a page or two. */
const vacuumEvery = 25;

const snapshots = new WeakMap<Db, Promise<SeededSnapshot>>();

/** Per table of the schema, the tables whose foreign keys point at it. */
async function foreignKeys(db: Knex): Promise<Map<string, string[]>> {
  const { rows } = await db.raw<{ rows: { referenced: string; referencing: string }[] }>(
    `select p.relname as referenced, c.relname as referencing
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
       where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`,
  );
  const referencedBy = new Map<string, string[]>();
  for (const { referenced, referencing } of rows)
    referencedBy.set(referenced, [...(referencedBy.get(referenced) ?? []), referencing]);
  return referencedBy;
}

/**
 * Each table's row count and the newest transaction that wrote one of its rows (the highest xmin):
 * a committed insert, update or delete changes one or the other, since every new row version carries
 * a newer transaction id. Migration 022's revision is left out: it follows settings and items.
 */
async function tableStates(db: Knex, tables: string[]): Promise<Map<string, string>> {
  const read = tables
    .filter((table) => !isDerivedTable(table))
    .map(
      (table) =>
        `select '${table}' as name, count(*) || ':' || coalesce(max(xmin::text::bigint), 0) as state from ${quoteIdent(table)}`,
    );
  const { rows } = await db.raw<{ rows: { name: string; state: string }[] }>(read.join(' union all '));
  return new Map(rows.map(({ name, state }) => [name, state]));
}

/**
 * The tables a reset must empty and load again: those changed since the last reset ended, and the
 * tables whose foreign keys reach them (TRUNCATE … CASCADE empties those as well).
 */
async function changedTables(db: Knex, snapshot: SeededSnapshot): Promise<string[]> {
  const now = await tableStates(db, snapshot.tables);
  const chosen = new Set([...now].filter(([table, state]) => snapshot.states.get(table) !== state).map(([t]) => t));
  for (const table of chosen) for (const referencing of snapshot.referencedBy.get(table) ?? []) chosen.add(referencing);
  return snapshot.tables.filter((table) => chosen.has(table));
}

/**
 * How long rows a reset left unchanged keep the time it stamped them with: then a reset stamps every
 * table again, so that no test reads a seeded row as made minutes before it started (or yesterday).
 */
const restampAfterMs = 30_000;

/** Empties every table and seeds the demo as a first start does, and keeps what that left. */
async function seedAndSnapshot(db: Db): Promise<SeededSnapshot> {
  const tables = await resetTables(db);
  let snapshot: SeededSnapshot | undefined;
  await retryDeadlock(() =>
    db.transaction(async (trx) => {
      await trx.raw(`truncate table ${tables.map(quoteIdent).join(', ')} restart identity cascade`);
      await trx('settings').insert({ id: 1 });
      await seedOnFirstStart(trx);
      await demoLoginsAtTestCost(trx);
      // Every now() of the seed is this transaction's start; a reset stamps its own instead.
      const seeded = oneRow(
        (
          await trx.raw<{ rows: { at: string; superuser: string }[] }>(
            `select now()::text as at, current_setting('is_superuser') as superuser`,
          )
        ).rows,
      );
      const seededAt = `'${seeded.at}'::timestamptz`;
      const listed = (await listTables(trx)).filter((t) => tables.includes(t.name));
      const inserts: SeededSnapshot['inserts'] = [];
      for (const table of listed) {
        const name = quoteIdent(table.name);
        const order = table.key.map((k) => quoteIdent(k.name)).join(', ');
        const { rows } = await trx.raw<{ rows: { rows: string | null }[] }>(
          `select json_agg(t)::text as rows from (select * from ${name} order by ${order}) t`,
        );
        if (!rows[0]?.rows) continue;
        const { rows: columns } = await trx.raw<{ rows: { name: string; type: string }[] }>(
          `select column_name as name, data_type as type from information_schema.columns
             where table_schema = current_schema() and table_name = ? and is_generated = 'NEVER'
             order by ordinal_position`,
          [table.name],
        );
        const values = columns.map(({ name: column, type }) =>
          type === 'timestamp with time zone'
            ? `case when x.${quoteIdent(column)} = ${seededAt} then now() else x.${quoteIdent(column)} end`
            : `x.${quoteIdent(column)}`,
        );
        inserts.push({
          table: table.name,
          sql: `insert into ${name} (${columns.map((c) => quoteIdent(c.name)).join(', ')})
                select ${values.join(', ')} from json_populate_recordset(null::${name}, ?::json) x`,
          rows: rows[0].rows,
        });
      }
      const serials = await readSequences(
        trx,
        tables.map((name) => ({ name, key: [], hasBytes: false })),
      );
      const sequences = serials.map(
        (s) => `setval(pg_get_serial_sequence('${quoteIdent(s.table)}', '${s.column}'), ${s.value}, ${s.isCalled})`,
      );
      snapshot = {
        tables,
        inserts,
        sequences: sequences.length ? `select ${sequences.join(', ')}` : undefined,
        empty: clientConfig(db).client === 'pg' && seeded.superuser === 'on' ? 'delete' : 'truncate',
        sinceVacuum: 0,
        referencedBy: await foreignKeys(trx),
        states: await tableStates(trx, tables),
        stampedAt: Date.now(),
      };
    }),
  );
  return snapshot!;
}

/**
 * Empties every table and loads the demo newspaper again, so each suite starts from the same data:
 * the same rows, ids and serial positions as seeding again would give, stamped with this reset's
 * time. The first reset of a database seeds it and keeps a snapshot; later ones load the snapshot.
 * The sandbox's credentials stay: they belong to the installation, and every process keeps them once read.
 */
export async function resetDatabase(db: Db): Promise<void> {
  const known = snapshots.get(db);
  if (!known) {
    const made = seedAndSnapshot(db);
    snapshots.set(db, made);
    // A failed first seed is tried again by the next reset.
    made.catch(() => snapshots.delete(db));
    await made;
    return;
  }
  const snapshot = await known;
  let states: Map<string, string> | undefined;
  let restamped = false;
  await retryDeadlock(() =>
    db.transaction(async (trx) => {
      if (snapshot.empty === 'delete') {
        // Without triggers: the ledger's guards refuse a DELETE, and the rows go in any order.
        await trx.raw(`set local session_replication_role = replica`);
        await trx.raw(snapshot.tables.map((table) => `delete from ${quoteIdent(table)}`).join('; '));
        await trx.raw(`set local session_replication_role = origin`);
        for (const { sql, rows } of snapshot.inserts) await trx.raw(sql, [rows]);
      } else {
        // PGlite truncates each table in a millisecond or two, about 60 ms for all of them, which
        // hundreds of resets per run pay: only the tables a test changed are emptied and loaded again
        // (PGlite has one connection, so nothing writes between the look and the truncate), and every
        // table now and then, so that no row keeps an old reset's time for long.
        restamped = Date.now() - snapshot.stampedAt > restampAfterMs;
        const chosen = restamped ? snapshot.tables : await changedTables(trx, snapshot);
        if (chosen.length) await trx.raw(`truncate table ${chosen.map(quoteIdent).join(', ')} cascade`);
        // With triggers, as the seed's own inserts: a change of settings and items raises the shop's revision.
        for (const { table, sql, rows } of snapshot.inserts) if (chosen.includes(table)) await trx.raw(sql, [rows]);
      }
      if (snapshot.sequences) await trx.raw(snapshot.sequences);
      if (snapshot.empty === 'truncate') states = await tableStates(trx, snapshot.tables);
    }),
  );
  // Only what committed counts: a failed reset keeps the states of the one before, beside which what
  // a test changed still reads as changed.
  if (states) snapshot.states = states;
  if (restamped) snapshot.stampedAt = Date.now();
  if (snapshot.empty === 'delete' && ++snapshot.sinceVacuum >= vacuumEvery) {
    snapshot.sinceVacuum = 0;
    await db.raw(`vacuum ${snapshot.tables.map(quoteIdent).join(', ')}`);
  }
}
