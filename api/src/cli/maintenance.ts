import path from 'node:path';
import { ConfigError, loadConfig } from '../foundations/config.ts';
import { withoutPassword } from '../db/connection.ts';
import { setLogSilent } from '../foundations/log.ts';
import { writeBackup } from '../maintenance/backup.ts';
import { checkDatabase } from '../maintenance/check.ts';
import { eraseCustomerEmails } from '../privacy/erase-emails.ts';
import { MaintenanceError } from '../maintenance/errors.ts';
import { moveDatabase } from '../maintenance/move.ts';
import { describeTarget, isPostgresUrl, openDatabase } from '../maintenance/open.ts';
import { restoreBackup } from '../maintenance/restore.ts';

// npm run backup / restore / migrate-to-postgres, on the same database as npm start (DATABASE_URL,
// else the embedded one in DATA_DIR). See docs/data-safety.md.

const usage = `Usage:
  npm run backup -- <file>                  write a backup of the database (gzip'd JSON lines)
  npm run restore -- <file>                 load a backup into an empty database
  npm run migrate-to-postgres [-- <url>]    move the embedded database (DATA_DIR) into an empty
                                            PostgreSQL database (the url, else DATABASE_URL)
  npm run check                             check the books and the indexes (only reads)
  npm run erase-emails                      erase customers' e-mail addresses CUSTOMER_EMAIL_DAYS
                                            after their download links expired (the server does
                                            this every hour by itself)

They use the database npm start uses: DATABASE_URL, else the embedded one in DATA_DIR (./data).
With the embedded database, stop the server first: it belongs to one process at a time.`;

const log = (line: string) => process.stdout.write(`${line}\n`);
const count = (n: number) => n.toLocaleString('en-US');
const rowsOf = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;

async function backup(file: string | undefined): Promise<void> {
  if (!file) throw new MaintenanceError(usage);
  const config = loadConfig();
  const db = await openDatabase(config, { existing: true });
  try {
    log(`Backing up ${describeTarget(config)} …`);
    const header = await writeBackup(db, path.resolve(file));
    const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
    log(`Wrote ${file}: ${header.tables.length} tables, ${rowsOf(rows)}, schema ${header.migrations.at(-1)}.`);
  } finally {
    await db.destroy();
  }
}

async function restore(file: string | undefined): Promise<void> {
  if (!file) throw new MaintenanceError(usage);
  const config = loadConfig();
  const db = await openDatabase(config, { existing: false });
  try {
    log(`Restoring ${file} into ${describeTarget(config)} …`);
    const header = await restoreBackup(db, path.resolve(file), (table, rows) => log(`  ${table}: ${rowsOf(rows)}`));
    log(`Restored the backup of ${header.createdAt} (${header.engine}); every table's rows and checksum match it.`);
  } finally {
    await db.destroy();
  }
}

async function migrateToPostgres(url: string | undefined): Promise<boolean> {
  const config = loadConfig();
  const targetUrl = url ?? config.databaseUrl;
  if (!targetUrl || !isPostgresUrl(targetUrl)) {
    throw new MaintenanceError(
      `Give the PostgreSQL database to move into: npm run migrate-to-postgres -- postgres://user:password@host/db (or DATABASE_URL).\n\n${usage}`,
    );
  }
  const source = await openDatabase({ dataDir: config.dataDir }, { existing: true });
  const target = await openDatabase({ databaseUrl: targetUrl, dataDir: config.dataDir }, { existing: false });
  try {
    log(
      `Moving ${describeTarget({ dataDir: config.dataDir })} into ${describeTarget({ databaseUrl: targetUrl, dataDir: '' })} …`,
    );
    const comparison = await moveDatabase(source, target, (table, rows) => log(`  ${table}: ${rowsOf(rows)}`));
    const table = [
      ['table', 'rows (embedded)', 'rows (PostgreSQL)', 'checksum (embedded)', 'checksum (PostgreSQL)', ''],
      ...comparison.map((c) => [
        c.table,
        c.sourceRows === null ? 'missing' : count(c.sourceRows),
        c.targetRows === null ? 'missing' : count(c.targetRows),
        c.sourceChecksum?.slice(0, 12) ?? '',
        c.targetChecksum?.slice(0, 12) ?? '',
        c.same ? 'same' : 'DIFFERENT',
      ]),
    ];
    const widths = table.reduce<number[]>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), []);
    log('');
    for (const row of table)
      log(
        row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      );
    const differing = comparison.filter((c) => !c.same);
    log('');
    if (differing.length) {
      log(
        `${differing.length} of ${comparison.length} tables differ. Keep running on the embedded database and report this.`,
      );
      return false;
    }
    log(
      `All ${comparison.length} tables are the same. Set DATABASE_URL to this database and start the server; keep ${config.dataDir} as a copy.`,
    );
    return true;
  } finally {
    await source.destroy();
    await target.destroy();
  }
}

async function check(): Promise<boolean> {
  const config = loadConfig();
  const db = await openDatabase(config, { existing: true });
  try {
    log(`Checking ${describeTarget(config)} …`);
    const results = await checkDatabase(db);
    for (const result of results) {
      log(`${result.problems.length ? 'FAILED' : 'ok    '}  ${result.check}`);
      for (const problem of result.problems) log(`          ${problem}`);
    }
    const failed = results.filter((r) => r.problems.length).length;
    log(
      failed
        ? `\n${failed} of ${results.length} checks failed. Keep a backup of this state and see docs/data-safety.md.`
        : `\nAll ${results.length} checks passed.`,
    );
    return failed === 0;
  } finally {
    await db.destroy();
  }
}

async function eraseEmails(): Promise<boolean> {
  const config = loadConfig();
  const db = await openDatabase(config, { existing: true });
  try {
    log(`Erasing customers' e-mail addresses ${config.customerEmailDays} days after their links expired …`);
    const run = await eraseCustomerEmails(db, config);
    log(
      run.ran
        ? `Erased the address of ${count(run.orders)} ${run.orders === 1 ? 'order' : 'orders'}.`
        : 'Another process is erasing addresses right now; nothing was done.',
    );
    return true;
  } finally {
    await db.destroy();
  }
}

async function main(args: string[]): Promise<boolean> {
  setLogSilent(true);
  const [command, argument] = args;
  if (command === 'backup') await backup(argument);
  else if (command === 'restore') await restore(argument);
  else if (command === 'migrate-to-postgres') return migrateToPostgres(argument);
  else if (command === 'check') return check();
  else if (command === 'erase-emails') return eraseEmails();
  else throw new MaintenanceError(usage);
  return true;
}

main(process.argv.slice(2)).then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    // A refusal (a usage, a configuration the server would refuse too) is a sentence for the operator;
    // anything else keeps its stack for whoever reports it.
    const told = error instanceof MaintenanceError || error instanceof ConfigError;
    process.stderr.write(`${withoutPassword(told ? error.message : ((error as Error)?.stack ?? String(error)))}\n`);
    process.exit(1);
  },
);
