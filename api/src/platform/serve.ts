import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopback, loadConfig, type Config } from '../foundations/config.ts';
import { pendingMigrations, type Db } from '../db/connection.ts';
import { log } from '../foundations/log.ts';
import { translate, tr, type Text } from '../language/messages.ts';
import { preparePaper, servePaper, type ServedPaper } from '../startup/paper.ts';
import { configRefusals, databaseRefusals } from '../startup/safety.ts';
import { presets } from '../country/presets.ts';
import { connectWebhook, connectWebhookPath } from './stripe-connect-routes.ts';
import { listPapers, paperDb, paperFiscal, type Paper } from './papers.ts';

// One process serves every paper of the platform. The request's Host, exactly, picks the paper: one
// of its own hosts or `<slug>.<PLATFORM_DOMAIN>`. A host no paper lists gets 404, never a default
// paper. Each paper served has its own pool (as its own database role), its own configuration, app
// and jobs, built by the same start as a single paper's (startup/paper.ts). One path is the
// platform's own at every host: its Stripe Connect endpoint (stripe-connect-routes.ts), which the event's
// `account` leads to the paper.

/**
 * A paper's configuration: the environment's, with its address, currency, country and time zone, and
 * its own signing: under its country's law only, with its own credentials (`npm run paper -- fiscal`)
 * or, in test mode without them, its own simulator. The FISCAL_ credentials of the environment are
 * never a paper's: they would be one fiskaly organisation signing every paper's cash.
 */
export function paperConfig(env: NodeJS.ProcessEnv, base: Config, paper: Paper): Config {
  const host = paper.hosts[0] ?? `${paper.slug}.${base.platform.domain}`;
  // A name under .localhost is this machine (a trial on a laptop): plain HTTP on the port listened on.
  // It still counts as a public address for the start's checks (safety.ts), as it does in compose.yaml.
  const publicUrl = isLoopback(host) || host.endsWith('.localhost') ? `http://${host}:${base.port}` : `https://${host}`;
  const law = presets[paper.country].fiscal.law;
  const own = paper.fiscal ? paperFiscal(base.platform.secret ?? '', paper) : undefined;
  return loadConfig({
    ...env,
    PUBLIC_URL: publicUrl,
    HOST: base.host ?? '',
    CURRENCY: paper.currency,
    COUNTRY: paper.country,
    TIME_ZONE: paper.timeZone,
    // A paper in a country without a signing law signs nothing, whatever FISCAL_MODE says for the others.
    FISCAL_MODE: law ? env.FISCAL_MODE : 'off',
    FISCAL_COUNTRY: law ?? '',
    FISCAL_API_KEY: own?.apiKey ?? '',
    FISCAL_API_SECRET: own?.apiSecret ?? '',
    FISCAL_TSS_ID: own?.tssId ?? '',
    FISCAL_CLIENT_ID: own?.clientId ?? '',
    FISCAL_API_URL: own?.apiUrl ?? env.FISCAL_API_URL,
    FISCAL_SECRET_KEY: own?.secretKey ?? '',
    // A platform's paper gets its demo from `npm run paper -- add --demo`, never from a start.
    SEED_DEMO: 'false',
  });
}

/** Why a paper is listed but not served: suspended, behind the migrations, or refused by the start's checks. */
interface Unserved {
  slug: string;
  status: 503;
  text: Text;
  /** For the operator (the start's banner), where the answer's sentence does not say it. */
  why?: string;
}

type Entry = { slug: string; served: ServedPaper; url: string; db: Db; config: Config } | Unserved;

const suspended = tr('This newspaper’s shop is closed for the time being.');
const notReady = tr('This newspaper’s shop is being updated. Please try again in a few minutes.');
const unknownHost = tr('No newspaper is served at this address.');

/** How often the list of papers is read again. */
const refreshSeconds = 30;

export interface Platform {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** The papers served, with the address of each; the others with why not. */
  papers(): { slug: string; url?: string; why?: string }[];
  /** Reads `platform.papers` again now rather than at the next round. */
  refresh(): Promise<void>;
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

/** A request's path, without its query and a final slash (optional, as in the API). */
const pathOf = (req: IncomingMessage) => (req.url ?? '').split('?')[0]!.replace(/(.)\/$/, '$1');

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
  /** Each listed paper as started, with what it was started from (a change of status or hosts restarts it). */
  interface Started {
    entry: Entry;
    paper: Paper;
    pool?: Db;
  }
  const started = new Map<string, Started>();
  let byHost = new Map<string, Entry>();

