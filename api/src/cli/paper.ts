import path from 'node:path';
import { createDb, migrate, withoutPassword, type Db } from '../db/connection.ts';
import { ConfigError, loadConfig, type Config } from '../foundations/config.ts';
import { DomainError, invalidError } from '../foundations/errors.ts';
import { setLogSilent } from '../foundations/log.ts';
import { writeBackup } from '../maintenance/backup.ts';
import { keyedClient, stripeClient } from '../stripe/adapter.ts';
import { useConnectedAccount } from '../stripe/connect.ts';
import {
  addPaper,
  connectAccount,
  findPaper,
  hasPlatform,
  listPapers,
  migratePlatform,
  paperDb,
  removePaper,
  schemaOf,
  setPaperFiscal,
  setPaperStatus,
} from '../platform/papers.ts';
import { paperConfig } from '../platform/serve.ts';
import { preparePaper } from '../startup/paper.ts';
import { onSandboxOf } from './with-sandbox.ts';

// npm run paper: the papers of a platform, many papers on one PostgreSQL (docs/architecture.md,
// "Many papers on one installation"). The server serves them with PLATFORM_DOMAIN set.

const usage = `Usage:
  npm run paper -- add <slug> --host <host> [--host <host> …] [--currency CHF] [--country CH]
                   [--time-zone Europe/Zurich] [--demo]
  npm run paper -- list
  npm run paper -- migrate                 every paper's schema, each in its own transaction
  npm run paper -- suspend <slug>          answered 503 (a running server: within 30 seconds)
  npm run paper -- resume <slug>
  npm run paper -- remove <slug> --yes     drops the paper's schema with all its data, and its role
  npm run paper -- connect <slug> <acct_…>|none
                                           the paper sells on its connected Stripe account (Standard,
                                           onboarded), and the platform's Connect endpoint hands it
                                           that account's events; none: on the platform's own again
  npm run paper -- backup <slug> [--out <file>]
                                           the paper's data alone, as npm run backup writes it (file:
                                           <slug>-<date>.backup.gz); npm run restore turns it into an
                                           installation of its own, embedded or on PostgreSQL
  npm run paper -- fiscal <slug> --api-key <key> --api-secret <secret> --tss <uuid> --client <uuid>
                   [--api-url <url>] [--secret-key <secret>]
                                           the paper's own fiskaly account (SIGN DE; in Austria SIGN AT,
                                           --tss its signature creation unit): its tills sign with it
                                           alone; no two papers share an API key or a TSS

Needs DATABASE_URL (PostgreSQL) and PLATFORM_SECRET, as npm start with PLATFORM_DOMAIN does.
A platform never signs with FISCAL_API_KEY and the other FISCAL_ credentials: they would be one
account for every paper, so each paper is given its own with npm run paper -- fiscal.`;

const say = (line: string) => process.stdout.write(`${line}\n`);

function options(args: string[], name: string): string[] {
  return args.flatMap((arg, i) => (arg === `--${name}` && args[i + 1] !== undefined ? [args[i + 1]!] : []));
}

/** The configuration of a platform: PostgreSQL and the secret, else a sentence saying so. */
function platformConfig(): Config & { databaseUrl: string; platform: { secret: string } } {
  const config = loadConfig();
  const { databaseUrl, platform } = config;
  if (!databaseUrl)
    throw invalidError(
      'Many papers need PostgreSQL: set DATABASE_URL to a PostgreSQL database. The embedded database (DATA_DIR) holds one paper.',
    );
  if (!platform.secret)
    throw invalidError(
      'Set PLATFORM_SECRET (a long random text, kept like a password): it seals the papers’ database passwords.',
    );
  return { ...config, databaseUrl, platform: { ...platform, secret: platform.secret } };
}

