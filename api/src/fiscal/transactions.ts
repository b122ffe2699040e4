import type { Knex } from 'knex';
import type { Config, FiscalCountry } from '../foundations/config.ts';
import { isLocalUrl, isLoopback } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import { rksvPort } from './at/chain.ts';
import { movementRequest, openingRequest, visitRequest, type Built } from './cases.ts';
import { fiskalyPort, type FiskalyPort } from './de/fiskaly.ts';
import { uuidFrom } from './ids.ts';
import { SigningFailed, type FiscalPort, type Signature } from './port.ts';
import { simulatorCredentials } from './sandbox/keys.ts';
import { simulatorPath } from './sandbox/index.ts';
import { rksvSimulatorPath } from './sandbox/rksv.ts';
import { allTillsFiscal, tillFiscal, usesSimulator } from './settings.ts';

// The fiscal transactions of the tills: made from the cash book after each booking has committed,
// signed through the country's port, retried until signed. A booking never waits for a signature
// and never fails for want of one: a signing device that cannot be reached leaves the transaction
// pending or failed, the receipt says so, staff see it (GET /api/fiscal/failures) and the periodic
// run (job.ts) signs it once the device answers. A transaction's id at the signing service is made
// from what it signs (`source`, ids.ts), and the German adapter asks for it before it signs, so no
// retry, process or restart signs a movement twice.

export type FiscalState = 'pending' | 'signed' | 'failed';

export interface FiscalTransaction {
  id: number;
  tillId: number;
  source: string;
  businessCase: string;
  cashMovementId: number | null;
  counterVisitId: string | null;
  country: FiscalCountry;
  mode: 'test' | 'live';
  txId: string;
  state: FiscalState;
  attempts: number;
  lastError: string | null;
  signature: Signature | null;
  createdAt: string;
  signedAt: string | null;
}

interface Row {
  id: number | string;
  till_id: number;
  source: string;
  business_case: string;
  cash_movement_id: number | string | null;
  counter_visit_id: string | null;
  country: FiscalCountry;
  mode: 'test' | 'live';
  tx_id: string;
  request: unknown;
  state: FiscalState;
  attempts: number;
  last_error: string | null;
  signature: Signature | string | null;
  created_at: Date | string;
  signed_at: Date | string | null;
}

const json = <T>(value: T | string | null): T | null => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export function shapeTransaction(row: Row): FiscalTransaction {
  return {
    id: Number(row.id),
    tillId: row.till_id,
    source: row.source,
    businessCase: row.business_case,
    cashMovementId: row.cash_movement_id === null ? null : Number(row.cash_movement_id),
    counterVisitId: row.counter_visit_id,
    country: row.country,
    mode: row.mode,
    txId: row.tx_id,
    state: row.state,
    attempts: row.attempts,
    lastError: row.last_error,
    signature: json<Signature>(row.signature),
    createdAt: new Date(row.created_at).toISOString(),
    signedAt: row.signed_at ? new Date(row.signed_at).toISOString() : null,
  };
}

/**
 * Where this server's own simulator answers: this machine's address of the server. A platform's
 * paper at a name under .localhost is called there, as the process resolves those names to this
 * machine: its Host picks the paper, and so its own simulator, where 127.0.0.1 would pick none.
 */
function simulatorBase(config: Config, path = simulatorPath): string {
  const onThisMachine = config.platform.domain && new URL(config.publicUrl).hostname.endsWith('.localhost');
  if (isLocalUrl(config.publicUrl) || onThisMachine) return `${config.publicUrl}${path}`;
  const host = config.host && isLoopback(config.host) ? config.host : '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}${path}`;
}

/** fiskaly SIGN AT's address (https://developer.fiskaly.com/api/rksv/v1). */
export const signAtUrl = 'https://rksv.fiskaly.com/api/v1';

/** How long one call to the signing service may take: a receipt waits for a few at most. */
const callTimeoutMs = 4000;

