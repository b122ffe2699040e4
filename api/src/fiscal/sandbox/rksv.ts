import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import {
  amountsOfRaw,
  chainValue,
  encryptCounter,
  failedSignature,
  jwsOfQr,
  machineCode,
  qrOf,
  rawOf,
  signingInput,
  stornoMarker,
  sumOf,
  trainingMarker,
  zeroAmounts,
  type Amounts,
} from '../at/rksv.ts';
import { localDateTime } from '../../foundations/period.ts';
import { simulatorCredentials } from './keys.ts';
import { readJson, requireApiKey, requireToken, SimulatorError, uuidParam, type Json } from './requests.ts';
import { newToken } from './tss.ts';

// The local simulator of fiskaly SIGN AT (https://developer.fiskaly.com/api/rksv/v1): the subset of
// its API the adapter (../at/fiskaly.ts) calls, under /fiscal-sandbox/api/rksv/v1 in place of
// https://rksv.fiskaly.com/api/v1, so dev, tests and the demo run the real adapter. Like SIGN AT it
// keeps each cash register's chain itself (RKSV BGBl. II Nr. 410/2015 with its Anlage): numbers
// without a gap, the chain value of the receipt before, the turnover counter encrypted with the
// register's AES-256 key (ICM), the code signed with ES256 (R1) by the signature creation unit
// (a real P-256 key; a closed system, AT0, whose key id stands for the certificate's serial).
//
// What it does by itself, as SIGN AT does (receipt types from the API and the ERPNext client
// github.com/KMU-ERP/ERPNext-Fiskaly-SIGN-AT, providers/sign_at_v1.py): the start receipt
// (INITIALIZATION) when a register becomes INITIALIZED; the month receipt (MONTHLY_CLOSE, December's
// YEARLY_CLOSE) before the first receipt of a new month; while the unit has failed, receipts in the
// chain with "Sicherheitseinrichtung ausgefallen" as signature value (signed: false, §17 RKSV); after
// it is back, a signed zero receipt (SIGNATURE_CREATION_UNIT_FAULT_CLEARANCE, the Sammelbeleg of
// §17 (4) RKSV) before the next one.
//
// Not in the reference material, and so the RKSV's own data model: how the service names the unit's
// failure to the client (here `signed: false` on the receipt and `state: OUTAGE` on the register).
// POST /fiscal-sandbox/rksv/scu {"failing": true} (the API key as bearer) makes the unit fail until it
// is told otherwise. A register's AES key (simulatedAesKey) is what the paper would register at
// FinanzOnline; SIGN AT registers the till itself, and its API as far as documented names no such field.

export const rksvSimulatorPath = '/fiscal-sandbox/api/rksv/v1';

/** The time zone of the receipts' local time: the service is Austrian. */
const viennaTime = 'Europe/Vienna';

interface ScuRow {
  id: string;
  state: string;
  legal_entity_id: Json | string;
  legal_entity_name: string;
  key_id: string;
  private_key: string;
  public_key: string;
  failing: boolean;
}

interface RegisterRow {
  id: string;
  scu_id: string;
  state: string;
  description: string;
  serial_number: string;
  aes_key: string;
  receipt_number: number | string;
  turnover: number | string;
  last_jws: string | null;
  month: string | null;
  outage: boolean;
  initialization_receipt_id: string | null;
}

const json = (value: Json | string) => (typeof value === 'string' ? (JSON.parse(value) as Json) : value);

const scuBody = (scu: ScuRow) => ({
  _id: scu.id,
  _type: 'SIGNATURE_CREATION_UNIT',
  _env: 'TEST',
  state: scu.state,
  legal_entity_id: json(scu.legal_entity_id),
  legal_entity_name: scu.legal_entity_name,
  // A closed system (AT0): the key FinanzOnline registers, and its id in each receipt's code.
  public_key: scu.public_key,
  key_id: scu.key_id,
});