async function add(admin: Db, config: ReturnType<typeof platformConfig>, args: string[]): Promise<void> {
  const slug = args[1];
  const hosts = options(args, 'host');
  if (!slug || slug.startsWith('--')) throw invalidError(usage);
  if (!hosts.length && !config.platform.domain)
    throw invalidError(`Give the paper a host (--host shop.example.org), or set PLATFORM_DOMAIN for ${slug}.<domain>.`);
  await migratePlatform(admin);
  const paper = await addPaper(admin, config.platform.secret, {
    slug,
    hosts,
    currency: options(args, 'currency')[0],
    country: options(args, 'country')[0],
    timeZone: options(args, 'time-zone')[0],
  });
  say(
    `Paper ${slug} added: schema and role ${schemaOf(slug)}, ${paper.currency}, ${paper.country}, ${paper.timeZone}.`,
  );
  const db = await paperDb(admin, config.databaseUrl, config.platform.secret, slug);
  try {
    await migrate(db);
    const demo = args.includes('--demo');
    const { seeded, newPasswords } = await preparePaper(db, {
      ...paperConfig(process.env, config, paper),
      seedDemo: demo,
      seedHistory: false,
    });
    if (seeded) say('The demo newspaper is seeded.');
    for (const login of newPasswords) say(`  Demo login (shown once): ${login.username} / ${login.password}`);
  } finally {
    await db.destroy();
  }
}

/**
 * The paper's backup, read by its own role from its own schema: nothing of another paper or of the
 * platform can be in it. It is a backup of one installation, so npm run restore makes one of it; what
 * the platform's list keeps beside the schema (country, currency, time zone) is said for its start.
 */
async function backup(admin: Db, config: ReturnType<typeof platformConfig>, args: string[]): Promise<void> {
  const slug = args[1]!;
  const paper = await findPaper(admin, slug);
  const file = path.resolve(options(args, 'out')[0] ?? `${slug}-${new Date().toISOString().slice(0, 10)}.backup.gz`);
  const db = await paperDb(admin, config.databaseUrl, config.platform.secret, slug);
  try {
    const header = await writeBackup(db, file);
    const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
    say(
      `Wrote ${file}: the paper ${slug}, ${header.tables.length} tables, ${rows.toLocaleString('en-US')} rows, schema ${header.migrations.at(-1)}.`,
    );
    say(
      `As an installation of its own: npm run restore -- ${file} (into an empty DATA_DIR or DATABASE_URL), then start it with COUNTRY=${paper.country} CURRENCY=${paper.currency} TIME_ZONE=${paper.timeZone}.`,
    );
  } finally {
    await db.destroy();
  }
}

/**
 * The paper's connected Stripe account, in the platform's list (where the Connect endpoint finds the
 * paper by an event's `account`) and in the paper's settings (where its sales take it) at once. The
 * account is checked with the platform's key, or without one in the paper's own sandbox.
 */
async function connect(admin: Db, config: ReturnType<typeof platformConfig>, args: string[]): Promise<void> {
  const [, slug, given] = args;
  if (!slug || !given || given.startsWith('--')) throw invalidError(usage);
  const account = given === 'none' ? null : given;
  const paper = await findPaper(admin, slug);
  const db = await paperDb(admin, config.databaseUrl, config.platform.secret, slug);
  try {
    const local = paperConfig(process.env, config, paper);
    await connectAccount(admin, slug, account, () =>
      local.stripe.secretKey
        ? useConnectedAccount(db, keyedClient(local), account, 'npm run paper')
        : onSandboxOf(db, local, (sandbox) =>
            useConnectedAccount(db, stripeClient(db, sandbox), account, 'npm run paper'),
          ),
    );
  } finally {
    await db.destroy();
  }
  say(
    account
      ? `Paper ${slug} sells on ${account} from its next order on; the platform's Connect endpoint hands it the account's events.`
      : `Paper ${slug} sells on the platform's own Stripe account again.`,
  );
}

