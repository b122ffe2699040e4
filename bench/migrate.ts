// Migrating a long history: the books bench's history (schema bench_books, two million ledger rows,
// seeded by `npm run bench -- books`) is copied into a schema of its own at the migration before the
// counter's (014), the state an installation with years of books was in, and brought to the latest
// migration, timed. Each migration then works through the whole history once, as it would on that
// installation: a check constraint validated, an index built, a column filled. PostgreSQL only
// (BENCH_DATABASE_URL); the copy is dropped afterwards.
// Tiny (the tests): the history is the tests' own PGlite database, whatever its current schema holds;
// the copy goes into a schema beside it, migrated through the same steps, and is dropped afterwards.
import type { Knex } from 'knex';
import { createDb, migrate, type Db } from '../api/src/db/connection.ts';
import { setLogSilent } from '../api/src/foundations/log.ts';
import { migrations } from '../migrations/index.ts';
import type { BenchOptions, Figure } from './figures.ts';

const booksSchema = 'bench_books';
const copySchema = 'bench_migrate';
const firstLater = '014_counter';
const budgetSeconds = 60;

/**
 * The tables that hold the history, in the order their rows may refer to each other, each with the
 * rows the earlier schema allows: the counter's own ledger rows (from the books bench's counter
 * visits) came with the counter.
 */
const history: { table: string; where?: string }[] = [
  { table: 'settings' },
  { table: 'items' },
  { table: 'vendors' },
  { table: 'ledger_accounts' },
  { table: 'orders' },
  { table: 'order_entries' },
  { table: 'payouts' },
  { table: 'ledger_rows', where: `kind not in ('counter_sale', 'counter_cash')` },
];

type Migration = (typeof migrations)[number];

/** Copies the columns the earlier schema has of each history table, rows as they are. */
async function copyHistory(trx: Knex.Transaction, source: string, schema: string): Promise<void> {
  // Without triggers: the ledger's guards and the foreign keys' checks are row triggers; the rows
  // were checked when they were booked.
  await trx.raw('set local session_replication_role = replica');
  for (const { table, where } of history) {
    const { rows } = await trx.raw<{ rows: { column_name: string }[] }>(
      `select c.column_name from information_schema.columns c
       where c.table_schema = ? and c.table_name = ? and c.is_generated = 'NEVER'
         and exists (select 1 from information_schema.columns s
                     where s.table_schema = ? and s.table_name = c.table_name and s.column_name = c.column_name)
       order by c.ordinal_position`,
      [schema, table, source],
    );
    const columns = rows.map((row) => `"${row.column_name}"`).join(', ');
    await trx.raw(`delete from ${schema}.${table}`);
    await trx.raw(
      `insert into ${schema}.${table} (${columns}) select ${columns} from ${source}.${table}${where ? ` where ${where}` : ''}`,
    );
    const { rows: serials } = await trx.raw<{ rows: { column_name: string }[] }>(
      `select column_name from information_schema.columns
       where table_schema = ? and table_name = ? and column_default like 'nextval(%'`,
      [schema, table],
    );
    for (const { column_name: column } of serials) {
      await trx.raw(
        `select setval(pg_get_serial_sequence('${schema}.${table}', '${column}'),
           greatest((select max("${column}") from ${schema}.${table}), 1))`,
      );
    }
  }
  await trx.raw('set local session_replication_role = origin');
}

export interface MigrateOptions extends BenchOptions {
  /** Tiny: the tests' PGlite database, whose current schema holds the history. */
  db?: Db;
}

