import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { runSql } from '../../../migrations/sql.ts';
import { type Country, isCountry, presets } from '../country/presets.ts';
import { createDb, migrationLockKey, pgCode, type Db } from '../db/connection.ts';
import { hostName } from '../foundations/config.ts';
import { conflictError, invalidError, notFoundError } from '../foundations/errors.ts';
import { deriveKey, seal, unseal } from '../foundations/sealing.ts';
import { tr } from '../language/messages.ts';
import { isCurrency, type Currency } from '../money/currency.ts';

// Many papers on one PostgreSQL: the schema `platform` lists them, and each paper's data lives in a
// schema of its own, `paper_<slug>`, owned by a role of the same name that owns nothing else. A
// paper's pool logs in as that role, with a generated password kept sealed in `platform.papers`.
//
// Why a login per paper and not the platform's login with `SET ROLE paper_<slug>` on each pooled
// connection: a session that started as the platform's user can always `RESET ROLE` (or `SET ROLE`
// to any other paper), so only our own code would keep a paper's connection out of another paper's
// schema. Logged in as the paper's role, the session has no other role to become, and PostgreSQL
// itself refuses it every other paper's schema (no USAGE granted) and the platform's.

/** A paper's slug: its name in schema, role and `<slug>.<PLATFORM_DOMAIN>`; lower case, digits, hyphens. */
export const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/**
 * The paper's schema and role. A hyphen (allowed in a host name) becomes an underscore, so the name
 * needs no quoting in SQL; slugs have no underscore, so two slugs never share a schema.
 */
export const schemaOf = (slug: string) => `paper_${slug.replace(/-/g, '_')}`;

export const paperStatuses = ['active', 'suspended'] as const;
export type PaperStatus = (typeof paperStatuses)[number];

export interface Paper {
  slug: string;
  /** The host names the paper is reached at besides `<slug>.<PLATFORM_DOMAIN>`, each unique across papers. */
  hosts: string[];
  currency: Currency;
  country: Country;
  timeZone: string;
  status: PaperStatus;
  /** The paper's Stripe account on the platform's, once connected. */
  stripeAccount: string | null;
  /** The paper's own signing credentials (`npm run paper -- fiscal`), sealed; `paperFiscal` opens them. */
  fiscal: string | null;
  createdAt: Date;
}

/**
 * A paper's own account at the signing service (fiskaly SIGN DE, or SIGN AT in Austria): its
 * organisation's API key and secret, its TSS (in Austria its signature creation unit) and the client
 * id its tills' clients are made from. On a platform these are the only credentials a paper signs
 * with; the FISCAL_ variables of the environment would be one organisation for every paper.
 */
export interface PaperFiscal {
  apiKey: string;
  apiSecret: string;
  tssId: string;
  clientId: string;
  /** Another base of the signing API than FISCAL_API_URL's (or fiskaly's). */
  apiUrl?: string;
  /** What the TSS's admin PUK and PIN are sealed with in the paper's schema; the API secret when absent. */
  secretKey?: string;
}

interface PaperRow {
  slug: string;
  hosts: string[];
  currency: Currency;
  country: Country;
  time_zone: string;
  status: PaperStatus;
  stripe_account: string | null;
  db_password: string;
  fiscal_credentials: string | null;
  created_at: Date;
}

const toPaper = (row: PaperRow): Paper => ({
  slug: row.slug,
  hosts: row.hosts,
  currency: row.currency,
  country: row.country,
  timeZone: row.time_zone,
  status: row.status,
  stripeAccount: row.stripe_account,
  fiscal: row.fiscal_credentials ?? null,
  createdAt: row.created_at,
});

/**
 * The platform's own migrations, apart from the papers' (migrations/): they run once per database
 * in the schema `platform`, the papers' once per paper in the paper's schema.
 */