/** The port that signs a transaction of this country and mode. */
async function portFor(db: Knex, config: Config, country: FiscalCountry, mode: 'test' | 'live'): Promise<FiscalPort> {
  if (country === 'AT') {
    // The company a signature creation unit belongs to: SIGN AT asks its VAT id or tax number.
    const entity = async () => {
      const row = await db('settings').first<
        { vat_id: string; tax_number: string; newspaper_name: string } | undefined
      >('vat_id', 'tax_number', 'newspaper_name');
      return { vatId: row?.vat_id ?? '', taxId: row?.tax_number ?? '', name: row?.newspaper_name ?? '' };
    };
    if (mode === 'test' && usesSimulator(config)) {
      const credentials = await simulatorCredentials(db);
      return rksvPort(
        db,
        {
          baseUrl: simulatorBase(config, rksvSimulatorPath),
          apiKey: credentials.apiKey,
          apiSecret: credentials.apiSecret,
          scuId: uuidFrom(`simulator-scu:${credentials.apiKey}`),
          timeoutMs: callTimeoutMs,
        },
        // The simulator has no company of its own to check: a test installation may have none set.
        async () => {
          const known = await entity();
          return known.vatId || known.taxId ? known : { ...known, vatId: 'ATU00000000' };
        },
      );
    }
    return rksvPort(
      db,
      {
        baseUrl: config.fiscal.apiUrl ?? signAtUrl,
        apiKey: config.fiscal.apiKey ?? '',
        apiSecret: config.fiscal.apiSecret ?? '',
        scuId: config.fiscal.tssId ?? '',
        timeoutMs: callTimeoutMs,
      },
      entity,
    );
  }
  return germanPort(db, config, mode);
}

/** The German port (fiskaly SIGN DE v2, or the local simulator in test mode without credentials). */
export async function germanPort(db: Knex, config: Config, mode: 'test' | 'live'): Promise<FiskalyPort> {
  if (mode === 'test' && usesSimulator(config)) {
    const credentials = await simulatorCredentials(db);
    return fiskalyPort(db, {
      baseUrl: simulatorBase(config),
      timeoutMs: callTimeoutMs,
      setupTimeoutMs: config.fiscal.setupTimeoutMs,
      // the simulator's PUK guards nothing; FISCAL_SECRET_KEY still seals it when set
      secret: config.fiscal.secretKey ?? credentials.apiSecret,
      ...credentials,
    });
  }
  return fiskalyPort(db, {
    baseUrl: config.fiscal.apiUrl ?? 'https://kassensichv-middleware.fiskaly.com/api/v2',
    apiKey: config.fiscal.apiKey ?? '',
    apiSecret: config.fiscal.apiSecret ?? '',
    tssId: config.fiscal.tssId ?? '',
    clientId: config.fiscal.clientId ?? '',
    timeoutMs: callTimeoutMs,
    setupTimeoutMs: config.fiscal.setupTimeoutMs,
    secret: config.fiscal.secretKey ?? config.fiscal.apiSecret ?? '',
  });
}

/**
 * The TSE transaction id of a visit's sale: made from the visit, and from how often a booking of it
 * failed before (each failure CANCELLED its transaction, which can never be signed): the same visit
 * booked after a refusal signs under a transaction of its own.
 */
export async function visitTxId(db: Knex, mode: 'test' | 'live', visitId: string): Promise<string> {
  const [{ count } = { count: 0 }] = await db('fiscal_transactions')
    .where('source', 'like', `abort:${visitId}:%`)
    .count<{ count: string | number }[]>('* as count');
  const tries = Number(count);
  return uuidFrom(tries ? `${mode}:visit:${visitId}:${tries}` : `${mode}:visit:${visitId}`);
}

async function insert(
  db: Knex,
  till: { tillId: number; country: FiscalCountry; mode: 'test' | 'live' },
  source: string,
  built: Built,
  refs: { cashMovementId?: number; counterVisitId?: string } = {},
): Promise<void> {
  await db('fiscal_transactions')
    .insert({
      till_id: till.tillId,
      source,
      business_case: built.businessCase,
      cash_movement_id: refs.cashMovementId ?? null,
      counter_visit_id: refs.counterVisitId ?? null,
      country: till.country,
      mode: till.mode,
      tx_id: refs.counterVisitId
        ? await visitTxId(db, till.mode, refs.counterVisitId)
        : uuidFrom(`${till.mode}:${source}`),
      request: JSON.stringify(built.request),
    })
    .onConflict('source')
    .ignore();
}

/**
 * Makes the till's missing fiscal transactions: when signing begins, the opening balance; then every
 * cash movement since and every counter visit's sale (with its cash). Safe to run at any time, in
 * any process: each source is inserted once.
 */
