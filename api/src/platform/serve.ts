import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopback, loadConfig, type Config } from '../foundations/config.ts';
import { pendingMigrations, type Db } from '../db/connection.ts';
import { log } from '../foundations/log.ts';
import { translate, tr, type Text } from '../language/messages.ts';
import { preparePaper, servePaper, type ServedPaper } from '../startup/paper.ts';
import { configRefusals, databaseRefusals } from '../startup/safety.ts';
import { listPapers, paperDb, type Paper } from './papers.ts';

// One process serves every paper of the platform. The request's Host, exactly, picks the paper: one
// of its own hosts or `<slug>.<PLATFORM_DOMAIN>`. A host no paper lists gets 404, never a default
// paper. Each paper served has its own pool (as its own database role), its own configuration, app
// and jobs, built by the same start as a single paper's (startup/paper.ts).

/** A paper's configuration: the environment's, with its address, currency, country and time zone. */
export function paperConfig(env: NodeJS.ProcessEnv, base: Config, paper: Paper): Config {
  const host = paper.hosts[0] ?? `${paper.slug}.${base.platform.domain}`;
  // A name under .localhost is this machine (a trial on a laptop): plain HTTP on the port listened on.
  const publicUrl = isLoopback(host) ? `http://${host}:${base.port}` : `https://${host}`;
  return loadConfig({
    ...env,
    PUBLIC_URL: publicUrl,
    HOST: base.host ?? '',
    CURRENCY: paper.currency,
    COUNTRY: paper.country,
    TIME_ZONE: paper.timeZone,
    // A platform's paper gets its demo from `npm run paper -- add --demo`, never from a start.
    SEED_DEMO: 'false',
  });
}

/** Why a paper is listed but not served: suspended, behind the migrations, or refused by the start's checks. */
interface Unserved {
  slug: string;
  status: 503;
  text: Text;
}

type Entry = { slug: string; served: ServedPaper; url: string } | Unserved;

const suspended = tr('This newspaper’s shop is closed for the time being.');
const notReady = tr('This newspaper’s shop is being updated. Please try again in a few minutes.');
const unknownHost = tr('No newspaper is served at this address.');

export interface Platform {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** The papers served, with the address of each; the others with why not. */
  papers: { slug: string; url?: string; why?: string }[];
  /** Stops every paper's jobs and closes every paper's pool. */
  stop(): Promise<void>;
}

/** The plain answer for a host without a paper being served, in German and English at once. */
function answer(res: ServerResponse, status: number, text: Text): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  if (status === 503) res.setHeader('Retry-After', '300');
  res.end(`${translate(text, 'de')}\n${translate(text, 'en')}\n`);
}

/** A Host header's name: lower case, without port and a final dot. */
const hostOf = (req: IncomingMessage) => (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

/**
 * Starts every paper of `platform.papers`: an active paper whose schema is up to date and whose
 * configuration passes the start's checks is served; the others answer 503 and the log says why.
 */
export async function startPlatform(
  admin: Db,
  env: NodeJS.ProcessEnv,
  base: Config,
  distDir?: string,
): Promise<Platform> {
  const { databaseUrl, platform } = base;
  if (!databaseUrl || !platform.secret) throw new Error('a platform needs DATABASE_URL and PLATFORM_SECRET');
  const byHost = new Map<string, Entry>();
  const pools: Db[] = [];
  const entries: Entry[] = [];
  const papers = await listPapers(admin);
  for (const paper of papers) {
    const entry = await startOne(paper);
    entries.push(entry);
    for (const host of [...paper.hosts, ...(platform.domain ? [`${paper.slug}.${platform.domain}`] : [])])
      byHost.set(host, entry);
  }

  async function startOne(paper: Paper): Promise<Entry> {
    if (paper.status === 'suspended') {
      log.info('paper suspended, not served', { paper: paper.slug });
      return { slug: paper.slug, status: 503, text: suspended };
    }
    const config = paperConfig(env, base, paper);
    const db = await paperDb(admin, databaseUrl!, platform.secret!, paper.slug);
    pools.push(db);
    const pending = await pendingMigrations(db);
    if (pending.length) {
      log.warn('paper not served: its schema is behind the migrations (npm run paper -- migrate)', {
        paper: paper.slug,
        pending: pending.length,
      });
      return { slug: paper.slug, status: 503, text: notReady };
    }
    const refusals = [...configRefusals(config), ...(await databaseRefusals(db, config))];
    if (refusals.length) {
      log.warn('paper not served: its start is refused', { paper: paper.slug, refusals });
      return { slug: paper.slug, status: 503, text: notReady };
    }
    await preparePaper(db, config);
    return { slug: paper.slug, served: servePaper(db, config, distDir), url: config.publicUrl };
  }

  return {
    handle(req, res) {
      const entry = byHost.get(hostOf(req));
      if (!entry) return answer(res, 404, unknownHost);
      if ('served' in entry) return entry.served.handle(req, res);
      answer(res, entry.status, entry.text);
    },
    papers: entries.map((entry) =>
      'served' in entry ? { slug: entry.slug, url: entry.url } : { slug: entry.slug, why: translate(entry.text, 'en') },
    ),
    async stop() {
      for (const entry of entries) if ('served' in entry) entry.served.stop();
      await Promise.all(pools.map((db) => db.destroy()));
    },
  };
}