/** The paper's own signing credentials, sealed in the platform's list; none of them is printed. */
async function fiscal(admin: Db, config: ReturnType<typeof platformConfig>, args: string[]): Promise<void> {
  const slug = args[1]!;
  const given = (name: string) => options(args, name)[0];
  const missing = ['api-key', 'api-secret', 'tss', 'client'].filter((name) => !given(name));
  if (missing.length) throw invalidError(`Give ${missing.map((name) => `--${name}`).join(', ')}.\n\n${usage}`);
  await migratePlatform(admin);
  await setPaperFiscal(admin, config.platform.secret, slug, {
    apiKey: given('api-key')!,
    apiSecret: given('api-secret')!,
    tssId: given('tss')!,
    clientId: given('client')!,
    apiUrl: given('api-url'),
    secretKey: given('secret-key'),
  });
  say(
    `Paper ${slug} signs with its own fiskaly account: TSS ${given('tss')!.toLowerCase()}, client ${given('client')!.toLowerCase()}. ` +
      'A running server takes it up within 30 seconds.',
  );
}

/** Migrates every paper, each on its own; one that fails is reported and the others go on. */
async function migrateAll(admin: Db, config: ReturnType<typeof platformConfig>): Promise<boolean> {
  await migratePlatform(admin);
  let failed = false;
  for (const paper of await listPapers(admin)) {
    const db = await paperDb(admin, config.databaseUrl, config.platform.secret, paper.slug);
    try {
      const before = await db.migrate.currentVersion().catch(() => 'none');
      await migrate(db);
      const after = await db.migrate.currentVersion();
      say(`${paper.slug}: ${before === after ? 'up to date' : `migrated to ${after}`}`);
    } catch (error) {
      failed = true;
      say(`${paper.slug}: failed, left as it was: ${withoutPassword(String((error as Error)?.message ?? error))}`);
    } finally {
      await db.destroy();
    }
  }
  return !failed;
}

async function run(args: string[]): Promise<boolean> {
  const command = args[0];
  if (
    !command ||
    !['add', 'list', 'migrate', 'suspend', 'resume', 'remove', 'backup', 'connect', 'fiscal'].includes(command)
  )
    throw invalidError(usage);
  const config = platformConfig();
  const admin = createDb({ databaseUrl: config.databaseUrl, dataDir: '', poolMax: 2 });
  try {
    if (command === 'add') {
      await add(admin, config, args);
      return true;
    }
    if (command === 'migrate') return await migrateAll(admin, config);
    if (!(await hasPlatform(admin)))
      throw invalidError('This database has no papers yet: add one with npm run paper -- add.');
    if (command === 'list') {
      for (const paper of await listPapers(admin)) {
        const hosts = new Set([
          ...paper.hosts,
          ...(config.platform.domain ? [`${paper.slug}.${config.platform.domain}`] : []),
        ]);
        say(
          `${paper.slug}\t${paper.status}\t${paper.currency}\t${paper.country}\t${paper.timeZone}\t${[...hosts].join(' ')}\t${paper.stripeAccount ?? '-'}`,
        );
      }
      return true;
    }
    const slug = args[1];
    if (!slug || slug.startsWith('--')) throw invalidError(usage);
    if (command === 'backup') {
      await backup(admin, config, args);
      return true;
    }
    if (command === 'connect') {
      await connect(admin, config, args);
      return true;
    }
    if (command === 'fiscal') {
      await fiscal(admin, config, args);
      return true;
    }
    if (command === 'remove') {
      await findPaper(admin, slug);
      if (!args.includes('--yes'))
        throw invalidError(
          `This drops the paper ${slug} with all its data for good. Run it again with --yes to do it.`,
        );
      await removePaper(admin, slug);
      say(`Paper ${slug} removed: its schema, its data and its role are gone.`);
      return true;
    }
    await setPaperStatus(admin, slug, command === 'suspend' ? 'suspended' : 'active');
    say(
      `Paper ${slug} is ${command === 'suspend' ? 'suspended' : 'active'}; a running server takes it up within 30 seconds.`,
    );
    return true;
  } finally {
    await admin.destroy();
  }
}

setLogSilent(true);
try {
  if (!(await run(process.argv.slice(2)))) process.exitCode = 1;
} catch (error) {
  const known = error instanceof DomainError || error instanceof ConfigError;
  console.error(known ? error.message : String((error as Error)?.stack ?? error));
  process.exitCode = 1;
}
