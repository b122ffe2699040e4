import type { Knex } from 'knex';
import { conflictError } from '../../foundations/errors.ts';
import { tr, type Message } from '../../language/messages.ts';
import { movementRequest, visitRequest, type Built } from '../cases.ts';
import { decommissionsOf, type Decommission } from '../decommission.ts';
import type { DeSignature, FiscalRequest } from '../port.ts';

// What the DSFinV-K reads from the books: the closes of a period, the Vorgänge of each (from the cash
// book, with their TSE transactions), the paper's master data and each till's.

export interface CloseRow {
  id: number;
  till_id: number;
  day: string;
  created_at: Date | string;
  last_movement_id: number | string | null;
  number: number | string;
  previous_last: number | string | null;
  previous_at: Date | string | null;
}

export interface Fiscal {
  state: string;
  signature: DeSignature | null;
  lastError: string | null;
}

export interface Vorgang {
  bonId: string;
  type: 'Beleg' | 'AVTransfer' | 'AVBelegabbruch';
  start: Date | string;
  staff: string;
  built: Built;
  vendor: string;
  /** The cash movement it is (null: a visit paid from the credit alone, or the opening balance). */
  movementId: number | null;
  fiscal?: Fiscal;
}

/** The closes whose day lies in the period, each with its number per till and what it covers. */
export async function closesOf(db: Knex, from: string, to: string): Promise<CloseRow[]> {
  const { rows } = await db.raw<{ rows: CloseRow[] }>(
    `select * from (
       select c.id, c.till_id, to_char(c.day, 'YYYY-MM-DD') as day, c.created_at, c.last_movement_id,
              row_number() over (partition by c.till_id order by c.day, c.id) as number,
              lag(c.last_movement_id) over (partition by c.till_id order by c.day, c.id) as previous_last,
              lag(c.created_at) over (partition by c.till_id order by c.day, c.id) as previous_at
         from till_closes c) x
      where x.day >= ? and x.day <= ?
      order by x.till_id, x.number`,
    [from, to],
  );
  return rows;
}

export const json = <T>(value: T | string | null): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

/** The Vorgänge of one close: its cash movements, the visits paid from the credit alone, the opening balance. */
export async function vorgaenge(db: Knex, close: CloseRow): Promise<Vorgang[]> {
  const after = close.previous_last === null ? 0 : Number(close.previous_last);
  const upTo = close.last_movement_id === null ? 0 : Number(close.last_movement_id);
  const movements = await db('cash_movements as m')
    .leftJoin('vendors as v', 'v.id', 'm.vendor_id')
    // Germany's TSE data only: an Austrian till's RKSV receipts are in its DEP (at/dep.ts), not here.
    .leftJoin('fiscal_transactions as f', (j) => {
      j.on('f.cash_movement_id', 'm.id').andOnVal('f.country', '=', 'DE');
    })
    .where('m.till_id', close.till_id)
    .andWhere('m.id', '>', after)
    .andWhere('m.id', '<=', upTo)
    .orderBy('m.id')
    .select<
      {
        id: number | string;
        year: number;
        voucher_number: number;
        kind: string;
        amount: number | string;
        reason: string;
        staff: string;
        created_at: Date | string;
        counter_visit_id: string | null;
        license_id: string | null;
        state: string | null;
        signature: DeSignature | string | null;
        last_error: string | null;
      }[]
    >(
      'm.id',
      'm.year',
      'm.voucher_number',
      'm.kind',
      'm.amount',
      'm.reason',
      'm.staff',
      'm.created_at',
      'm.counter_visit_id',
      'v.license_id',
      'f.state',
      'f.signature',
      'f.last_error',
    );
  const result: Vorgang[] = [];
  for (const m of movements) {
    const built =
      m.kind === 'counter_cash' && m.counter_visit_id
        ? await visitRequest(db, m.counter_visit_id)
        : movementRequest({ kind: m.kind, amount: Number(m.amount), reason: m.reason });
    if (!built) continue;
    result.push({
      bonId: `${close.till_id}-${m.year}-${String(m.voucher_number).padStart(6, '0')}`,
      type: built.request.kind === 'receipt' ? 'Beleg' : 'AVTransfer',
      start: m.created_at,
      staff: m.staff,
      built,
      vendor: m.license_id ?? '',
      movementId: Number(m.id),
      fiscal: m.state ? { state: m.state, signature: json(m.signature), lastError: m.last_error } : undefined,
    });
  }
  // What happened after the previous close of the till and up to this one.
  const inClose = (q: Knex.QueryBuilder, column: string): void => {
    void q.andWhere(column, '<=', close.created_at);
    if (close.previous_at) void q.andWhere(column, '>', close.previous_at);
  };
  const visits = await db('counter_visits as cv')
    .join('vendors as v', 'v.id', 'cv.vendor_id')
    .leftJoin('fiscal_transactions as f', (j) => {
      j.on('f.counter_visit_id', 'cv.id').andOnVal('f.country', '=', 'DE');
    })
    .where('cv.till_id', close.till_id)
    .andWhere('cv.cash_paid', 0)
    .andWhere('cv.copies_amount', '>', 0)
    .modify((q) => inClose(q, 'cv.created_at'))
    .orderBy('cv.created_at')
    .select<
      {
        id: string;
        staff: string;
        created_at: Date | string;
        license_id: string;
        state: string | null;
        signature: DeSignature | string | null;
        last_error: string | null;
      }[]
    >('cv.id', 'cv.staff', 'cv.created_at', 'v.license_id', 'f.state', 'f.signature', 'f.last_error');
  for (const v of visits) {
    const built = await visitRequest(db, v.id);
    if (!built) continue;
    result.push({
      bonId: v.id,
      type: 'Beleg',
      start: v.created_at,
      staff: v.staff,
      built,
      vendor: v.license_id,
      movementId: null,
      fiscal: v.state ? { state: v.state, signature: json(v.signature), lastError: v.last_error } : undefined,
    });
  }
  // The cash the till held when its TSE went into service: signed (as the TSE's first transaction
  // of the till), so it is a Vorgang of its own, though no cash moved.
  const openings = await db('fiscal_transactions')
    .where({ till_id: close.till_id, country: 'DE' })
    .andWhere('source', 'like', 'opening:%')
    .modify((q) => inClose(q, 'created_at'))
    .orderBy('id')
    .select<
      {
        id: number | string;
        request: FiscalRequest | string;
        created_at: Date | string;
        state: string;
        signature: DeSignature | string | null;
        last_error: string | null;
      }[]
    >('id', 'request', 'created_at', 'state', 'signature', 'last_error');
  for (const o of openings)
    result.push({
      bonId: `${close.till_id}-AB-${String(o.id).padStart(6, '0')}`,
      type: 'AVTransfer',
      start: o.created_at,
      staff: 'Kassensystem',
      built: { businessCase: 'Anfangsbestand', request: json(o.request)! },
      vendor: '',
      movementId: null,
      fiscal: { state: o.state, signature: json(o.signature), lastError: o.last_error },
    });
  // A visit whose booking failed after its TSE transaction started: the transaction was CANCELLED
  // and signed as such, so it is an aborted Bon (AVBelegabbruch) without lines or payments.
  const aborted = await db('fiscal_transactions')
    .where({ till_id: close.till_id, country: 'DE' })
    .andWhere('source', 'like', 'abort:%')
    .modify((q) => inClose(q, 'created_at'))
    .orderBy('id')
    .select<
      { id: number | string; created_at: Date | string; state: string; signature: DeSignature | string | null }[]
    >('id', 'created_at', 'state', 'signature');
  for (const a of aborted)
    result.push({
      bonId: `${close.till_id}-BA-${String(a.id).padStart(6, '0')}`,
      type: 'AVBelegabbruch',
      start: a.created_at,
      staff: 'Kassensystem',
      built: { businessCase: 'Umsatz', request: { kind: 'receipt', lines: [], payments: [] } },
      vendor: '',
      movementId: null,
      fiscal: { state: a.state, signature: json(a.signature), lastError: null },
    });
  return result.sort((a, b) => new Date(a.start).getTime() - new Date(b.start).getTime());
}