  /** A paper's jobs and pool are let go, once no host leads to it any more. */
  async function release(was: Started): Promise<void> {
    if ('served' in was.entry) was.entry.served.stop();
    await was.pool?.destroy();
  }

  /**
   * Brings what is served in line with `platform.papers`: a paper added or resumed is started, a
   * suspended or removed one stopped, one that was behind the migrations or refused is tried again.
   * The new start takes the hosts over before the old one is let go, so no request meets a closed pool.
   */
  async function refresh(): Promise<void> {
    const papers = await listPapers(admin);
    const retired: Started[] = [];
    for (const [slug, was] of started)
      if (!papers.some((p) => p.slug === slug)) {
        retired.push(was);
        started.delete(slug);
      }
    for (const paper of papers) {
      const was = started.get(paper.slug);
      const unchanged =
        was &&
        was.paper.status === paper.status &&
        was.paper.hosts.join(' ') === paper.hosts.join(' ') &&
        was.paper.fiscal === paper.fiscal &&
        ('served' in was.entry || paper.status === 'suspended');
      if (unchanged) continue;
      started.set(paper.slug, { paper, ...(await startOne(paper)) });
      if (was) retired.push(was);
    }
    const hosts = new Map<string, Entry>();
    for (const { paper, entry } of started.values())
      for (const host of [...paper.hosts, ...(platform.domain ? [`${paper.slug}.${platform.domain}`] : [])])
        hosts.set(host, entry);
    byHost = hosts;
    for (const was of retired) await release(was);
  }

  /** A paper that cannot be opened (its password, the database) is answered 503, the others go on. */
  async function startOne(paper: Paper): Promise<Omit<Started, 'paper'>> {
    if (paper.status === 'suspended') {
      log.info('paper suspended, not served', { paper: paper.slug });
      return { entry: { slug: paper.slug, status: 503, text: suspended } };
    }
    let pool: Db | undefined;
    try {
      const config = paperConfig(env, base, paper);
      pool = await paperDb(admin, databaseUrl!, platform.secret!, paper.slug);
      return { pool, entry: await readyOrWhyNot(paper, config, pool) };
    } catch (error) {
      log.error('paper not served: it did not start', {
        paper: paper.slug,
        error: String((error as Error)?.message ?? error),
      });
      await pool?.destroy();
      return { entry: { slug: paper.slug, status: 503, text: notReady } };
    }
  }

  async function readyOrWhyNot(paper: Paper, config: Config, db: Db): Promise<Entry> {
    const pending = await pendingMigrations(db);
    if (pending.length) {
      log.warn('paper not served: its schema is behind the migrations (npm run paper -- migrate)', {
        paper: paper.slug,
        pending: pending.length,
      });
      return { slug: paper.slug, status: 503, text: notReady };
    }
    const refusals = [...configRefusals(config, paper.slug), ...(await databaseRefusals(db, config))];
    if (refusals.length) {
      log.warn('paper not served: its start is refused', { paper: paper.slug, refusals });
      return { slug: paper.slug, status: 503, text: notReady, why: refusals.join(' ') };
    }
    await preparePaper(db, config);
    return { slug: paper.slug, served: servePaper(db, config, distDir), url: config.publicUrl, db, config };
  }

  await refresh();
  // A paper added, suspended, resumed or migrated is taken up within this time, without a restart.
  const refreshing = setInterval(
    () =>
      void refresh().catch((error: unknown) =>
        log.error('the list of papers could not be read', { error: String((error as Error)?.message ?? error) }),
      ),
    refreshSeconds * 1000,
  );
  refreshing.unref();

  const connectEvent = connectWebhook(admin, base, (slug) => {
    const entry = started.get(slug)?.entry;
    return entry && 'served' in entry ? entry : undefined;
  });

  return {
    handle(req, res) {
      if (pathOf(req) === connectWebhookPath) return void connectEvent(req, res);
      const entry = byHost.get(hostOf(req));
      if (!entry) return answer(res, 404, unknownHost);
      if ('served' in entry) return entry.served.handle(req, res);
      answer(res, entry.status, entry.text);
    },
    papers: () =>
      [...started.values()].map(({ entry }) =>
        'served' in entry
          ? { slug: entry.slug, url: entry.url }
          : { slug: entry.slug, why: entry.why ?? translate(entry.text, 'en') },
      ),
    refresh,
    async stop() {
      clearInterval(refreshing);
      for (const was of started.values()) await release(was);
      started.clear();
    },
  };
}
