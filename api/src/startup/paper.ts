import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildApp } from '../app.ts';
import { isLocalStart, type Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { adoptCountry } from '../country/installation.ts';
import { startFiscalSigning } from '../fiscal/job.ts';
import { startOutboxWorker } from '../mail/outbox.ts';
import { checkAtStart } from '../maintenance/check.ts';
import { startReconciliation } from '../orders/reconcile.ts';
import { startEmailErasure } from '../privacy/erase-emails.ts';
import { chooseCurrencyOnFirstStart } from '../settings/currency.ts';
import { resumeSandbox } from '../stripe/sandbox/index.ts';
import { startWebhookSender } from '../webhooks-out/delivery.ts';
import { seedOnFirstStart } from '../../../seeds/index.ts';
import { replaceDemoPasswords } from './safety.ts';

// One paper's start, the same for an installation of one paper (server.ts) and for each paper a
// platform serves (platform/serve.ts): its data made ready, then its app and its background jobs,
// each bound to the paper's own database and configuration and to nothing of the process.

/** What the first start of a paper leaves: whether the demo was seeded, and new demo passwords. */
export interface Prepared {
  seeded: boolean;
  /** The demo's logins with passwords of their own, shown once (a demo behind a public address). */
  newPasswords: { username: string; password: string }[];
}

/**
 * The currency and the country of the configuration, while no money has moved; the demo newspaper
 * on the first start when the configuration asks for it.
 */
export async function preparePaper(db: Db, config: Config): Promise<Prepared> {
  await chooseCurrencyOnFirstStart(db, config.currency);
  await adoptCountry(db, config.country);
  const history = config.seedHistory ? { now: new Date(), timeZone: config.timeZone } : undefined;
  const seeded = config.seedDemo ? await seedOnFirstStart(db, history) : false;
  // Behind a public address even a demo chosen on purpose never opens with the published passwords.
  const newPasswords = seeded && !isLocalStart(config) && !config.oidc.issuer ? await replaceDemoPasswords(db) : [];
  return { seeded, newPasswords };
}

/** A paper being served: its request handler, and the stop of its jobs (its database stays open). */
export interface ServedPaper {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  stop(): void;
}

/**
 * The paper's app and its jobs: outbox, webhooks, reconciliation, signing, e-mail erasure, the
 * sandbox. `distDir`: the built interfaces, when not in ./dist (the tests' stand-in).
 */
export function servePaper(db: Db, config: Config, distDir?: string): ServedPaper {
  const app = buildApp({ db, config, distDir });
  const outbox = startOutboxWorker(db, config);
  const webhookSender = startWebhookSender(db, config);
  const reconciliation = startReconciliation(db, config);
  const fiscalSigning = startFiscalSigning(db, config);
  const erasure = startEmailErasure(db, config);
  // The sandbox's webhook deliveries that a stopped process left pending go out now.
  const sandbox = config.stripe.secretKey ? undefined : resumeSandbox(db, config);
  // The books and the indexes are checked at every start; a failure is a warning, the shop goes on.
  void checkAtStart(db);
  const handle = app.callback();
  return {
    handle: (req, res) => void handle(req, res),
    stop() {
      outbox.stop();
      webhookSender.stop();
      reconciliation.stop();
      fiscalSigning.stop();
      erasure.stop();
      sandbox?.stop();
    },
  };
}