export async function benchMigrate({ tiny = false, db: tests }: MigrateOptions = {}): Promise<Figure[]> {
  if (tiny) {
    if (!tests) throw new Error('A tiny migration bench migrates a copy of the tests’ database: pass it as `db`.');
    return migrateTiny(tests);
  }
  setLogSilent(true);
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    console.log('Migration bench: needs BENCH_DATABASE_URL and the books history; nothing measured.');
    return [];
  }
  const admin = createDb({ databaseUrl: url, dataDir: '' });
  let db: Db | undefined;
  try {
    const seeded = await admin.raw<{ rows: { exists: boolean }[] }>(
      `select to_regclass('${booksSchema}.bench_seed') is not null as exists`,
    );
    if (!seeded.rows[0]?.exists)
      throw new Error(`There is no books history in ${booksSchema}: run the books bench first.`);
    await admin.raw(`drop schema if exists ${copySchema} cascade`);
    await admin.raw(`create schema ${copySchema}`);
    db = createDb({ databaseUrl: url, dataDir: '', schema: copySchema });
    return await migrateCopy(db, booksSchema, copySchema, 'migrate PostgreSQL', 'the books history');
  } finally {
    await db?.destroy();
    await admin.raw(`drop schema if exists ${copySchema} cascade`);
    await admin.destroy();
  }
}

/**
 * The tests' PGlite has one connection: the copy's schema comes first in its search path while the
 * copy is migrated, and the path is as it was afterwards.
 */
async function migrateTiny(db: Db): Promise<Figure[]> {
  const { rows } = await db.raw<{ rows: { search_path: string; schema: string }[] }>(
    "select current_setting('search_path') as search_path, current_schema() as schema",
  );
  const { search_path: searchPath, schema: source } = rows[0];
  const schema = `bench_migrate_${process.pid}`;
  await db.raw(`drop schema if exists ${schema} cascade`);
  await db.raw(`create schema ${schema}`);
  await db.raw(`set search_path to ${schema}`);
  try {
    return await migrateCopy(db, source, schema, 'migrate PGlite', 'a tiny history');
  } finally {
    await db.raw(`set search_path to ${searchPath}`);
    await db.raw(`drop schema if exists ${schema} cascade`);
  }
}

/**
 * `db`, working in the empty schema `schema`, migrated to the migration before the counter's, given
 * the history of `source`, and brought to the latest, timed.
 */
async function migrateCopy(db: Db, source: string, schema: string, part: string, what: string): Promise<Figure[]> {
  const earlier = migrations.slice(
    0,
    migrations.findIndex((m) => m.name === firstLater),
  );
  await db.migrate.latest({
    migrationSource: {
      getMigrations: () => Promise.resolve(earlier),
      getMigrationName: (m: Migration) => m.name,
      getMigration: (m: Migration) => Promise.resolve(m),
    },
  });
  const copyStart = performance.now();
  await db.transaction(async (trx) => {
    await trx.raw('set local statement_timeout = 0');
    await copyHistory(trx, source, schema);
  });
  await db.raw(`vacuum analyze ${history.map(({ table }) => table).join(', ')}`);
  const [{ rows: ledgerRows }] = await db('ledger_rows').count({ rows: '*' });
  console.log(
    `Migration bench: ${Number(ledgerRows).toLocaleString('en')} ledger rows copied at ${earlier.at(-1)!.name} in ${((performance.now() - copyStart) / 1000).toFixed(1)} s`,
  );
  // Each later migration's own time, to name the slow one: migrate() runs these same objects.
  const steps: [string, number][] = [];
  // The originals, put back afterwards: the tests migrate other databases in the same process.
  const originals = new Map(
    migrations.map((migration) => [migration, Object.getOwnPropertyDescriptor(migration, 'up')!]),
  );
  for (const migration of migrations.slice(earlier.length)) {
    const up = migration.up.bind(migration);
    migration.up = async (knex) => {
      const stepStart = performance.now();
      await up(knex);
      steps.push([migration.name, performance.now() - stepStart]);
    };
  }
  const started = performance.now();
  await migrate(db).finally(() => {
    for (const [migration, up] of originals) Object.defineProperty(migration, 'up', up);
  });
  const seconds = (performance.now() - started) / 1000;
  for (const [name, ms] of steps) console.log(`  ${name}: ${(ms / 1000).toFixed(1)} s`);
  console.log(`  ${firstLater} … ${migrations.at(-1)!.name}: ${seconds.toFixed(1)} s (budget ${budgetSeconds} s)`);
  return [
    {
      part,
      name: `from ${earlier.at(-1)!.name} to ${migrations.at(-1)!.name}, ${what}`,
      value: seconds,
      unit: 's',
      digits: 1,
      budget: budgetSeconds,
    },
  ];
}