const forwardOnly = () => Promise.reject(new Error('migrations are forward only'));
const platformMigrations: { name: string; up: (knex: Knex) => Promise<void>; down: () => Promise<void> }[] = [
  {
    name: '001_papers',
    down: forwardOnly,
    up: async (knex) => {
      await runSql(
        knex,
        `create table platform.papers (
           slug text primary key check (slug ~ '^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$'),
           hosts text[] not null default '{}' check (hosts::text = lower(hosts::text)),
           currency text not null,
           country text not null,
           time_zone text not null,
           status text not null default 'active' check (status in ('active', 'suspended')),
           stripe_account text unique,
           -- the role's password, sealed with PLATFORM_SECRET (foundations/sealing.ts)
           db_password text not null,
           created_at timestamptz not null default now()
         );`,
      );
      // A host picks one paper: no host in two papers' lists. An exclusion constraint would need an
      // operator class for text arrays that PostgreSQL does not ship, so a trigger checks it, one
      // change of the lists at a time. One statement: runSql would cut the body at its semicolons.
      await knex.raw(
        `create function platform.papers_hosts_unique() returns trigger language plpgsql as $$
         declare taken text;
         begin
           perform pg_advisory_xact_lock(hashtext('platform.papers.hosts'));
           select h into taken from platform.papers p, unnest(p.hosts) h
             where p.slug <> new.slug and h = any(new.hosts) limit 1;
           if taken is not null then
             raise exception 'the host % belongs to another paper', taken using errcode = '23505';
           end if;
           if (select count(distinct h) from unnest(new.hosts) h) <> cardinality(new.hosts) then
             raise exception 'a host is listed twice' using errcode = '23505';
           end if;
           return new;
         end $$`,
      );
      await knex.raw(
        `create trigger papers_hosts_unique before insert or update of hosts on platform.papers
           for each row execute function platform.papers_hosts_unique()`,
      );
    },
  },
  {
    name: '002_paper_fiscal',
    down: forwardOnly,
    up: async (knex) => {
      // One signing account and one TSS belong to one paper: the database refuses them a second.
      // The account is a hash of the API key, the key itself is only in the sealed credentials.
      await runSql(
        knex,
        `alter table platform.papers
           -- the paper's signing credentials as JSON, sealed with PLATFORM_SECRET (foundations/sealing.ts)
           add column fiscal_credentials text,
           add column fiscal_account text unique,
           add column fiscal_tss text unique;`,
      );
    },
  },
];

const platformSource: Knex.MigrationSource<(typeof platformMigrations)[number]> = {
  getMigrations: () => Promise.resolve(platformMigrations),
  getMigrationName: (m) => m.name,
  getMigration: (m) => Promise.resolve(m),
};

/**
 * Creates or updates the schema `platform`; the papers' schemas are left as they are. Two papers
 * added at once both come here, and knex's own lock fails the second rather than let it wait: they
 * queue on the migrations' advisory lock (db/connection.ts), held on a connection of its own.
 */
export async function migratePlatform(admin: Db): Promise<void> {
  await admin.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(?, hashtext('platform'))", [migrationLockKey]);
    await admin.raw('create schema if not exists platform');
    await admin.migrate.latest({ migrationSource: platformSource, schemaName: 'platform' });
  });
}

/** Whether the schema `platform` has been made (by the first `npm run paper -- add`). */
export async function hasPlatform(admin: Db): Promise<boolean> {
  const { rows } = await admin.raw<{ rows: { made: boolean }[] }>(
    `select to_regclass('platform.papers') is not null as made`,
  );
  return rows[0]?.made ?? false;
}

/** The key the papers' passwords are sealed with. */
const passwordKey = (secret: string) => deriveKey(secret, 'street-paper-shop platform', 'paper database passwords');

/** The key the papers' signing credentials are sealed with. */
const fiscalKey = (secret: string) => deriveKey(secret, 'street-paper-shop platform', 'paper fiscal credentials');

export async function listPapers(admin: Db): Promise<Paper[]> {
  const rows = await admin('platform.papers').orderBy('slug').select<PaperRow[]>('*');
  return rows.map(toPaper);
}

export interface NewPaper {
  slug: string;
  hosts: string[];
  currency?: string;
  country?: string;
  timeZone?: string;
}

/** The paper as given, checked, with the country's currency and time zone where none is given. */
function checked(paper: NewPaper): Omit<Paper, 'status' | 'stripeAccount' | 'fiscal' | 'createdAt'> {
  if (!slugPattern.test(paper.slug))
    throw invalidError(
      tr(
        'The slug "{slug}" must be 1 to 40 lower-case letters, digits and hyphens, starting and ending with a letter or digit.',
        { slug: paper.slug },
      ),
    );
  const hosts = paper.hosts.map((host) => host.trim().toLowerCase());
  const badHost = hosts.find((host) => !hostName.test(host));
  if (badHost !== undefined)
    throw invalidError(tr('"{host}" is not a host name like shop.example.org.', { host: badHost }));
  const country = (paper.country ?? 'DE').toUpperCase();
  if (!isCountry(country)) throw invalidError(tr('The country "{country}" has no preset.', { country }));
  const currency = (paper.currency ?? presets[country].currency).toUpperCase();
  if (!isCurrency(currency))
    throw invalidError(tr('The currency "{currency}" is not one the shop keeps books in.', { currency }));
  const timeZone = paper.timeZone ?? presets[country].timeZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw invalidError(tr('The time zone "{timeZone}" is no IANA time zone like Europe/Zurich.', { timeZone }));
  }
  return { slug: paper.slug, hosts, currency, country, timeZone };
}

/**
 * Lists the paper and makes its role and its empty schema, in one transaction: a refusal (a slug or
 * a host taken) leaves nothing behind. The papers' migrations are the caller's next step, as the
 * paper's own role.
 */
