import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './foundations/config.ts';
import { openDb, openFailureMessage } from './db/open.ts';
import { createShopServer } from './http/timeouts.ts';
import { issuerUrl } from './identity/issuer.ts';
import { log, setLogSilent } from './foundations/log.ts';
import { checkAtStart } from './maintenance/check.ts';
import { startWebhookSender } from './webhooks-out/delivery.ts';
import { startFiscalSigning } from './fiscal/job.ts';
import { startOutboxWorker } from './mail/outbox.ts';
import { releaseWaiting } from './orders/changes.ts';
import { startReconciliation } from './orders/reconcile.ts';
import { startEmailErasure } from './privacy/erase-emails.ts';
import { configRefusals, databaseRefusals, isLocalStart, replaceDemoPasswords } from './startup/safety.ts';
import { resumeSandbox } from './stripe/sandbox/index.ts';
import { demoLoginsInUse } from '../../seeds/demo.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { adoptCountry } from './country/installation.ts';
import { chooseCurrencyOnFirstStart } from './settings/currency.ts';

const config = configOrRefuse();
setLogSilent(config.logLevel === 'silent');
refuseToStart(configRefusals(config));
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
  console.error(openFailureMessage(error));
  process.exit(1);
});
const refusals = await databaseRefusals(db, config);
if (refusals.length) await db.destroy();
refuseToStart(refusals);
await chooseCurrencyOnFirstStart(db, config.currency);
const history = config.seedHistory ? { now: new Date(), timeZone: config.timeZone } : undefined;
await adoptCountry(db, config.country);
const seeded = config.seedDemo ? await seedOnFirstStart(db, history) : false;
// Behind a public address even a demo chosen on purpose never opens with the published passwords.
const newPasswords = seeded && !isLocalStart(config) && !config.oidc.issuer ? await replaceDemoPasswords(db) : [];

const app = buildApp({ db, config });
const demoLogins = config.oidc.issuer ? [] : await demoLoginsInUse(db);
startOutboxWorker(db, config);
const webhookSender = startWebhookSender(db, config);
startReconciliation(db, config);
const fiscalSigning = startFiscalSigning(db, config);
startEmailErasure(db, config);
// The sandbox's webhook deliveries that a stopped process left pending go out now.
const sandbox = config.stripe.secretKey ? undefined : resumeSandbox(db, config);
const handle = app.callback();
// Where only this machine reaches the server, every connection is this machine's own (the browser, the
// sandbox calling the server, a test): one address is everybody, and a cap per address would refuse it.
const limits = isLocalStart(config) ? { ...config, maxConnectionsPerAddress: Infinity } : config;
const server = createShopServer((req, res) => void handle(req, res), limits).listen(config.port, config.host, () => {
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}`;
  console.log(
    [
      '',
      `Street newspaper shop is running${seeded ? ' (demo newspaper seeded)' : ''}.`,
      `  Shop:        ${config.publicUrl}/v/DEMO-1`,
      `  Back office: ${config.publicUrl}/backoffice`,
      `  API:         ${config.publicUrl}/api/settings/`,
      `  Listening:   ${listening()}`,
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
      '',
    ].join('\n'),
  );
});
// The books and the indexes are checked at every start; a failure is a warning, the shop goes on.
void checkAtStart(db);

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
  webhookSender.stop();
  fiscalSigning.stop();
  sandbox?.stop();
  await db.destroy();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
