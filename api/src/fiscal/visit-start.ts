import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { invalidError } from '../foundations/errors.ts';
import { tr } from '../language/messages.ts';
import { log } from '../foundations/log.ts';
import { fallbackVatRate } from './cases.ts';
import { ratesWithoutSlot } from './de/standard-v1.ts';
import type { FiscalRequest } from './port.ts';
import { tillFiscal } from './settings.ts';
import { enqueueTill, germanPort, recordAbortedVisit, visitTxId } from './transactions.ts';

// A German counter visit's TSE transaction begins with the visit, before its booking (KassenSichV:
// the TSE records a Vorgang from its start, AEAO zu §146a Nr. 1.9), and ends with it: signed (FINISHED)
// when the booking committed, CANCELLED when the booking failed. A sale at a VAT rate fiskaly has no
// slot for is refused before anything starts. The booking never waits long for the TSE and never
// fails for want of it: a start that does not answer in time is left to the signing that follows.
// A cancelled transaction is recorded (an aborted Bon of the DSFinV-K); the same visit booked later
// signs under a transaction id of its own, since a cancelled transaction can never be finished.

/** How long the counter waits for the start at most (the TSS's first set-up included). */
const startWaitMs = 6000;

export interface VisitStart {
  /** After a failed booking: the started transaction CANCELLED; nothing when none was started. */
  cancel(): Promise<void>;
}

/**
 * Before a visit is booked at a German till that signs: refuses a rate without a slot, then starts
 * the transaction its sale will be signed with (the same id the booking's transaction has).
 */
export async function startVisitTransaction(
  db: Knex,
  config: Config,
  visit: { visitId: string; tillId: number; lines: { itemId: number; quantity: number }[] },
): Promise<VisitStart | undefined> {
  const quantities = new Map<number, number>();
  for (const line of visit.lines)
    if (line.quantity > 0) quantities.set(line.itemId, (quantities.get(line.itemId) ?? 0) + line.quantity);
  if (!quantities.size) return undefined;
  if (!(await db('tills').where({ id: visit.tillId }).first('id'))) return undefined;
  const settings = await tillFiscal(db, config, visit.tillId);
  if (settings.effectiveMode === 'off' || settings.effectiveCountry !== 'DE') return undefined;
  // Booked before (the same visit sent again): its transaction is the booking's already.
  if (await db('counter_visits').where({ id: visit.visitId }).first('id')) return undefined;
  // Signing has begun at this till before the visit (its opening balance first), so the booking's
  // transaction is made and finishes the one started here.
  await enqueueTill(db, config, visit.tillId);
  const items = await db('items')
    .whereIn('id', [...quantities.keys()])
    .select<{ id: number; name: string; counter_price: number | null; vat_rate: number | null }[]>(
      'id',
      'name',
      'counter_price',
      db.raw('coalesce(vat_rate, (select s.vat_rate from settings s where s.id = 1)) as vat_rate'),
    );
  const lines = items
    .filter((item) => item.counter_price !== null)
    .map((item) => ({
      businessCase: 'Umsatz' as const,
      label: item.name,
      vatRate: item.vat_rate ?? fallbackVatRate,
      gross: quantities.get(item.id)! * item.counter_price!,
      quantity: quantities.get(item.id)!,
    }));
  if (!lines.length) return undefined;
  const request: FiscalRequest = { kind: 'receipt', lines, payments: [] };
  const missing = ratesWithoutSlot(request);
  if (missing.length)
    throw invalidError(
      tr(
        'A German TSE signs sales at 19 %, 7 %, 10.7 %, 5.5 % and 0 % only; {rates} % has no place in it. Change the VAT rate of the item before it is sold at this till.',
        { rates: missing.map((rate) => String(rate / 100)).join(', ') },
      ),
      {
        items: tr('VAT rate {rates} % cannot be signed in Germany.', {
          rates: missing.map((r) => String(r / 100)).join(', '),
        }),
      },
    );
  const mode = settings.effectiveMode;
  const txId = await visitTxId(db, mode, visit.visitId);
  const started = (async () => {
    const port = await germanPort(db, config, mode);
    await port.start({ txId, tillId: visit.tillId });
    return port;
  })().catch((error: unknown) => {
    log.warn('fiscal: the visit’s transaction did not start', {
      visit: visit.visitId,
      error: String((error as Error)?.message ?? error),
    });
    return undefined;
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([started, new Promise((resolve) => (timer = setTimeout(resolve, startWaitMs)))]);
  clearTimeout(timer);
  return {
    async cancel() {
      try {
        const port = await started;
        const signature = await port?.cancel({ txId, tillId: visit.tillId, request });
        if (signature) await recordAbortedVisit(db, { tillId: visit.tillId, mode }, visit.visitId, txId, signature);
      } catch (error) {
        log.warn('fiscal: the visit’s transaction was not cancelled', {
          visit: visit.visitId,
          error: String((error as Error)?.message ?? error),
        });
      }
    },
  };
}