export async function enqueueTill(db: Knex, config: Config, tillId: number): Promise<void> {
  const settings = await tillFiscal(db, config, tillId);
  if (settings.effectiveMode === 'off') return;
  const till = { tillId, country: settings.effectiveCountry, mode: settings.effectiveMode };
  let begun = await db('fiscal_tills')
    .where({ till_id: tillId })
    .first<{ signs_after_movement_id: number | string | null; signing_since: Date | string | null } | undefined>(
      'signs_after_movement_id',
      'signing_since',
    );
  if (!begun || begun.signs_after_movement_id === null) {
    const { rows } = await db.raw<{ rows: { last: number | string; balance: number | string }[] }>(
      `select coalesce((select max(id) from cash_movements where till_id = t.id), 0) as last,
              coalesce((select balance from cash_movements where till_id = t.id order by id desc limit 1), t.opening_balance) as balance
         from tills t where t.id = ?`,
      [tillId],
    );
    const now = rows[0];
    if (!now) return;
    await db('fiscal_tills')
      .insert({ till_id: tillId, signs_after_movement_id: now.last, signing_since: db.fn.now() })
      .onConflict('till_id')
      .merge(['signs_after_movement_id', 'signing_since'])
      .whereNull('fiscal_tills.signs_after_movement_id');
    begun = await db('fiscal_tills').where({ till_id: tillId }).first('signs_after_movement_id', 'signing_since');
    if (!begun || begun.signs_after_movement_id === null) return;
    if (Number(begun.signs_after_movement_id) === Number(now.last))
      await insert(db, till, `opening:${tillId}:${now.last}:${till.mode}`, openingRequest(Number(now.balance)));
  }
  const after = Number(begun.signs_after_movement_id);
  const movements = await db('cash_movements as m')
    .where('m.till_id', tillId)
    .andWhere('m.id', '>', after)
    .whereNotExists(db('fiscal_transactions as f').whereRaw('f.cash_movement_id = m.id'))
    .select<
      {
        id: number | string;
        kind: string;
        amount: number | string;
        reason: string;
        counter_visit_id: string | null;
        created_at: Date | string;
      }[]
    >('m.id', 'm.kind', 'm.amount', 'm.reason', 'm.counter_visit_id', 'm.created_at');
  // Visits paid from the credit alone move no cash, but sell copies all the same.
  const visits = await db('counter_visits as v')
    .where('v.till_id', tillId)
    .andWhere('v.copies_amount', '>', 0)
    .andWhere('v.cash_paid', 0)
    .andWhere('v.created_at', '>=', begun.signing_since)
    .whereNotExists(db('fiscal_transactions as f').whereRaw('f.counter_visit_id = v.id'))
    .select<{ id: string; created_at: Date | string }[]>('v.id', 'v.created_at');
  // In the order they happened; a visit's sale before its payout (one booking, one time).
  const due = [
    ...visits.map((v) => ({ at: new Date(v.created_at).getTime(), order: 0, id: 0, visit: v.id, movement: undefined })),
    ...movements.map((m) => ({
      at: new Date(m.created_at).getTime(),
      order: 1,
      id: Number(m.id),
      visit: undefined,
      movement: m,
    })),
  ].sort((a, b) => a.at - b.at || a.order - b.order || a.id - b.id);
  for (const { visit, movement: m } of due) {
    if (visit) {
      const built = await visitRequest(db, visit);
      if (built) await insert(db, till, `visit:${visit}`, built, { counterVisitId: visit });
    } else if (m && m.kind === 'counter_cash' && m.counter_visit_id) {
      const built = await visitRequest(db, m.counter_visit_id);
      if (built)
        await insert(db, till, `visit:${m.counter_visit_id}`, built, {
          cashMovementId: Number(m.id),
          counterVisitId: m.counter_visit_id,
        });
    } else if (m) {
      await insert(
        db,
        till,
        `movement:${m.id}`,
        movementRequest({ kind: m.kind, amount: Number(m.amount), reason: m.reason }),
        {
          cashMovementId: Number(m.id),
        },
      );
    }
  }
}

/** How long a process holds a transaction it is signing before another may try. */
const leaseSeconds = 30;

/** Signs these transactions (those not signed and not being signed elsewhere); answers nothing, records all. */
export async function signTransactions(db: Knex, config: Config, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const claimed = await db('fiscal_transactions')
    .whereIn('id', ids)
    .whereNot('state', 'signed')
    .where((q) => {
      void q.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now());
    })
    .update({
      lease_until: db.raw(`now() + interval '${leaseSeconds} seconds'`),
      attempts: db.raw('attempts + 1'),
      updated_at: db.fn.now(),
    })
    .returning<Row[]>('*');
  // One at a time, in the order they were made: a TSE numbers its transactions as it signs them.
  claimed.sort((a, b) => Number(a.id) - Number(b.id));
  for (const row of claimed) {
    try {
      const port = await portFor(db, config, row.country, row.mode);
      const signature = await port.sign({
        txId: row.tx_id,
        tillId: row.till_id,
        request: json(row.request as string)! as never,
      });
      await db('fiscal_transactions')
        .where({ id: row.id })
        .update({
          state: 'signed',
          signature: JSON.stringify(signature),
          signed_at: db.fn.now(),
          last_error: null,
          lease_until: null,
          updated_at: db.fn.now(),
        });
    } catch (error) {
      const message =
        error instanceof SigningFailed
          ? error.message
          : `Signing failed: ${(error as Error)?.message ?? String(error)}`;
      log.warn('fiscal signing failed', { transaction: Number(row.id), error: message });
      await db('fiscal_transactions')
        .where({ id: row.id })
        .update({ state: 'failed', last_error: message.slice(0, 2000), lease_until: null, updated_at: db.fn.now() });
    }
  }
}

