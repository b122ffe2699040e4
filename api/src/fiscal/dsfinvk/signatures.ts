import { localDateTime } from '../../foundations/period.ts';
import type { TillMaster, Vorgang } from './queries.ts';

// What tse.csv and transactions_tse.csv say of the TSE: its certificate in two columns, and for a Bon
// without a signature why it has none (TSE_TA_FEHLER).

/** A PEM certificate as tse.csv holds it: base64 of the DER, its first 1000 characters and the rest. */
export function certificateColumns(pem: string | undefined): [string, string] {
  const base64 = (pem ?? '').replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return [base64.slice(0, 1000), base64.slice(1000, 2000)];
}

/**
 * The end of a TSE's service where the DSFinV-K can hold it. DSFinV-K 2.3's Stamm_TSE (tse.csv) has
 * no column for it, and its files and columns are fixed (an auditor's import reads no others), so the
 * Bons the till books after it say it in TSE_TA_FEHLER, the column for why a Bon has no signature:
 * when (local time) and the reason given, with TSE_ID naming the TSE in tse.csv.
 */
export function endOfService(item: Vorgang, till: TillMaster, timeZone: string): string | undefined {
  const start = new Date(item.start).getTime();
  const ended = till.decommissions.filter((d) => new Date(d.at).getTime() <= start).at(-1);
  if (!ended) return undefined;
  // Signing that began again after it covers the Bons from then on.
  const since = till.signing_since ? new Date(till.signing_since).getTime() : null;
  if (since !== null && since > new Date(ended.at).getTime() && start >= since) return undefined;
  const [, year, month, day, time] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(localDateTime(ended.at, timeZone))!;
  return `TSE außer Betrieb genommen am ${day}.${month}.${year} ${time}: ${ended.reason}`.slice(0, 200);
}

/** Why a Vorgang has no TSE signature, in the words of TSE_TA_FEHLER. */
export function missingSignature(item: Vorgang, till: TillMaster, timeZone: string): string {
  if (item.fiscal)
    return item.fiscal.state === 'failed'
      ? `TSE ausgefallen: ${item.fiscal.lastError ?? 'keine Antwort'}`.slice(0, 200)
      : `TSE-Transaktion noch nicht signiert${item.fiscal.lastError ? `: ${item.fiscal.lastError}` : ''}`.slice(0, 200);
  const ended = endOfService(item, till, timeZone);
  if (ended) return ended;
  const since = till.signing_since ? new Date(till.signing_since).getTime() : null;
  const before =
    since === null ||
    (item.movementId !== null
      ? till.signs_after_movement_id !== null && item.movementId <= Number(till.signs_after_movement_id)
      : new Date(item.start).getTime() < since);
  if (before) return 'Vor Inbetriebnahme der TSE (die Kasse signierte noch nicht)';
  return 'TSE-Transaktion fehlt (nicht an die TSE übergeben)';
}