export async function addPaper(admin: Db, secret: string, input: NewPaper): Promise<Paper> {
  const paper = checked(input);
  const name = schemaOf(paper.slug);
  const password = randomBytes(24).toString('base64url');
  try {
    return await admin.transaction(async (trx) => {
      const [row] = await trx('platform.papers')
        .insert({
          slug: paper.slug,
          hosts: paper.hosts,
          currency: paper.currency,
          country: paper.country,
          time_zone: paper.timeZone,
          db_password: seal(passwordKey(secret), password, `paper:${paper.slug}`),
        })
        .returning<PaperRow[]>('*');
      await runFormatted(trx, 'create role %I login password %L', [name, password]);
      // Creating a schema for another role takes membership in it (PostgreSQL 15 without superuser).
      await runFormatted(trx, 'grant %I to current_user', [name]);
      await runFormatted(trx, 'create schema %I authorization %I', [name, name]);
      await runFormatted(trx, 'alter role %I set search_path = %I', [name, name]);
      return toPaper(row!);
    });
  } catch (error) {
    const code = pgCode(error);
    if (code === '23505' || code === '42710' || code === '42P06')
      throw conflictError(
        tr('The paper "{slug}" or one of its hosts is taken: {reason}.', {
          slug: paper.slug,
          // knex puts the statement before PostgreSQL's own words: they alone name what is taken.
          reason:
            String((error as Error).message)
              .split(' - ')
              .pop() ?? '',
        }),
      );
    throw error;
  }
}

/** Runs DDL with names and literals quoted by PostgreSQL's own format(), which DDL cannot bind. */
async function runFormatted(db: Knex, template: string, values: string[]): Promise<void> {
  const placeholders = values.map(() => '?::text').join(', ');
  const { rows } = await db.raw<{ rows: { sql: string }[] }>(`select format(?::text, ${placeholders}) as sql`, [
    template,
    ...values,
  ]);
  await db.raw(rows[0]!.sql);
}

async function paperRow(admin: Db, slug: string): Promise<PaperRow> {
  const row = await admin('platform.papers').where({ slug }).first<PaperRow | undefined>('*');
  if (!row) throw notFoundError(tr('There is no paper "{slug}".', { slug }));
  return row;
}

export async function findPaper(admin: Db, slug: string): Promise<Paper> {
  return toPaper(await paperRow(admin, slug));
}

export async function setPaperStatus(admin: Db, slug: string, status: PaperStatus): Promise<void> {
  await paperRow(admin, slug);
  await admin('platform.papers').where({ slug }).update({ status });
}

/**
 * The paper sells on the connected Stripe `account` (null: on the platform's own again), as the
 * platform's Connect endpoint finds it by its events' `account`. The paper's own settings say the same
 * (`inPaper`, which checks the account at Stripe and writes them as the paper's role): the entry is
 * taken first, so an account of another paper is refused before anything changes, and committed only
 * once the paper's settings are written, so a refusal at Stripe leaves both as they were.
 */
export async function connectAccount(
  admin: Db,
  slug: string,
  account: string | null,
  inPaper: () => Promise<void>,
): Promise<void> {
  await paperRow(admin, slug);
  if (account !== null && !/^acct_[A-Za-z0-9]{1,64}$/.test(account))
    throw invalidError(tr('"{account}" is no Stripe account id like acct_1Nv0FGQ9RKHgCVdK.', { account }));
  try {
    await admin.transaction(async (trx) => {
      await trx('platform.papers').where({ slug }).update({ stripe_account: account });
      await inPaper();
    });
  } catch (error) {
    if (pgCode(error) !== '23505') throw error;
    const holder = await admin('platform.papers').where({ stripe_account: account }).first<{ slug: string }>('slug');
    throw conflictError(
      tr('The Stripe account {account} is connected to the paper "{slug}" already.', {
        account: account!,
        slug: holder?.slug ?? '?',
      }),
    );
  }
}

/** Drops the paper's schema with all its data, its role and its entry, in one transaction. */
export async function removePaper(admin: Db, slug: string): Promise<void> {
  await paperRow(admin, slug);
  const name = schemaOf(slug);
  await admin.transaction(async (trx) => {
    await runFormatted(trx, 'drop schema if exists %I cascade', [name]);
    await runFormatted(trx, 'drop owned by %I', [name]);
    await runFormatted(trx, 'drop role %I', [name]);
    await trx('platform.papers').where({ slug }).delete();
  });
}

/**
 * An unused connection of a paper's pool is closed after a second, where a single paper's pool keeps
 * it 30 s. A platform's start starts every paper at once, and each paper's jobs make their first run
 * at its start with up to four connections: kept 30 s (or 5 s), 50 papers ran into PostgreSQL's
 * default of 100 connections (npm run bench -- papers). The price is a new connection for an idle
 * paper's job every 10 s; a busy paper keeps its connections in use.
 */
