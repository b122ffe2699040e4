import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import { signPending } from './transactions.ts';

/**
 * Signs what is not signed yet every RECONCILE_INTERVAL_SECONDS (a minute), as the Stripe
 * reconciliation runs (orders/reconcile.ts): movements booked while the TSE could not be reached,
 * and those whose receipt was never printed. Every process may run it: a lease hands each
 * transaction to one of them.
 */
export function startFiscalSigning(db: Knex, config: Config): { stop(): void } {
  let running = false;
  const runOnce = async () => {
    if (running) return;
    running = true;
    try {
      await signPending(db, config);
    } catch (error) {
      log.error('fiscal signing run failed', { error: String((error as Error)?.message ?? error) });
    } finally {
      running = false;
    }
  };
  // After the start, once the server listens: the local simulator is served by it.
  const first = setTimeout(() => void runOnce(), 3000);
  first.unref();
  const timer = setInterval(() => void runOnce(), config.reconcileIntervalSeconds * 1000);
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