const registerBody = (register: RegisterRow) => ({
  _id: register.id,
  _type: 'CASH_REGISTER',
  _env: 'TEST',
  state: register.outage && register.state === 'INITIALIZED' ? 'OUTAGE' : register.state,
  description: register.description,
  serial_number: register.serial_number,
  signature_creation_unit_id: register.scu_id,
  initialization_receipt_id: register.initialization_receipt_id,
});

/** The unit's key: ES256 on P-256 (Anlage Z 2, R1); its id is the first bytes of the key's hash. */
function newUnitKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    public_key: spki.toString('base64'),
    // no underscore: the code's separator
    key_id: `SIM-${createHash('sha256').update(spki).digest().subarray(0, 8).toString('hex').toUpperCase()}`,
  };
}

const es256 = (privateKeyPem: string, data: string) =>
  sign('sha256', Buffer.from(data, 'utf8'), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');

type ReceiptType =
  | 'INITIALIZATION'
  | 'NORMAL'
  | 'CANCELLATION'
  | 'TRAINING'
  | 'MONTHLY_CLOSE'
  | 'YEARLY_CLOSE'
  | 'SIGNATURE_CREATION_UNIT_FAULT_CLEARANCE';

/** Writes the register's next receipt (the register's row is locked by the caller). */
async function chainReceipt(
  trx: Knex.Transaction,
  register: RegisterRow,
  scu: ScuRow,
  id: string,
  type: ReceiptType,
  amounts: Amounts,
): Promise<Json> {
  const number = Number(register.receipt_number) + 1;
  const receiptNumber = String(number);
  const now = new Date();
  // Anlage Z 4: the receipt's date and time are local, without a zone ("yyyy-MM-ddTHH:mm:ss").
  const time = localDateTime(now, viennaTime);
  // A training receipt leaves the counter as it is; a storno's amounts count (Detailspezifikation Abs. 4).
  const turnover = Number(register.turnover) + (type === 'TRAINING' ? 0 : sumOf(amounts));
  const counterField =
    type === 'CANCELLATION'
      ? stornoMarker
      : type === 'TRAINING'
        ? trainingMarker
        : encryptCounter(Buffer.from(register.aes_key, 'base64'), register.serial_number, receiptNumber, turnover);
  const code = machineCode({
    zda: 'AT0',
    cashRegisterId: register.serial_number,
    receiptNumber,
    time,
    amounts,
    encryptedTurnover: counterField,
    certificateSerial: scu.key_id,
    chainValue: chainValue(register.last_jws, register.serial_number),
  });
  const input = signingInput(code);
  const signed = !scu.failing;
  const jws = `${input}.${signed ? es256(scu.private_key, input) : failedSignature}`;
  const body: Json = {
    _id: id,
    _type: 'RECEIPT',
    _env: 'TEST',
    _version: '1.0.0',
    receipt_type: type,
    receipt_number: number,
    time_signature: Math.floor(now.getTime() / 1000),
    cash_register_id: register.id,
    cash_register_serial_number: register.serial_number,
    signature_creation_unit_id: scu.id,
    schema: { raw: rawOf(amounts) },
    qr_code_data: qrOf(jws),
    signed,
  };
  await trx('fiscal_sandbox_rksv_receipts').insert({
    register_id: register.id,
    id,
    receipt_number: number,
    receipt_type: type,
    body: JSON.stringify(body),
  });
  register.receipt_number = number;
  register.turnover = turnover;
  register.last_jws = jws;
  register.month = time.slice(0, 7);
  await trx('fiscal_sandbox_rksv_registers').where({ id: register.id }).update({
    receipt_number: number,
    turnover,
    last_jws: jws,
    month: register.month,
  });
  return body;
}

/** A receipt the service makes by itself: its id is new. */
const automatic = (
  trx: Knex.Transaction,
  register: RegisterRow,
  scu: ScuRow,
  type: Exclude<ReceiptType, 'NORMAL' | 'CANCELLATION' | 'TRAINING'>,
) => chainReceipt(trx, register, scu, randomUUID(), type, zeroAmounts());

async function lockRegister(trx: Knex.Transaction, id: string): Promise<{ register: RegisterRow; scu: ScuRow }> {
  const register = await trx('fiscal_sandbox_rksv_registers')
    .where({ id })
    .forUpdate()
    .first<RegisterRow | undefined>();
  if (!register) throw new SimulatorError(404, 'E_CASH_REGISTER_NOT_FOUND', `Cash register ${id} not found.`);
  const scu = await trx('fiscal_sandbox_rksv_scu').where({ id: register.scu_id }).first<ScuRow>();
  return { register, scu };
}

function mount(router: Router, db: Knex): void {
  router.post('/auth', async (ctx) => {
    const body = await readJson(ctx);
    const credentials = await simulatorCredentials(db);
    if (body.api_key !== credentials.apiKey || body.api_secret !== credentials.apiSecret)
      throw new SimulatorError(401, 'E_UNAUTHORIZED', 'Invalid API key or secret.');
    const seconds = 3600;
    ctx.body = {
      access_token: newToken(credentials.apiSecret, seconds),
      access_token_expires_in: seconds,
      access_token_claims: { env: 'TEST' },
    };
  });

  router.get('/signature-creation-unit/:scu', async (ctx) => {
    await requireToken(db, ctx);
    const scu = await db('fiscal_sandbox_rksv_scu')
      .where({ id: uuidParam(ctx, 'scu') })
      .first<ScuRow | undefined>();
    if (!scu) throw new SimulatorError(404, 'E_SCU_NOT_FOUND', 'Signature creation unit not found.');
    ctx.body = scuBody(scu);
  });

  router.put('/signature-creation-unit/:scu', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const id = uuidParam(ctx, 'scu');
    const entity = body.legal_entity_id as Json | undefined;
    const vatId = typeof entity?.vat_id === 'string' ? entity.vat_id : '';
    const taxId = typeof entity?.tax_id === 'string' ? entity.tax_id : '';
    if (!vatId && !taxId)
      throw new SimulatorError(400, 'E_LEGAL_ENTITY_ID', 'legal_entity_id needs a vat_id or a tax_id.');
    if (typeof body.legal_entity_name !== 'string' || !body.legal_entity_name.trim())
      throw new SimulatorError(400, 'E_LEGAL_ENTITY_NAME', 'legal_entity_name is required.');
    const inserted = await db('fiscal_sandbox_rksv_scu')
      .insert({
        id,
        state: 'CREATED',
        legal_entity_id: JSON.stringify(vatId ? { vat_id: vatId } : { tax_id: taxId }),
        legal_entity_name: body.legal_entity_name,
        ...newUnitKey(),
      })
      .onConflict('id')
      .ignore()
      .returning<ScuRow[]>('*');
    if (!inserted[0]) throw new SimulatorError(409, 'E_SCU_CONFLICT', 'The signature creation unit exists already.');
    ctx.body = scuBody(inserted[0]);
  });

  router.patch('/signature-creation-unit/:scu', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const id = uuidParam(ctx, 'scu');
    const scu = await db('fiscal_sandbox_rksv_scu').where({ id }).first<ScuRow | undefined>();
    if (!scu) throw new SimulatorError(404, 'E_SCU_NOT_FOUND', 'Signature creation unit not found.');
    const allowed: Record<string, string[]> = { CREATED: ['INITIALIZED'], INITIALIZED: ['DECOMMISSIONED'] };
    const state = String(body.state);
    if (state !== scu.state) {
      if (!allowed[scu.state]?.includes(state))
        throw new SimulatorError(
          409,
          'E_SCU_STATE',
          `A signature creation unit cannot go from ${scu.state} to ${state}.`,
        );
      await db('fiscal_sandbox_rksv_scu').where({ id }).update({ state });
    }
    ctx.body = scuBody({ ...scu, state });
  });

  router.get('/cash-register/:register', async (ctx) => {
    await requireToken(db, ctx);
    const register = await db('fiscal_sandbox_rksv_registers')
      .where({ id: uuidParam(ctx, 'register') })
      .first<RegisterRow | undefined>();
    if (!register) throw new SimulatorError(404, 'E_CASH_REGISTER_NOT_FOUND', 'Cash register not found.');
    ctx.body = registerBody(register);
  });

  router.put('/cash-register/:register', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const id = uuidParam(ctx, 'register');
    // The organisation's initialised unit signs its registers' receipts.
    const scu = await db('fiscal_sandbox_rksv_scu')
      .where({ state: 'INITIALIZED' })
      .orderBy('created_at')
      .first<ScuRow | undefined>();
    if (!scu) throw new SimulatorError(409, 'E_SCU_STATE', 'No INITIALIZED signature creation unit.');
    const inserted = await db('fiscal_sandbox_rksv_registers')
      .insert({
        id,
        scu_id: scu.id,
        state: 'CREATED',
        description: typeof body.description === 'string' ? body.description.slice(0, 200) : '',
        // The Kassen-ID: no underscore (the code's separator), unique for the company (§16 RKSV).
        serial_number: `FSK-${randomBytes(6).toString('hex').toUpperCase()}`,
        aes_key: randomBytes(32).toString('base64'),
      })
      .onConflict('id')
      .ignore()
      .returning<RegisterRow[]>('*');
    if (!inserted[0]) throw new SimulatorError(409, 'E_CASH_REGISTER_CONFLICT', 'The cash register exists already.');
    ctx.body = registerBody(inserted[0]);
  });

  router.patch('/cash-register/:register', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const id = uuidParam(ctx, 'register');
    ctx.body = await db.transaction(async (trx) => {
      const { register, scu } = await lockRegister(trx, id);
      const allowed: Record<string, string[]> = {
        CREATED: ['REGISTERED'],
        REGISTERED: ['INITIALIZED'],
        INITIALIZED: ['DECOMMISSIONED'],
      };
      const state = String(body.state);
      if (state === register.state) return registerBody(register);
      if (!allowed[register.state]?.includes(state))
        throw new SimulatorError(
          409,
          'E_CASH_REGISTER_STATE',
          `A cash register cannot go from ${register.state} to ${state}.`,
        );
      if (state === 'INITIALIZED') {
        // The start receipt (§6 (4) RKSV): a zero receipt chained to the Kassen-ID.
        const start = await automatic(trx, register, scu, 'INITIALIZATION');
        register.initialization_receipt_id = String(start._id);
      }
      register.state = state;
      await trx('fiscal_sandbox_rksv_registers')
        .where({ id })
        .update({ state, initialization_receipt_id: register.initialization_receipt_id });
      return registerBody(register);
    });
  });

  router.get('/cash-register/:register/receipt/:receipt', async (ctx) => {
    await requireToken(db, ctx);
    const row = await db('fiscal_sandbox_rksv_receipts')
      .where({ register_id: uuidParam(ctx, 'register'), id: uuidParam(ctx, 'receipt') })
      .first<{ body: Json | string } | undefined>('body');
    if (!row) throw new SimulatorError(404, 'E_RECEIPT_NOT_FOUND', 'Receipt not found.');
    ctx.body = json(row.body);
  });

  router.get('/cash-register/:register/receipt', async (ctx) => {
    await requireToken(db, ctx);
    const registerId = uuidParam(ctx, 'register');
    const limit = Math.min(Math.max(Number(ctx.query.limit) || 100, 1), 100);
    const offset = Math.max(Number(ctx.query.offset) || 0, 0);
    const order = ctx.query.order === 'DESC' ? 'desc' : 'asc';
    const types = [ctx.query.receipt_types ?? []].flat().map(String);
    const query = db('fiscal_sandbox_rksv_receipts')
      .where({ register_id: registerId })
      .modify((q) => {
        if (types.length) void q.whereIn('receipt_type', types);
      });
    const count = Number((await query.clone().count<{ count: string }[]>('* as count'))[0]!.count);
    const rows = await query
      .orderBy('receipt_number', order)
      .limit(limit)
      .offset(offset)
      .select<{ body: Json | string }[]>('body');
    ctx.body = {
      _type: 'RECEIPT_LIST',
      _env: 'TEST',
      _version: '1.0.0',
      count,
      data: rows.map((row) => json(row.body)),
    };
  });

  router.put('/cash-register/:register/receipt/:receipt', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const registerId = uuidParam(ctx, 'register');
    const id = uuidParam(ctx, 'receipt');
    const type = String(body.receipt_type);
    if (!['NORMAL', 'CANCELLATION', 'TRAINING'].includes(type))
      throw new SimulatorError(400, 'E_RECEIPT_TYPE', 'receipt_type must be NORMAL, CANCELLATION or TRAINING.');
    const amounts = amountsOfRaw((body.schema as Json | undefined)?.raw);
    if (!amounts)
      throw new SimulatorError(
        400,
        'E_SCHEMA',
        'schema.raw needs gross_amount_standard, _reduced_1, _reduced_2, _zero and _special as decimal strings.',
      );
    ctx.body = await db.transaction(async (trx) => {
      const { register, scu } = await lockRegister(trx, registerId);
      // The same receipt again: answered as it was, nothing signed twice.
      const known = await trx('fiscal_sandbox_rksv_receipts')
        .where({ register_id: registerId, id })
        .first<{ body: Json | string } | undefined>('body');
      if (known) return json(known.body);
      if (register.state !== 'INITIALIZED')
        throw new SimulatorError(
          409,
          'E_CASH_REGISTER_STATE',
          `The cash register is ${register.state}, not INITIALIZED.`,
        );
      if (scu.failing && !register.outage) {
        register.outage = true;
        await trx('fiscal_sandbox_rksv_registers').where({ id: registerId }).update({ outage: true });
      }
      if (!scu.failing && register.outage) {
        // The unit is back: a signed zero receipt first (§17 (4) RKSV).
        await automatic(trx, register, scu, 'SIGNATURE_CREATION_UNIT_FAULT_CLEARANCE');
        register.outage = false;
        await trx('fiscal_sandbox_rksv_registers').where({ id: registerId }).update({ outage: false });
      }
      const month = localDateTime(new Date(), viennaTime).slice(0, 7);
      if (register.month && register.month !== month)
        await automatic(trx, register, scu, register.month.endsWith('-12') ? 'YEARLY_CLOSE' : 'MONTHLY_CLOSE');
      return chainReceipt(trx, register, scu, id, type as ReceiptType, amounts);
    });
  });

  router.get('/cash-register/:register/export', async (ctx) => {
    await requireToken(db, ctx);
    const registerId = uuidParam(ctx, 'register');
    const rows = await db('fiscal_sandbox_rksv_receipts')
      .where({ register_id: registerId })
      .orderBy('receipt_number')
      .select<{ body: Json | string }[]>('body');
    ctx.body = {
      'Belege-Gruppe': [
        {
          Signaturzertifikat: '',
          Zertifizierungsstellen: [],
          'Belege-kompakt': rows.map((row) => jwsOfQr(String(json(row.body).qr_code_data))),
        },
      ],
    };
  });
}

/**
 * The simulator's API and its switch, as middleware; ../sandbox/index.ts guards who may call and answers
 * its refusals.
 */
export function rksvSimulator(db: Knex): Middleware {
  const api = new Router({ prefix: rksvSimulatorPath });
  mount(api, db);
  const control = new Router({ prefix: '/fiscal-sandbox/rksv' });
  control.post('/scu', async (ctx) => {
    await requireApiKey(db, ctx);
    const body = await readJson(ctx);
    await db('fiscal_sandbox_rksv_scu').update({ failing: body.failing === true });
    ctx.body = { failing: body.failing === true };
  });
  const routes = [api.routes(), control.routes()] as unknown as Middleware[];
  return async (ctx, next) => {
    await routes[0]!(ctx, async () => {
      await routes[1]!(ctx, next);
    });
  };
}

/** The simulated register's AES key, where the simulator holds that register. */
export async function simulatedAesKey(db: Knex, registerId: string): Promise<string | null> {
  const row = await db('fiscal_sandbox_rksv_registers')
    .where({ id: registerId })
    .first<{ aes_key: string } | undefined>('aes_key');
  return row?.aes_key ?? null;
}
