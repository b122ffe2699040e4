import { createShopServer } from './http/timeouts.ts';
import { createDb, type Db } from './db/connection.ts';
import { ConfigError, isLocalStart, loadConfig, type Config } from './foundations/config.ts';
import { openDb, openFailureMessage } from './db/open.ts';
import { issuerUrl } from './identity/issuer.ts';
import { log, setLogSilent } from './foundations/log.ts';
import { releaseWaiting } from './orders/changes.ts';
import { hasPlatform } from './platform/papers.ts';
import { startPlatform } from './platform/serve.ts';
import { resolveLocalhostNames } from './startup/localhost-names.ts';
import { preparePaper, servePaper } from './startup/paper.ts';
import { configRefusals, databaseRefusals, platformRefusals } from './startup/safety.ts';
import { demoLoginsInUse } from '../../seeds/demo.ts';

const config = configOrRefuse();
setLogSilent(config.logLevel === 'silent');
const served = config.platform.domain ? await startPapers() : await startOnePaper();
// Where only this machine reaches the server, every connection is this machine's own (the browser, the
// sandbox calling the server, a test): one address is everybody, and a cap per address would refuse it.
const limits = isLocalStart(config) ? { ...config, maxConnectionsPerAddress: Infinity } : config;
const server = createShopServer(served.handle, limits).listen(config.port, config.host, () => {
  console.log(['', ...served.banner(`  Listening:   ${listening()}`), ''].join('\n'));
});

/** The one paper of DATABASE_URL or DATA_DIR, migrated, its demo seeded on the first start. */
async function startOnePaper() {
  refuseToStart(configRefusals(config));
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
    console.error(openFailureMessage(error));
    process.exit(1);
  });
  const refusals = await databaseRefusals(db, config);
  if (refusals.length) await db.destroy();
  refuseToStart(refusals);
  const { seeded, newPasswords } = await preparePaper(db, config);
  const paper = servePaper(db, config);
  const demoLogins = config.oidc.issuer ? [] : await demoLoginsInUse(db);
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
  const banner = (listeningLine: string) => [
    `Street newspaper shop is running${seeded ? ' (demo newspaper seeded)' : ''}.`,
    `  Shop:        ${config.publicUrl}/v/DEMO-1`,
    `  Back office: ${config.publicUrl}/backoffice`,
    `  API:         ${config.publicUrl}/api/settings/`,
    listeningLine,
    `  Database:    ${where}`,
    `  Logins:      ${config.oidc.issuer ? 'OpenID provider' : 'embedded OpenID provider'} at ${issuerUrl(config)}`,
    ...(demoLogins.length
      ? [
          `  Demo logins: ${demoLogins.map((d) => `${d.username} / ${d.password} (${d.licenseId ? `vendor ${d.licenseId}` : 'back office'})`).join(', ')}`,
        ]
      : []),
    ...(newPasswords.length
      ? [`  Demo logins (shown once): ${newPasswords.map((d) => `${d.username} / ${d.password}`).join(', ')}`]
      : []),
  ];
  const stop = async () => {
    paper.stop();
    await db.destroy();
  };
  return { handle: paper.handle, banner, stop };
}

/** Every paper of the platform schema (PLATFORM_DOMAIN), each at its own hosts. */
async function startPapers() {
  refuseToStart(platformRefusals(config));
  // Papers at a.localhost on this machine call themselves there (sandbox, webhooks). Not for one paper:
  // compose.yaml's containers reach the balancer and Keycloak under .localhost names of their network.
  resolveLocalhostNames();
  const admin: Db = createDb({ databaseUrl: config.databaseUrl, dataDir: '', poolMax: 2 });
  const made = await hasPlatform(admin).catch((error: unknown) => {
    console.error(openFailureMessage(error));
    process.exit(1);
  });
  if (!made) {
    await admin.destroy();
    refuseToStart(['PLATFORM_DOMAIN is set, but the database lists no papers: add one with npm run paper -- add.']);
  }
  const platform = await startPlatform(admin, process.env, config);
  const banner = (listeningLine: string) => [
    `Street newspaper platform is running: ${platform.papers().length} papers.`,
    ...platform.papers().map((p) => `  ${p.slug.padEnd(12)} ${p.url ?? `not served: ${p.why}`}`),
    listeningLine,
    '  Database:    PostgreSQL (DATABASE_URL)',
  ];
  const stop = async () => {
    await platform.stop();
    await admin.destroy();
  };
  return { handle: platform.handle, banner, stop };
}

/** The configuration, or a refusal naming the variable that cannot be used. */
function configOrRefuse(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    refuseToStart([error.message]);
    throw error; // not reached: refuseToStart exits
  }
}

/** The address and port the server listens on, as the system reports them. */
function listening(): string {
  const address = server.address();
  if (!address || typeof address === 'string') return String(address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${host}:${address.port} (${isLocalStart(config) ? 'this machine only' : 'reachable from other machines'})`;
}

/** Stops before anything listens: each reason on stderr, exit code 78 (EX_CONFIG). */
function refuseToStart(reasons: string[]): void {
  if (!reasons.length) return;
  console.error(['The shop does not start:', ...reasons.map((reason) => `  - ${reason}`)].join('\n'));
  process.exit(78);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info('shutting down', { signal });
  // Work the stop cuts off (a job's Stripe call whose sandbox loses its database connection as the
  // pool closes) must not turn a clean stop into a crash: each job takes it up again at the next start.
  const cutOff = (error: unknown) =>
    log.warn('work cut off by the shutdown', { error: String((error as Error)?.message ?? error) });
  process.on('uncaughtException', cutOff);
  process.on('unhandledRejection', cutOff);
  // A receipt waiting for its payment answers now, so the connection closes with this process.
  releaseWaiting();
  server.close();
  // A keep-alive connection whose request is answered during the shutdown is idle only afterwards.
  server.closeIdleConnections();
  const closingIdle = setInterval(() => server.closeIdleConnections(), 50);
  setTimeout(() => server.closeAllConnections(), 5000).unref();
  await new Promise((resolve) => server.once('close', resolve));
  clearInterval(closingIdle);
  await served.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
