import { pgCode, type Db } from '../../api/src/db/connection.ts';

// A marker planted in every table of a paper's schema, to look for where it must not show: in one row
// per table (the first, or one of its own where the table is empty) every column that holds text
// carries it, as far as the table's checks let it. It is planted below the product, as the database's
// superuser with triggers and foreign keys off (session_replication_role), so that neither the
// ledger's guards nor the references of an empty table decide which tables carry it; undo() puts
// every row back as it was and takes the added ones out.

interface Column {
  name: string;
  type: string;
  nullable: boolean;
  /** A default or an identity: an insert may leave it out. */
  filled: boolean;
}

interface Table {
  name: string;
  columns: Column[];
  key: string[];
  /** Each check constraint by its name: its columns, its definition and the literals it names. */
  checks: Map<string, { columns: string[]; literals: string[]; definition: string }>;
}

export interface PlantedMarker {
  /**
   * Every table of the schema with the columns that carry the marker (none where no value with it
   * passes the table's checks) and the key of the row that carries it.
   */
  tables: Map<string, { columns: string[]; key?: Record<string, unknown> }>;
  /** Puts every row changed back and deletes every row added. */
  undo(): Promise<void>;
}

/** A column left to its default in an insert. */
const byDefault = Symbol('default');

const textTypes = new Set(['text', 'character varying', 'character']);
const isJson = (c: Column) => c.type === 'jsonb' || c.type === 'json';
const carries = (c: Column) => textTypes.has(c.type) || isJson(c) || c.type === '_text';

/**
 * The values a column can take with the marker in it, the likeliest first, from what it holds now
 * and the definitions of the checks on it (the lengths their patterns ask for).
 */
