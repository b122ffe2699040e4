import { migrate, type Db } from '../db/connection.ts';
import { backupLines } from './backup.ts';
import { restoreLines, type RestoreProgress } from './restore.ts';
import { listTables, summarise, useStableSession, type TableSummary } from './tables.ts';

// Moving an embedded installation to PostgreSQL: the backup's lines flow straight into a restore
// (no file in between), then both databases are read again and compared table by table.

/** Row counts and checksums of every table of a database (knex's bookkeeping aside). */
export async function summariseDatabase(db: Db): Promise<TableSummary[]> {
  return db.transaction(async (trx) => {
    await useStableSession(trx);
    return summarise(trx, await listTables(trx));
  });
}

export interface TableComparison {
  table: string;
  sourceRows: number | null;
  targetRows: number | null;
  sourceChecksum: string | null;
  targetChecksum: string | null;
  same: boolean;
}

/** Every table of either side, with what each side holds; a table missing on one side differs. */
export function compareSummaries(source: TableSummary[], target: TableSummary[]): TableComparison[] {
  const names = [...new Set([...source, ...target].map((t) => t.name))].sort();
  return names.map((table) => {
    const a = source.find((t) => t.name === table);
    const b = target.find((t) => t.name === table);
    return {
      table,
      sourceRows: a?.rows ?? null,
      targetRows: b?.rows ?? null,
      sourceChecksum: a?.checksum ?? null,
      targetChecksum: b?.checksum ?? null,
      same: Boolean(a && b && a.rows === b.rows && a.checksum === b.checksum),
    };
  });
}

/**
 * Copies `source` (the embedded database) into the empty `target` and compares them. The source is
 * first brought to this version's schema, as the server's next start would, so both sides compare
 * in the same shape.
 */
export async function moveDatabase(source: Db, target: Db, progress?: RestoreProgress): Promise<TableComparison[]> {
  await migrate(source);
  await restoreLines(target, backupLines(source), progress);
  return compareSummaries(await summariseDatabase(source), await summariseDatabase(target));
}
