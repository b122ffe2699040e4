import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Knex } from 'knex';
import { clientConfig, type Db } from '../db/connection.ts';
import { oneRow } from '../foundations/one-row.ts';
import { appliedMigrations } from './versions.ts';
import {
  listTables,
  quoteIdent,
  readSequences,
  summarise,
  useStableSession,
  type SequenceValue,
  type TableInfo,
  type TableSummary,
} from './tables.ts';

// A backup is one gzip'd file of JSON lines that any PostgreSQL can load, PGlite or a server, without
// pg_dump (which a slim Docker image lacks and which cannot read PGlite's data directory):
//
//   {"format":"street-paper-shop-backup","version":1,…,"migrations":[…],"tables":[{name,rows,checksum}…]}
//   {"table":"files","rows":2}          then exactly that many rows, each as PostgreSQL's to_jsonb(row)
//   …                                   (every table after the tables it refers to)
//   {"sequences":[{table,column,value,isCalled}…]}
//
// Rows are written as the database renders them (timestamps with microseconds, bytea as \x hex,
// bigints as digits) and never parsed in JavaScript, so nothing is rounded on the way.

export const backupFormat = 'street-paper-shop-backup';
export const backupVersion = 1;

export interface BackupHeader {
  format: typeof backupFormat;
  version: number;
  createdAt: string;
  engine: 'pglite' | 'postgres';
  /** The schema version of the rows: the migrations the source had run. */
  migrations: string[];
  /** In load order, with what the restore must find once loaded. */
  tables: TableSummary[];
}

export interface TableMarker {
  table: string;
  rows: number;
}

export interface SequencesLine {
  sequences: SequenceValue[];
}

/** Rows per page: small for tables holding files, so memory stays flat. */
const pageSize = (table: TableInfo) => (table.hasBytes ? 20 : 2000);

async function* tableRows(trx: Knex.Transaction, table: TableInfo): AsyncGenerator<string> {
  const keyList = table.key.map((k) => quoteIdent(k.name)).join(', ');
  const keyText = table.key.map((k) => `t.${quoteIdent(k.name)}::text`).join(', ');
  const after = `(${keyList}) > (${table.key.map((k) => `?::${k.type}`).join(', ')})`;
  let last: string[] | undefined;
  for (;;) {
    const { rows } = await trx.raw<{ rows: { row: string; key: string[] }[] }>(
      `select to_jsonb(t)::text as row, array[${keyText}] as key from ${quoteIdent(table.name)} t
       ${last ? `where ${after}` : ''} order by ${keyList} limit ${pageSize(table)}`,
      last ?? [],
    );
    for (const { row } of rows) yield row;
    if (rows.length < pageSize(table)) return;
    last = rows.at(-1)?.key;
  }
}

/**
 * The backup's lines, read in one snapshot: on PostgreSQL the server may keep running, and what is
 * written is the database as it was at one instant (a sale committed meanwhile is in the next backup).
 */
export async function* backupLines(db: Db): AsyncGenerator<string> {
  const trx = await db.transaction();
  try {
    await trx.raw('set transaction isolation level repeatable read, read only');
    await useStableSession(trx);
    const tables = await listTables(trx);
    const header: BackupHeader = {
      format: backupFormat,
      version: backupVersion,
      createdAt: new Date().toISOString(),
      engine: clientConfig(db).client === 'pg' ? 'postgres' : 'pglite',
      migrations: await appliedMigrations(trx),
      tables: await summarise(trx, tables),
    };
    yield JSON.stringify(header);
    for (const [i, table] of tables.entries()) {
      // summarise() answers one summary per table it is given, in that order
      const marker: TableMarker = { table: table.name, rows: oneRow(header.tables.slice(i, i + 1)).rows };
      yield JSON.stringify(marker);
      let written = 0;
      for await (const row of tableRows(trx, table)) {
        written++;
        yield row;
      }
      if (written !== marker.rows)
        throw new Error(
          `Table ${table.name} gave ${written} rows instead of ${marker.rows}; the backup is incomplete.`,
        );
    }
    const sequences: SequencesLine = { sequences: await readSequences(trx, tables) };
    yield JSON.stringify(sequences);
  } finally {
    await trx.rollback();
  }
}

/** Writes a backup file; a half-written one is left as `<file>.partial`, never under the name asked for. */
export async function writeBackup(db: Db, file: string): Promise<BackupHeader> {
  const partial = `${file}.partial`;
  let header: BackupHeader | undefined;
  async function* withNewlines() {
    for await (const line of backupLines(db)) {
      header ??= JSON.parse(line) as BackupHeader;
      yield `${line}\n`;
    }
  }
  await pipeline(Readable.from(withNewlines()), createGzip(), fs.createWriteStream(partial));
  fs.renameSync(partial, file);
  return header!;
}
