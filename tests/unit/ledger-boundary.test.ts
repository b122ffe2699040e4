import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// Money is moved and summed by api/src/ledger and nowhere else: a static scan of the source tree fails
// when any other file (migrations aside) writes the books' tables, sums ledger rows by the account that
// received or sent them (a credit or balance of its own, which could disagree with the ledger's), or
// when the ledger imports the HTTP layer. Tests are not scanned: they set up states and probe the
// ledger guard on purpose.

const root = path.resolve(import.meta.dirname, '../..');
const ledgerDir = path.join(root, 'api/src/ledger');
const httpDir = path.join(root, 'api/src/http');
const scanned = ['api', 'seeds', 'bench', 'scripts'];
// The bench, like the tests, checks the books from outside: a sum of its own is how it checks them.
const summing = scanned.filter((dir) => dir !== 'bench');
// The cash book is money too: its movements, closes, voucher counters and counter visits.
const booksTables = [
  'ledger_rows',
  'payouts',
  'ledger_accounts',
  'cash_movements',
  'till_closes',
  'till_voucher_counters',
  'counter_visits',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) ? [full] : [];
  });
}

const tableName = `(?:${booksTables.join('|')})`;
/** A table named the way knex takes it: `('ledger_rows')`, `("payouts as p")`, `(\`ledger_accounts\`)`. */
const knexTable = new RegExp(`\\(\\s*['"\`]\\s*${tableName}(?:\\s+as\\s+\\w+)?\\s*['"\`]`, 'gi');
const knexWrite = /\.\s*(insert|update|del|delete|truncate|upsert|merge|increment|decrement)\s*\(/;
/** Writes in SQL text, quoted identifiers and schema prefixes included. */
const sqlWrites = [
  new RegExp(`\\binsert\\s+into\\s+(?:\\w+\\.)?"?${tableName}\\b`, 'gi'),
  new RegExp(`\\bupdate\\s+(?:only\\s+)?(?:\\w+\\.)?"?${tableName}\\b`, 'gi'),
  new RegExp(`\\bdelete\\s+from\\s+(?:only\\s+)?(?:\\w+\\.)?"?${tableName}\\b`, 'gi'),
  new RegExp(`\\btruncate\\s+(?:table\\s+)?(?:only\\s+)?[^;'"\`]*\\b${tableName}\\b`, 'gi'),
  new RegExp(`\\bmerge\\s+into\\s+(?:\\w+\\.)?"?${tableName}\\b`, 'gi'),
  new RegExp(`\\bcopy\\s+(?:\\w+\\.)?"?${tableName}\\b[^;'"\`]*\\bfrom\\b`, 'gi'),
  new RegExp(`\\balter\\s+table\\s+(?:only\\s+)?(?:\\w+\\.)?"?${tableName}\\b`, 'gi'),
];

/** The lines of `text` that write one of the books' tables, as "line: code". */
export function booksWrites(text: string): string[] {
  const found = new Set<number>();
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(knexTable)) {
    // The statement the table is named in: from the last `;` before it to the next one after it.
    const start = text.lastIndexOf(';', match.index) + 1;
    const end = text.indexOf(';', match.index);
    const statement = text.slice(start, end === -1 ? undefined : end);
    if (knexWrite.test(statement)) found.add(lineOf(match.index));
  }
  // `.into('ledger_rows')` / `.table('payouts')` / `.from(...)` are covered above: they name the table in parentheses.
  for (const pattern of sqlWrites) for (const match of text.matchAll(pattern)) found.add(lineOf(match.index));
  const lines = text.split('\n');
  return [...found].sort((a, b) => a - b).map((n) => `${n}: ${lines[n - 1].trim()}`);
}

/** A join names the side columns to find an account, not to sum by it: `on sa.id = r.sender_id`. */
const joinOnSide =
  /\bon\s+[\w.]+\s*=\s*[\w.]*\b(?:receiver|sender)_id\b|\bon\s+[\w.]*\b(?:receiver|sender)_id\s*=\s*[\w.]+/gi;