/**
 * A visit whose booking failed after its TSE transaction started: the CANCELLED transaction recorded
 * (signed, with the TSE's answer), so the DSFinV-K lists it as an aborted Bon and the TSE's
 * transaction numbers have no gap.
 */
export async function recordAbortedVisit(
  db: Knex,
  till: { tillId: number; mode: 'test' | 'live' },
  visitId: string,
  txId: string,
  signature: Signature,
): Promise<void> {
  const [{ count } = { count: 0 }] = await db('fiscal_transactions')
    .where('source', 'like', `abort:${visitId}:%`)
    .count<{ count: string | number }[]>('* as count');
  await db('fiscal_transactions')
    .insert({
      till_id: till.tillId,
      source: `abort:${visitId}:${Number(count) + 1}`,
      business_case: 'Belegabbruch',
      country: 'DE',
      mode: till.mode,
      tx_id: txId,
      request: JSON.stringify({ kind: 'receipt', lines: [], payments: [] }),
      state: 'signed',
      signature: JSON.stringify(signature),
      signed_at: db.fn.now(),
    })
    .onConflict('tx_id')
    .ignore();
}

/** The transactions of these sources (a visit, cash movements), after making any that are missing. */
async function transactionsOf(
  db: Knex,
  config: Config,
  tillId: number,
  refs: { counterVisitId?: string; cashMovementIds?: number[] },
): Promise<Row[]> {
  await enqueueTill(db, config, tillId);
  return db('fiscal_transactions')
    .where((q) => {
      q.whereRaw('false');
      if (refs.counterVisitId) q.orWhere('counter_visit_id', refs.counterVisitId);
      if (refs.cashMovementIds?.length) q.orWhereIn('cash_movement_id', refs.cashMovementIds);
    })
    .orderBy('id')
    .select<Row[]>('*');
}

/**
 * What a receipt prints: the fiscal transactions of its visit or movements, signed first when they
 * are not yet, waiting `waitMs` at most; a device that does not answer by then leaves them as they
 * are (the receipt says the TSE failed) and the periodic run signs them later.
 */
export async function signForReceipt(
  db: Knex,
  config: Config,
  tillId: number,
  refs: { counterVisitId?: string; cashMovementIds?: number[] },
  waitMs = 6000,
): Promise<FiscalTransaction[]> {
  const settings = await tillFiscal(db, config, tillId);
  const before = settings.effectiveMode === 'off' ? [] : await transactionsOf(db, config, tillId, refs);
  // What the till booked before, too: a TSE numbers its transactions in the order it signs them.
  const last = before.reduce((max, row) => Math.max(max, Number(row.id)), 0);
  const unsigned = before.length
    ? (
        await db('fiscal_transactions')
          .where({ till_id: tillId })
          .whereNot('state', 'signed')
          .andWhere('id', '<=', last)
          .pluck('id')
      ).map((id) => Number(id))
    : [];
  if (unsigned.length) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      signTransactions(db, config, unsigned).catch((error: unknown) =>
        log.warn('fiscal signing failed', { error: String((error as Error)?.message ?? error) }),
      ),
      new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }
  const rows = await db('fiscal_transactions')
    .whereIn(
      'id',
      before.map((row) => row.id),
    )
    .orderBy('id')
    .select<Row[]>('*');
  return rows.map(shapeTransaction);
}

/** Transactions not signed (failed first, then pending), for staff; at most `limit`. */
export async function unsignedTransactions(db: Knex, limit = 200): Promise<FiscalTransaction[]> {
  const rows = await db('fiscal_transactions')
    .whereNot('state', 'signed')
    .orderByRaw(`state = 'failed' desc, id`)
    .limit(limit)
    .select<Row[]>('*');
  return rows.map(shapeTransaction);
}

/** One run of the periodic signing: every till that signs gets its transactions made and signed. */
export async function signPending(db: Knex, config: Config, limit = 200): Promise<number> {
  for (const till of await allTillsFiscal(db, config)) {
    if (till.effectiveMode !== 'off') await enqueueTill(db, config, till.tillId);
  }
  const due = await db('fiscal_transactions')
    .whereNot('state', 'signed')
    .where((q) => {
      void q.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now());
    })
    .orderBy('id')
    .limit(limit)
    .pluck('id');
  await signTransactions(
    db,
    config,
    due.map((id) => Number(id)),
  );
  return due.length;
}
