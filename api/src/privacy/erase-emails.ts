import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import { tryJobLock } from '../db/connection.ts';
import { scrubJsonColumns, type JsonColumn } from './scrub.ts';

// Customers' e-mail addresses are kept only while they serve the customer: the mail with the
// download links (or the receipt by e-mail of printed copies), and questions about it while the links work. CUSTOMER_EMAIL_DAYS after the last
// link of an order expired (after the order was placed, for an order without links), the address is
// erased from the order, from the order's mails in the outbox and from the copies Stripe's objects
// and events hold of it.

/** Identifies this job's advisory lock among all of the database's (the reconciliation has 4_004_001). */
export const erasureLockKey = 4_017_001;
/** Orders erased per transaction; a run goes on until none is left. */
const batchSize = 200;

/** The JSON the Stripe adapter and the local sandbox keep: a Checkout Session names its customer's address. */
const stripeCopies: JsonColumn[] = [
  { table: 'stripe_events', column: 'payload', key: ['id'] },
  { table: 'stripe_sandbox_objects', column: 'data', key: ['id'] },
  { table: 'stripe_sandbox_deliveries', column: 'payload', key: ['id'] },
  { table: 'stripe_sandbox_requests', column: 'response', key: ['caller', 'idempotency_key'] },
];

export interface ErasureRun {
  /** False when another process (or an overlapping run) held the job: it did nothing. */
  ran: boolean;
  /** Orders whose address was erased. */
  orders: number;
}

/** One batch under the job's lock: answers the erased orders, or null when another run holds the lock. */
async function eraseBatch(db: Knex, days: number): Promise<number | null> {
  return db.transaction(async (trx) => {
    if (!(await tryJobLock(trx, erasureLockKey))) return null;
    const due: { id: number; email: string }[] = await trx('orders as o')
      .whereNotNull('o.email')
      .whereRaw(
        `coalesce((select max(l.expires_at) from download_links l where l.order_id = o.id), o.created_at)
           < now() - make_interval(days => ?)`,
        [days],
      )
      .orderBy('o.id')
      .limit(batchSize)
      .select('o.id', 'o.email');
    if (!due.length) return 0;
    const ids = due.map((order) => order.id);
    await trx('orders').whereIn('id', ids).update({ email: null, updated_at: trx.fn.now() });
    // A mail still waiting has nobody to go to any more: it fails, with the reason for staff.
    await trx('outbox')
      .whereIn('order_id', ids)
      .update({
        recipient: null,
        status: trx.raw(`case when status = 'queued' then 'failed' else status end`),
        last_error: trx.raw(`case when status = 'queued' then 'The address was erased.' else last_error end`),
      });
    const addresses = [...new Set(due.map((order) => order.email))];
    // An address still used by a younger order stays where it is copied: that order still needs it.
    const stillUsed = new Set(
      (await trx('orders').whereIn('email', addresses).select('email')).map((row: { email: string }) => row.email),
    );
    // Whole values only: another customer's address may contain this one (a@b.de in xa@b.de).
    await scrubJsonColumns(trx, stripeCopies, { contained: [], whole: addresses.filter((a) => !stillUsed.has(a)) });
    return ids.length;
  });
}

/** One run of the job: erases every due address, batch by batch, unless another run holds the job. */
export async function eraseCustomerEmails(db: Knex, config: Pick<Config, 'customerEmailDays'>): Promise<ErasureRun> {
  let orders = 0;
  for (;;) {
    const erased = await eraseBatch(db, config.customerEmailDays);
    if (erased === null) return { ran: orders > 0, orders };
    orders += erased;
    if (erased < batchSize) return { ran: true, orders };
  }
}

/** Runs the job every hour in the background (and soon after the start); each process may, the lock picks one. */
export function startEmailErasure(db: Knex, config: Config): { stop(): void } {
  let running = false;
  const runOnce = async () => {
    if (running) return;
    running = true;
    try {
      const { orders } = await eraseCustomerEmails(db, config);
      if (orders) log.info('customer e-mail addresses erased', { orders });
    } catch (error) {
      log.error('erasing customer e-mail addresses failed', { error: String((error as Error)?.message ?? error) });
    } finally {
      running = false;
    }
  };
  const first = setTimeout(() => void runOnce(), 60_000).unref();
  const timer = setInterval(() => void runOnce(), 3_600_000).unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