function markedValues(column: Column, now: unknown, marker: string, checks: string[]): unknown[] {
  if (textTypes.has(column.type)) {
    const text = typeof now === 'string' ? now : '';
    const lengths = checks.flatMap((c) => [...c.matchAll(/\{(\d+)|>= (\d+)/g)].map((m) => Number(m[1] ?? m[2])));
    // Appended, then in place of the end (a value of fixed length or pattern), then alone, as an
    // e-mail address, as an id like Stripe's, or as long as a pattern asks.
    return [
      ...new Set([
        `${text}${marker}`,
        text.length > marker.length ? text.slice(0, -marker.length) + marker : marker,
        marker,
        `${marker}@example.org`,
        `id_${marker}`,
        ...lengths.filter((n) => n > marker.length).map((n) => marker.padEnd(n, '0')),
      ]),
    ];
  }
  if (column.type === '_text') return [[...(Array.isArray(now) ? (now as string[]) : []), marker]];
  // JSON: a key of an object, an element of an array, or a string.
  return [
    JSON.stringify({ ...(now && typeof now === 'object' && !Array.isArray(now) ? now : {}), [marker]: marker }),
    JSON.stringify([...(Array.isArray(now) ? now : []), marker]),
    JSON.stringify(marker),
  ];
}

/** What a column of a new row may hold when it does not carry the marker: kept small and valid. */
function plainValues(column: Column, literals: string[]): unknown[] {
  const fromChecks = literals.filter((l) => !l.startsWith('^'));
  switch (column.type) {
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'numeric':
    case 'double precision':
    case 'real':
      return [1, 0, -1, 2000];
    case 'boolean':
      return [true, false];
    case 'date':
      return [new Date().toISOString().slice(0, 10)];
    case 'timestamp with time zone':
    case 'timestamp without time zone':
      return [new Date()];
    case 'uuid':
      return ['00000000-0000-4000-8000-000000000001'];
    case 'bytea':
      return [Buffer.from('marker')];
    case 'jsonb':
    case 'json':
      return ['{}', '[]'];
    case '_text':
      return [fromChecks.slice(0, 1)];
    default:
      return [...fromChecks, 'x'];
  }
}

/** Pseudo-random numbers seeded by `seed` (mulberry32), as unsigned 32-bit integers. */
function sequence(seed: string): () => number {
  let state = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const checksOn = (table: Table, column: Column) =>
  [...table.checks.values()].filter((c) => c.columns.includes(column.name)).map((c) => c.definition);

async function describeSchema(db: Db, schema: string): Promise<Table[]> {
  const columns = (
    await db.raw<{
      rows: { table_name: string; column_name: string; type: string; nullable: boolean; filled: boolean }[];
    }>(
      `select c.table_name, c.column_name, case when c.data_type = 'ARRAY' then c.udt_name else c.data_type end as type,
              c.is_nullable = 'YES' as nullable, c.column_default is not null or c.is_identity = 'YES' as filled
         from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = ? and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
        order by c.table_name, c.ordinal_position`,
      [schema],
    )
  ).rows;
  const constraints = (
    await db.raw<{ rows: { table_name: string; name: string; kind: string; columns: string[]; definition: string }[] }>(
      `select t.relname as table_name, k.conname as name, k.contype as kind, pg_get_constraintdef(k.oid) as definition,
              array(select a.attname::text from pg_attribute a where a.attrelid = t.oid and a.attnum = any(k.conkey)) as columns
         from pg_constraint k join pg_class t on t.oid = k.conrelid
        where t.relnamespace = ?::regnamespace and k.contype in ('p', 'c')`,
      [schema],
    )
  ).rows;
  const tables = new Map<string, Table>();
  for (const c of columns) {
    const table: Table = tables.get(c.table_name) ?? { name: c.table_name, columns: [], key: [], checks: new Map() };
    table.columns.push({ name: c.column_name, type: c.type, nullable: c.nullable, filled: c.filled });
    tables.set(c.table_name, table);
  }
  for (const k of constraints) {
    const table = tables.get(k.table_name);
    if (!table) continue;
    if (k.kind === 'p') table.key = k.columns;
    else
      table.checks.set(k.name, {
        columns: k.columns,
        definition: k.definition,
        literals: [...k.definition.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => m[1].replace(/''/g, "'")),
      });
  }
  return [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Plants `marker` in the schema's tables; see the file's head. */
export async function plantMarker(db: Db, schema: string, marker: string): Promise<PlantedMarker> {
  const tables = await describeSchema(db, schema);
  const undo: { sql: string; bindings: unknown[] }[] = [];
  const carrying: PlantedMarker['tables'] = new Map();
  const qualified = (table: Table) => `"${schema}"."${table.name}"`;
  /** Runs `sql` in a savepoint: the rows it returned, or undefined when a constraint refused it. */
  const attempt = async (trx: Db, sql: string, bindings: unknown[]) => {
    try {
      return (await trx.transaction((sp) => sp.raw<{ rows: Record<string, unknown>[] }>(sql, bindings as never[])))
        .rows;
    } catch (error) {
      if (/^(23|22)/.test(pgCode(error) ?? '')) return undefined;
      throw error;
    }
  };
  await db.transaction(async (trx) => {
    await trx.raw('set local session_replication_role = replica');
    for (const table of tables) {
      const marked: string[] = [];
      const planted: { columns: string[]; key?: Record<string, unknown> } = { columns: marked };
      carrying.set(table.name, planted);
      const keyOf = (values: Record<string, unknown>) => Object.fromEntries(table.key.map((k) => [k, values[k]]));
      const carriers = table.columns.filter(carries);
      if (!carriers.length) continue;
      const keyList = table.key.map((k) => `"${k}"`).join(', ');
      const [row] = (
        await trx.raw<{ rows: Record<string, unknown>[] }>(
          `select * from ${qualified(table)} order by ${keyList} limit 1`,
        )
      ).rows;
      if (row) {
        const where = table.key.map((k) => `"${k}" = ?`).join(' and ');
        // The row's key as it is now: a column of the key may carry the marker too.
        let key = table.key.map((k) => row[k]);
        for (const column of carriers) {
          for (const value of markedValues(column, row[column.name], marker, checksOn(table, column))) {
            const sql = `update ${qualified(table)} set "${column.name}" = ? where ${where} returning ${keyList}`;
            const changed = await attempt(trx, sql, [value, ...key]);
            if (!changed) continue;
            key = table.key.map((k) => changed[0][k]);
            planted.key = keyOf(changed[0]);
            marked.push(column.name);
            const was = row[column.name];
            undo.push({ sql, bindings: [was !== null && isJson(column) ? JSON.stringify(was) : was, ...key] });
            break;
          }
        }
        continue;
      }
      // An empty table gets a row: every column that holds text with the marker where its checks let
      // it, the others with a value they let through (see below).
      const choices = new Map<string, unknown[]>();
      for (const column of table.columns) {
        const literals = [...table.checks.values()]
          .filter((c) => c.columns.includes(column.name))
          .flatMap((c) => c.literals);
        const plain = plainValues(column, literals);
        // What does not carry the marker starts as the table would fill it: its default, or null.
        const first = column.filled ? [byDefault] : column.nullable ? [null] : [];
        const values = carries(column)
          ? [...markedValues(column, null, marker, checksOn(table, column)), ...first, ...plain]
          : [...first, ...plain];
        choices.set(column.name, column.nullable && !values.includes(null) ? [...values, null] : values);
      }
      const position = new Map(table.columns.map((c) => [c.name, 0]));
      const random = sequence(table.name);
      const names = table.columns.map((c) => c.name);
      for (let tries = 0; tries < 400; tries++) {
        const chosen = names.map((name) => choices.get(name)![position.get(name)!]);
        const sql = `insert into ${qualified(table)} (${names.map((n) => `"${n}"`).join(', ')})
                     values (${chosen.map((v) => (v === byDefault ? 'default' : '?')).join(', ')}) returning ${keyList}`;
        let refusal: { constraint?: string; column?: string };
        try {
          const inserted = await trx.transaction((sp) =>
            sp.raw<{ rows: Record<string, unknown>[] }>(sql, chosen.filter((v) => v !== byDefault) as never[]),
          );
          planted.key = keyOf(inserted.rows[0]);
          undo.push({
            sql: `delete from ${qualified(table)} where ${table.key.map((k) => `"${k}" = ?`).join(' and ')}`,
            bindings: table.key.map((k) => inserted.rows[0][k]),
          });
          marked.push(
            ...names.filter((_, i) => chosen[i] !== byDefault && JSON.stringify(chosen[i] ?? null).includes(marker)),
          );
          break;
        } catch (error) {
          if (!/^(23|22)/.test(pgCode(error) ?? '')) throw error;
          refusal = error as { constraint?: string; column?: string };
        }
        const refusing = refusal.constraint
          ? (table.checks.get(refusal.constraint)?.columns ?? [])
          : refusal.column
            ? [refusal.column]
            : [];
        // One of the refusing check's columns takes another of its values, picked at random (from a
        // sequence the same at every run): with checks sharing columns, a fixed order goes round in circles.
        if (!refusing.length) break;
        const name = refusing[random() % refusing.length];
        const count = choices.get(name)!.length;
        position.set(name, (position.get(name)! + 1 + (random() % Math.max(1, count - 1))) % count);
      }
    }
    // The shop's cached reads follow its revision, which the triggers left as it was.
    await trx.raw('set local session_replication_role = origin');
    await trx.raw(`update "${schema}".shop_revision set revision = revision + 1`);
  });
  return {
    tables: carrying,
    async undo() {
      await db.transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        for (const { sql, bindings } of undo.reverse()) await trx.raw(sql, bindings as never[]);
        await trx.raw('set local session_replication_role = origin');
        await trx.raw(`update "${schema}".shop_revision set revision = revision + 1`);
      });
    },
  };
}