/**
 * The lines of `text` that sum ledger rows by the side an account is on, as "line: code": a statement
 * (from `;` to `;`) that reads `ledger_rows`, sums, and names `receiver_id` or `sender_id` other than
 * in a join. That is a credit or a balance computed outside the ledger, in SQL or through knex.
 */
export function creditSums(text: string): string[] {
  const found = new Set<number>();
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  let start = 0;
  for (const statement of text.split(';')) {
    const sum = /\bsum\s*\(/i.exec(statement);
    if (
      sum &&
      /\bledger_rows\b/i.test(statement) &&
      /\b(?:receiver|sender)_id\b/i.test(statement.replace(joinOnSide, ''))
    ) {
      found.add(lineOf(start + sum.index));
    }
    start += statement.length + 1;
  }
  const lines = text.split('\n');
  return [...found].sort((a, b) => a - b).map((n) => `${n}: ${lines[n - 1].trim()}`);
}

/** Import specifiers of a module: static, re-exports, dynamic and require. */
function importsOf(text: string): string[] {
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\s[^'"`;]*?from\s*['"`]([^'"`]+)['"`]/g),
    ...text.matchAll(/\bimport\s*['"`]([^'"`]+)['"`]/g),
    ...text.matchAll(/\b(?:import|require)\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g),
  ];
  return specifiers.map((m) => m[1]);
}

/** Mail, outgoing webhooks, Stripe and the fiscal services: the ledger's callers talk to them, never the ledger. */
const integrationDirs = ['webhooks-out', 'mail', 'stripe', 'fiscal'].map((dir) => path.join(root, 'api/src', dir));
const ledgerFile = path.join(ledgerDir, 'payout.ts');

/** The relative imports of `text` (the source of `file`) that lead into an integration's folder. */
function integrationImports(text: string, file: string): string[] {
  return importsOf(text)
    .filter((s) => s.startsWith('.'))
    .filter((specifier) => {
      const target = path.resolve(path.dirname(file), specifier);
      return integrationDirs.some((dir) => target === dir || target.startsWith(dir + path.sep));
    });
}

describe('ledger boundary', () => {
  it('recognises writes of the books in every form the code could take (so the scan below can fail)', () => {
    const writes = [
      `await trx('ledger_rows').insert(rows);`,
      `await trx("payouts")\n  .where({ id })\n  .update({ amount: 1 });`,
      `await db('ledger_rows as r').where('r.id', 1).del();`,
      `await db.insert({ amount: 1 }).into('ledger_rows');`,
      `await knex.table('ledger_accounts').insert({ kind: 'cash' });`,
      `await trx.raw('INSERT INTO ledger_rows (amount) values (1)');`,
      'await trx.raw(`update "payouts" set amount = 2`);',
      `await db.raw("delete from public.ledger_accounts where id = 1");`,
      `await db.raw('truncate table orders, ledger_rows cascade');`,
      `await db.raw('alter table ledger_rows disable trigger ledger_rows_guard');`,
    ];
    for (const code of writes) assert.equal(booksWrites(code).length, 1, code);
    const reads = [
      `const rows = await db('ledger_rows as r').where('r.kind', 'sale').select('r.id');`,
      `await db.raw('select sum(amount) from ledger_rows join payouts p on p.id = payout_id');`,
      `await trx('orders').where({ id }).update({ status: 'paid' });`,
    ];
    for (const code of reads) assert.deepEqual(booksWrites(code), [], code);
  });

  it('no file outside api/src/ledger (and migrations) writes ledger_rows, payouts or ledger_accounts', () => {
    const offenders = scanned
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .filter((file) => !file.startsWith(ledgerDir + path.sep))
      .flatMap((file) => booksWrites(readFileSync(file, 'utf8')).map((line) => `${path.relative(root, file)}:${line}`));
    assert.deepEqual(offenders, [], `money is moved only by api/src/ledger:\n${offenders.join('\n')}`);
  });

  it('recognises a credit or balance summed from ledger rows in every form the code could take', () => {
    const sums = [
      `await db.raw(\`select sum(o.signed) from ledger_accounts a cross join lateral (
         select amount as signed from ledger_rows where receiver_id = a.id and payout_id is null
         union all select -amount from ledger_rows where sender_id = a.id and payout_id is null) o group by a.id\`);`,
      `await db.raw('select sum(case when r.receiver_id = a.id then r.amount else -r.amount end) from ledger_rows r join ledger_accounts a on a.vendor_id = ?');`,
      `const side = (column: 'receiver_id' | 'sender_id') => \`select \${column}, sum(amount) from ledger_rows group by \${column}\`;`,
      `await db('ledger_rows').where('receiver_id', account).whereNull('payout_id').sum('amount');`,
      `await trx('ledger_rows as r').groupBy('r.sender_id').select('r.sender_id', trx.raw('sum(r.amount)'));`,
    ];
    for (const code of sums) assert.equal(creditSums(code).length, 1, code);
    const others = [
      // A day's sums per pair of accounts: the sides only find the accounts' kinds.
      `await db.raw('select sa.kind, ra.kind, sum(r.amount) from ledger_rows r join ledger_accounts sa on sa.id = r.sender_id join ledger_accounts ra on ra.id = r.receiver_id group by 1, 2');`,
      `await db.raw('select exists (select 1 from ledger_rows r where r.receiver_id = a.id and r.kind = ?)');`,
      `const copies = await db('ledger_rows as r').where('r.kind', 'counter_sale').select(db.raw('sum(r.quantity)'));`,
      `q.whereIn('r.sender_id', accounts).orWhereIn('r.receiver_id', accounts);\nconst total = await db('payouts').sum('amount');`,
    ];
    for (const code of others) assert.deepEqual(creditSums(code), [], code);
  });

  it('no file outside api/src/ledger sums ledger rows by the account that received or sent them', () => {
    const offenders = summing
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .filter((file) => !file.startsWith(ledgerDir + path.sep))
      .flatMap((file) => creditSums(readFileSync(file, 'utf8')).map((line) => `${path.relative(root, file)}:${line}`));
    assert.deepEqual(offenders, [], `credits and balances are summed only by api/src/ledger:\n${offenders.join('\n')}`);
  });

  it('api/src/ledger imports nothing from api/src/http, not even through another module', () => {
    const files = sourceFiles(ledgerDir);
    assert.ok(files.length > 3, 'the ledger folder is where the money rules are');
    // Follows every relative import from the ledger's files; a path into api/src/http is a finding.
    const offenders: string[] = [];
    const seen = new Set<string>();
    const visit = (file: string, via: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of importsOf(readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))) {
        const target = path.resolve(path.dirname(file), specifier);
        const chain = [...via, path.relative(root, target)];
        if (target === httpDir || target.startsWith(httpDir + path.sep)) offenders.push(chain.join(' → '));
        else if (/\.tsx?$/.test(target)) visit(target, chain);
      }
    };
    for (const file of files) visit(file, [path.relative(root, file)]);
    assert.deepEqual(offenders, [], offenders.join('\n'));
  });

  it('api/src/ledger imports no integration: the events it causes go out through the hook its caller hands in', () => {
    assert.deepEqual(integrationImports("import { emitPayout } from '../webhooks-out/emit.ts';", ledgerFile), [
      '../webhooks-out/emit.ts',
    ]);
    assert.deepEqual(integrationImports("const m = await import('../stripe/adapter.ts');", ledgerFile), [
      '../stripe/adapter.ts',
    ]);
    assert.deepEqual(integrationImports("import type { LedgerEvent } from './events.ts';", ledgerFile), []);
    const offenders = sourceFiles(ledgerDir).flatMap((file) =>
      integrationImports(readFileSync(file, 'utf8'), file).map((s) => `${path.relative(root, file)}: ${s}`),
    );
    assert.deepEqual(offenders, [], `the ledger imports an integration:\n${offenders.join('\n')}`);
  });
});