export interface MasterData {
  name: string;
  street: string;
  postcode: string;
  town: string;
  country: string;
  taxNumber: string;
  vatId: string;
}

/** The paper's master data, or a refusal naming what the settings still lack. */
export async function masterData(db: Knex): Promise<MasterData> {
  const row = await db('settings').where({ id: 1 }).first<{
    newspaper_name: string;
    company_street: string;
    company_postcode: string;
    company_town: string;
    company_country: string;
    tax_number: string;
    vat_id: string;
  }>('newspaper_name', 'company_street', 'company_postcode', 'company_town', 'company_country', 'tax_number', 'vat_id');
  const missing: Message[] = [];
  if (!row.company_street) missing.push(tr('street'));
  if (!row.company_postcode) missing.push(tr('postcode'));
  if (!row.company_town) missing.push(tr('town'));
  if (!row.tax_number && !row.vat_id) missing.push(tr('tax number or VAT identification number'));
  if (missing.length)
    throw conflictError(
      tr('The DSFinV-K export needs in the settings (Address and tax): {missing}.', {
        missing: missing.reduce((list, next) => tr('{first}, {next}', { first: list, next })),
      }),
    );
  return {
    name: row.newspaper_name || 'Straßenzeitung',
    street: row.company_street,
    postcode: row.company_postcode,
    town: row.company_town,
    country: row.company_country,
    taxNumber: row.tax_number,
    vatId: row.vat_id,
  };
}

export interface TillMaster {
  name: string;
  location_name: string;
  location_street: string;
  location_postcode: string;
  location_town: string;
  /** When the till's TSE went into service (null: it never did). */
  signing_since: Date | string | null;
  signs_after_movement_id: number | string | null;
  /** A signature of the till's TSE, for its master data where a close has no signed Vorgang. */
  signature: DeSignature | string | null;
  /** When its German TSE was taken out of service, oldest first (decommission.ts). */
  decommissions: Decommission[];
}

export async function tillMaster(db: Knex, tillId: number): Promise<TillMaster> {
  const till = await db('tills as t')
    .leftJoin('fiscal_tills as f', 'f.till_id', 't.id')
    .where('t.id', tillId)
    .first<Omit<TillMaster, 'signature'>>(
      't.name',
      't.location_name',
      't.location_street',
      't.location_postcode',
      't.location_town',
      'f.signing_since',
      'f.signs_after_movement_id',
    );
  const signed = await db('fiscal_transactions')
    .where({ till_id: tillId, country: 'DE', state: 'signed' })
    .orderBy('id', 'desc')
    .first<{ signature: DeSignature | string | null } | undefined>('signature');
  const decommissions = (await decommissionsOf(db, tillId)).filter((d) => d.country === 'DE');
  return { ...till, signature: signed?.signature ?? null, decommissions };
}
