import type { Knex } from 'knex';
import { oneRow } from '../foundations/one-row.ts';

// What a backup, a restore and a move to PostgreSQL need to know about the schema, read from the
// database's catalogue rather than listed by hand: a table added by a later migration is backed up,
// restored and compared without anyone remembering to add it here.

type Queryable = Knex | Knex.Transaction;

/** knex's own bookkeeping: the restore's migrations write it, so it is not copied. */
export const isMigrationTable = (name: string) => name.startsWith('knex_migrations');

/**
 * Derived, not data: migration 022's revision of settings and items, raised by triggers whenever either
 * changes. Restoring or moving those tables raises it in the target, so it is not copied itself.
 */
export const isDerivedTable = (name: string) => name === 'shop_revision';

export interface KeyColumn {
  name: string;
  /** The column's SQL type, to cast a key value read back as text. */
  type: string;
}

export interface TableInfo {
  name: string;
  /** Primary key columns in key order (ctid without one): rows are read page by page in this order. */
  key: KeyColumn[];
  /** Holds binary data (files): read a few rows at a time. */
  hasBytes: boolean;
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function rows<T>(db: Queryable, sql: string, bindings: Knex.RawBinding[] = []): Promise<T[]> {
  return (await db.raw<{ rows: T[] }>(sql, bindings)).rows;
}

/**
 * The schema's tables (without knex's), every table after the tables it refers to, so rows can be
 * inserted in this order. A table referring to itself (ledger_rows.reversal_of, items.license_item_id)
 * is read in key order, which puts a referenced row before the rows naming it.
 */
export async function listTables(db: Queryable): Promise<TableInfo[]> {
  const tables = (
    await rows<{ name: string }>(
      db,
      `select tablename as name from pg_tables where schemaname = current_schema() order by tablename`,
    )
  )
    .map((t) => t.name)
    .filter((name) => !isMigrationTable(name) && !isDerivedTable(name));
  const references = await rows<{ table: string; references: string }>(
    db,
    `select t.relname as table, r.relname as references
     from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
     where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`,
  );
  const keys = await rows<{ table: string; name: string; type: string }>(
    db,
    `select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type
     from pg_index i
     join pg_class c on c.oid = i.indrelid and c.relnamespace = current_schema()::regnamespace
     cross join lateral unnest(i.indkey) with ordinality as k(attnum, position)
     join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
     where i.indisprimary order by i.indrelid, k.position`,
  );
  const bytes = new Set(
    (
      await rows<{ table: string }>(
        db,
        `select distinct table_name as table from information_schema.columns where table_schema = current_schema() and data_type = 'bytea'`,
      )
    ).map((r) => r.table),
  );

  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    if (visiting.has(table))
      throw new Error(`The tables refer to each other in a circle through ${table}; a backup cannot order them.`);
    visiting.add(table);
    for (const r of references) if (r.table === table && r.references !== table) visit(r.references);
    visiting.delete(table);
    ordered.push(table);
  };
  tables.forEach(visit);

  return ordered.map((name) => {
    const key = keys.filter((k) => k.table === name).map(({ name, type }) => ({ name, type }));
    // a table without a primary key (none of ours) is read in storage order, stable within the snapshot
    return { name, key: key.length ? key : [{ name: 'ctid', type: 'tid' }], hasBytes: bytes.has(name) };
  });
}

export interface SequenceValue {
  table: string;
  column: string;
  value: number;
  isCalled: boolean;
}

/** The position of every serial column's sequence, so restored ids continue where they were. */
export async function readSequences(db: Queryable, tables: TableInfo[]): Promise<SequenceValue[]> {
  const names = new Set(tables.map((t) => t.name));
  const serials = (
    await rows<{ table: string; column: string; sequence: string }>(
      db,
      `select table_name as table, column_name as column, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
     from information_schema.columns where table_schema = current_schema() and column_default like 'nextval(%'
     order by table_name, column_name`,
    )
  ).filter((s) => names.has(s.table) && s.sequence);
  const values: SequenceValue[] = [];
  for (const s of serials) {
    // the sequence name comes from the catalogue, already quoted where it needs to be
    const state = oneRow(
      await rows<{ value: string; is_called: boolean }>(
        db,
        `select last_value::text as value, is_called from ${s.sequence}`,
      ),
    );
    values.push({ table: s.table, column: s.column, value: Number(state.value), isCalled: state.is_called });
  }
  return values;
}

/**
 * Settings that make a row's text the same on every engine and every session, for checksums that
 * compare a PGlite database with a PostgreSQL one; and no statement or idle timeout, since a backup
 * of a big database takes longer than a request may. Only for this transaction.
 */
export async function useStableSession(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`set local timezone = 'UTC'`);
  await trx.raw(`set local datestyle = 'ISO, YMD'`);
  await trx.raw(`set local extra_float_digits = 1`);
  await trx.raw(`set local bytea_output = 'hex'`);
  await trx.raw(`set local statement_timeout = 0`);
  await trx.raw(`set local idle_in_transaction_session_timeout = 0`);
}

export interface TableSummary {
  name: string;
  rows: number;
  /** md5 over the md5 of every row's text, in sorted order: equal data gives an equal checksum. */
  checksum: string;
}

/**
 * Row count and checksum of each table. The row hashes are sorted rather than the rows ordered by
 * key, so the checksum does not depend on a collation that may differ between two servers.
 */
export async function summarise(trx: Knex.Transaction, tables: { name: string }[]): Promise<TableSummary[]> {
  const summaries: TableSummary[] = [];
  for (const { name } of tables) {
    const summary = oneRow(
      await rows<{ rows: number; checksum: string }>(
        trx,
        `select count(*)::integer as rows, coalesce(md5(string_agg(h, '' order by h collate "C")), '') as checksum
       from (select md5(t::text) as h from ${quoteIdent(name)} t) hashed`,
      ),
    );
    summaries.push({ name, ...summary });
  }
  return summaries;
}
