import fs from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Knex } from 'knex';
import { migrate, type Db } from '../db/connection.ts';
import { oneRow } from '../foundations/one-row.ts';
import { backupFormat, backupVersion, type BackupHeader, type SequencesLine, type TableMarker } from './backup.ts';
import { MaintenanceError } from './errors.ts';
import { listTables, quoteIdent, summarise, useStableSession } from './tables.ts';
import { appliedMigrations, checkRestorable, migrateThrough } from './versions.ts';

// Loads a backup into an empty database in one transaction: either every row, sequence and
// checksum is as in the backup, or nothing was written. The ledger guard stays on: a restore only
// inserts, which it allows.

/** The one row migration 001 creates; a fresh database has it, and the backup's replaces it. */
const singletonTables = new Set(['settings']);

/** Rows per insert, and the text size after which a batch is sent early (rows with files are large). */
const batchRows = 1000;
const batchChars = 4_000_000;

/** The lines of a gzip'd backup file. */
export async function* readBackupLines(file: string): AsyncGenerator<string> {
  if (!fs.existsSync(file)) throw new MaintenanceError(`There is no backup file ${file}.`);
  let rest = '';
  const chunks = fs.createReadStream(file).pipe(createGunzip()).setEncoding('utf8');
  try {
    // setEncoding keeps a character whose bytes straddle two chunks whole
    for await (const chunk of chunks) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
  } catch (error) {
    throw new MaintenanceError(
      `${file} is not a readable backup (${(error as Error).message}); npm run backup writes a gzip'd file.`,
    );
  }
  if (rest) yield rest;
}

/** One structural line of the backup; anything else there means the file was damaged. */
function parseLine<T>(line: string, what: string): T {
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new MaintenanceError(`The backup is damaged where ${what} should be.`);
  }
}

function parseHeader(line: string | undefined): BackupHeader {
  const header = line === undefined ? undefined : parseLine<Partial<BackupHeader>>(line, 'its header');
  if (header?.format !== backupFormat)
    throw new MaintenanceError('This is not a backup of the shop (npm run backup writes one).');
  if (header.version !== backupVersion)
    throw new MaintenanceError(
      `This backup has format version ${header.version}; this version of the shop reads version ${backupVersion}.`,
    );
  return header as BackupHeader;
}

async function assertEmpty(trx: Knex.Transaction, tables: string[]): Promise<void> {
  const filled: string[] = [];
  for (const table of tables) {
    if (singletonTables.has(table)) continue;
    const { rows } = await trx.raw<{ rows: { filled: boolean }[] }>(
      `select exists (select 1 from ${quoteIdent(table)}) as filled`,
    );
    if (oneRow(rows).filled) filled.push(table);
  }
  if (filled.length) {
    throw new MaintenanceError(
      `The target database already holds data (${filled.join(', ')}). A restore goes into an empty database: ` +
        'a new PostgreSQL database, or an empty DATA_DIR, and with no server started on it before.',
    );
  }
}

export interface RestoreProgress {
  (table: string, rows: number): void;
}

/**
 * Restores a backup's lines into `db`, which must be empty: builds the backup's schema version,
 * loads and verifies everything in one transaction, then runs the newer migrations.
 */
export async function restoreLines(
  db: Db,
  lines: AsyncIterable<string>,
  progress: RestoreProgress = () => {},
): Promise<BackupHeader> {
  const next = lines[Symbol.asyncIterator]();
  try {
    return await load(db, next, progress);
  } finally {
    // a source still being read (a move) ends its snapshot when the restore stops early
    await next.return?.();
  }
}

async function load(db: Db, next: AsyncIterator<string>, progress: RestoreProgress): Promise<BackupHeader> {
  const read = async (what: string) => {
    const line = await next.next();
    if (line.done) throw new MaintenanceError(`The backup ends early, before ${what}; it is incomplete.`);
    return line.value;
  };
  const first = await next.next();
  const header = parseHeader(first.done ? undefined : first.value);
  checkRestorable(header.migrations);
  const applied = await appliedMigrations(db);
  if (applied.length > header.migrations.length || applied.some((name, i) => header.migrations[i] !== name)) {
    throw new MaintenanceError(
      `The target database was already set up by a newer version (${applied.at(-1)}) than the backup (${header.migrations.at(-1)}). ` +
        "Restore into a new, empty database: the restore builds the backup's schema and migrates it forward itself.",
    );
  }
  await migrateThrough(db, header.migrations.length);

  await db.transaction(async (trx) => {
    await useStableSession(trx);
    const tables = (await listTables(trx)).map((t) => t.name);
    const expected = header.tables.map((t) => t.name);
    const missing = expected.filter((t) => !tables.includes(t));
    if (missing.length)
      throw new MaintenanceError(
        `The backup holds tables this database does not have after its migrations: ${missing.join(', ')}.`,
      );
    await assertEmpty(trx, tables);
    for (const table of tables.filter((t) => singletonTables.has(t))) await trx(table).del();

    for (const { name, rows } of header.tables) {
      const marker = parseLine<TableMarker>(await read(`table ${name}`), `table ${name}`);
      if (marker.table !== name || marker.rows !== rows)
        throw new MaintenanceError(
          `The backup is damaged: expected table ${name} with ${rows} rows, found ${JSON.stringify(marker)}.`,
        );
      let batch: string[] = [];
      let chars = 0;
      const insert = async () => {
        if (!batch.length) return;
        try {
          await trx.raw(
            `insert into ${quoteIdent(name)} select * from jsonb_populate_recordset(null::${quoteIdent(name)}, ?::jsonb)`,
            [`[${batch.join(',')}]`],
          );
        } catch (error) {
          // knex puts the statement, with the rows, before PostgreSQL's reason: only the reason is shown
          const reason = String((error as Error).message)
            .split(' - ')
            .pop();
          throw new MaintenanceError(`The rows of ${name} could not be loaded (${reason}). Nothing was restored.`);
        }
        batch = [];
        chars = 0;
      };
      for (let i = 0; i < rows; i++) {
        const row = await read(`row ${i + 1} of ${name}`);
        batch.push(row);
        chars += row.length;
        if (batch.length >= batchRows || chars >= batchChars) await insert();
      }
      await insert();
      progress(name, rows);
    }

    const { sequences } = parseLine<SequencesLine>(await read('the sequences'), 'the sequences');
    for (const s of sequences) {
      await trx.raw('select setval(pg_get_serial_sequence(?, ?), ?, ?)', [
        quoteIdent(s.table),
        s.column,
        s.value,
        s.isCalled,
      ]);
    }

    const loaded = await summarise(trx, header.tables);
    // summarise() answers one summary per table it is given, in that order
    const differing = loaded.filter(
      (t, i) => t.rows !== header.tables[i]?.rows || t.checksum !== header.tables[i]?.checksum,
    );
    if (differing.length) {
      throw new MaintenanceError(
        `After loading, these tables differ from the backup: ${differing.map((t) => t.name).join(', ')}. Nothing was restored.`,
      );
    }
  });
  await migrate(db);
  return header;
}

export function restoreBackup(db: Db, file: string, progress?: RestoreProgress): Promise<BackupHeader> {
  return restoreLines(db, readBackupLines(file), progress);
}
