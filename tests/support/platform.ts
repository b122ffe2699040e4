import { createDb, type Db } from '../../api/src/db/connection.ts';
import { hasPlatform, listPapers, paperDb, removePaper } from '../../api/src/platform/papers.ts';
import { npmScript } from './npm-script.ts';

// Many papers in a test: a PostgreSQL database of the test process's own, papers added to it with
// `npm run paper` as an operator adds them, and everything dropped again, the papers' roles included.

/** A paper's slug of this test process: roles belong to the whole PostgreSQL cluster, so it carries the process. */
export const processSlug = (name: string) => `${name}-${process.pid}`;

export interface PlatformDatabase {
  /** The database's address, for DATABASE_URL. */
  url: string;
  /** A pool on it as the platform's user. */
  admin: Db;
  /** Removes every paper added (its schema and its role, which dropping the database would leave) and the database. */
  drop(): Promise<void>;
}

/** A fresh database `name` beside the one `serverUrl` names (dropped first if an earlier run left it). */
export async function platformDatabase(serverUrl: string, name: string): Promise<PlatformDatabase> {
  const onServer = async (sql: string) => {
    const root = createDb({ databaseUrl: serverUrl, dataDir: '' });
    try {
      await root.raw(sql);
    } finally {
      await root.destroy();
    }
  };
  await onServer(`drop database if exists ${name} with (force)`);
  await onServer(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = createDb({ databaseUrl: url.href, dataDir: '' });
  return {
    url: url.href,
    admin,
    async drop() {
      if (await hasPlatform(admin)) for (const paper of await listPapers(admin)) await removePaper(admin, paper.slug);
      await admin.destroy();
      await onServer(`drop database if exists ${name} with (force)`);
    },
  };
}

/** `npm run paper -- …` as an operator runs it: its exit code and everything it printed. */
export const runPaper = (env: NodeJS.ProcessEnv, ...args: string[]) => npmScript('paper', args, env);

/** The password `npm run paper -- add --demo` printed, once, for the demo's login `username`. */
export function demoPassword(out: string, username: string): string {
  const password = new RegExp(`Demo login \\(shown once\\): ${username} / (\\S+)`).exec(out)?.[1];
  if (!password) throw new Error(`no demo password for ${username} in:\n${out}`);
  return password;
}

/** Gives a paper's newspaper a name of its own: two demo papers are both "Straßenblatt Demo". */
export async function nameNewspaper(
  platform: PlatformDatabase,
  secret: string,
  slug: string,
  name: string,
): Promise<void> {
  const db = await paperDb(platform.admin, platform.url, secret, slug);
  try {
    await db('settings').where({ id: 1 }).update({ newspaper_name: name });
  } finally {
    await db.destroy();
  }
}