const paperPoolIdleMs = 1_000;

/**
 * A pool of the paper's own: logged in as its role, in its schema, a few connections (a process
 * holds one pool per paper, and PostgreSQL's connections are shared by all of them).
 */
export async function paperDb(admin: Db, databaseUrl: string, secret: string, slug: string): Promise<Db> {
  const row = await paperRow(admin, slug);
  const password = unseal(passwordKey(secret), row.db_password, `paper:${slug}`);
  if (password === undefined)
    throw conflictError(
      tr(
        'The database password of the paper "{slug}" does not open with this PLATFORM_SECRET: start with the secret it was added with.',
        { slug },
      ),
    );
  const url = new URL(databaseUrl);
  url.username = schemaOf(slug);
  url.password = password;
  url.searchParams.delete('options');
  return createDb({
    databaseUrl: url.href,
    dataDir: '',
    schema: schemaOf(slug),
    poolMax: 4,
    poolIdleMs: paperPoolIdleMs,
  });
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The signing account as the platform's list keeps it: a hash of the API key, never the key. */
const fiscalAccount = (apiKey: string) => `key:${createHash('sha256').update(apiKey).digest('hex')}`;

/**
 * Gives the paper its own signing credentials, sealed; a running server signs its tills with them
 * from its next look at the list. An API key or a TSS another paper signs with is refused: that
 * paper's device would sign this paper's cash.
 */
export async function setPaperFiscal(admin: Db, secret: string, slug: string, input: PaperFiscal): Promise<Paper> {
  await paperRow(admin, slug);
  if ((['apiKey', 'apiSecret', 'tssId', 'clientId'] as const).some((key) => !input[key]?.trim()))
    throw invalidError(tr('The signing credentials need the API key, the API secret, the TSS and the client id.'));
  const fiscal: PaperFiscal = {
    apiKey: input.apiKey.trim(),
    apiSecret: input.apiSecret.trim(),
    tssId: input.tssId.trim().toLowerCase(),
    clientId: input.clientId.trim().toLowerCase(),
    ...(input.apiUrl?.trim() ? { apiUrl: input.apiUrl.trim().replace(/\/+$/, '') } : {}),
    ...(input.secretKey ? { secretKey: input.secretKey } : {}),
  };
  for (const id of [fiscal.tssId, fiscal.clientId])
    if (!uuidPattern.test(id))
      throw invalidError(
        tr('The TSS and the client id are UUIDs like 0b9ac2e5-1b4e-4a53-8d3e-2f6c1c9a7f10; "{id}" is none.', { id }),
      );
  if (fiscal.apiUrl && !/^https?:$/.test(URL.canParse(fiscal.apiUrl) ? new URL(fiscal.apiUrl).protocol : ''))
    throw invalidError(
      tr('"{url}" is no address like https://kassensichv-middleware.fiskaly.com/api/v2.', { url: fiscal.apiUrl }),
    );
  try {
    const [row] = await admin('platform.papers')
      .where({ slug })
      .update({
        fiscal_credentials: sealFiscal(secret, slug, fiscal),
        fiscal_account: fiscalAccount(fiscal.apiKey),
        fiscal_tss: fiscal.tssId,
      })
      .returning<PaperRow[]>('*');
    return toPaper(row!);
  } catch (error) {
    if (pgCode(error) !== '23505') throw error;
    const other = await admin('platform.papers')
      .whereNot({ slug })
      .andWhere(
        (q) => void q.where({ fiscal_account: fiscalAccount(fiscal.apiKey) }).orWhere({ fiscal_tss: fiscal.tssId }),
      )
      .first<{ slug: string } | undefined>('slug');
    throw conflictError(
      tr(
        'The paper "{other}" signs with this API key or this TSS: each paper signs with an account and a TSS of its own.',
        {
          other: other?.slug ?? '?',
        },
      ),
    );
  }
}

/** The credentials as the platform's list keeps them: sealed, bound to the paper. */
export const sealFiscal = (secret: string, slug: string, fiscal: PaperFiscal) =>
  seal(fiscalKey(secret), JSON.stringify(fiscal), `fiscal:${slug}`);

/** The paper's own signing credentials, opened; undefined where it has none. */
export function paperFiscal(secret: string, paper: Paper): PaperFiscal | undefined {
  if (!paper.fiscal) return undefined;
  const opened = unseal(fiscalKey(secret), paper.fiscal, `fiscal:${paper.slug}`);
  if (opened === undefined)
    throw conflictError(
      tr(
        'The signing credentials of the paper "{slug}" do not open with this PLATFORM_SECRET: start with the secret they were set with.',
        { slug: paper.slug },
      ),
    );
  return JSON.parse(opened) as PaperFiscal;
}
