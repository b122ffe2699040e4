import type { Knex } from 'knex';
import { migrations, type Migration } from '../../../migrations/index.ts';
import type { Db } from '../db/connection.ts';
import { oneRow } from '../foundations/one-row.ts';
import { MaintenanceError } from './errors.ts';

// Schema versions: a backup's rows fit the schema after the migrations the source had run, so a
// restore builds exactly that schema, loads the rows, and only then runs the later migrations, which
// bring old rows forward the way they would have on a running installation.

/** The migrations a database has run, in order; none for an empty database. */
export async function appliedMigrations(db: Db | Knex.Transaction): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { present: boolean }[] }>(
    `select to_regclass('knex_migrations') is not null as present`,
  );
  if (!oneRow(rows).present) return [];
  return db('knex_migrations').orderBy('id').pluck('name');
}

/** Refuses a backup this code cannot restore: made by a newer version, or by a different history. */
export function checkRestorable(backup: string[]): void {
  const known = migrations.map((m) => m.name);
  const unknown = backup.filter((name, i) => known[i] !== name);
  if (unknown.length) {
    throw new MaintenanceError(
      `The backup was made by a newer or different version of the shop (its migrations ${unknown.join(', ')} are unknown here). ` +
        'Restore it with the version that made it, or a later one.',
    );
  }
}

/** Runs the first `count` migrations: the schema a backup's rows were written in. */
export async function migrateThrough(db: Db, count: number): Promise<void> {
  const upTo = migrations.slice(0, count);
  const migrationSource: Knex.MigrationSource<Migration> = {
    getMigrations: () => Promise.resolve(upTo),
    getMigrationName: (m) => m.name,
    getMigration: (m) => Promise.resolve(m),
  };
  await db.migrate.latest({ migrationSource });
}
