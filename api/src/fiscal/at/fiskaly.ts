import { SigningFailed } from '../port.ts';

// The client of fiskaly SIGN AT v1 (https://developer.fiskaly.com/api/rksv/v1, base address
// https://rksv.fiskaly.com/api/v1). SIGN AT is the till's signature service and more: it keeps each
// cash register's receipt chain (numbers, chain values, the turnover counter and its AES key), signs
// with its signature creation unit (SCU), makes the start, month, year and recovery receipts itself
// and exports the DEP. The calls, as the API reference names them and the public ERPNext client
// (github.com/KMU-ERP/ERPNext-Fiskaly-SIGN-AT, providers/sign_at_v1.py) makes them:
//
// - POST /auth {api_key, api_secret} → {access_token, access_token_expires_in (seconds)}.
// - PUT /signature-creation-unit/{id} {legal_entity_id: {vat_id} | {tax_id}, legal_entity_name}
//   creates the unit (CREATED, or PENDING while fiskaly sets it up); PATCH … {state: INITIALIZED}.
// - PUT /cash-register/{id} {description} creates a register (CREATED); PATCH … {state: REGISTERED},
//   then {state: INITIALIZED}, whose answer names `initialization_receipt_id`, the start receipt.
// - PUT /cash-register/{id}/receipt/{receipt id} {receipt_type: NORMAL | CANCELLATION | TRAINING,
//   schema: {raw: {gross_amount_standard, …_reduced_1, …_reduced_2, …_zero, …_special}}} signs a
//   receipt; the same id again answers the same receipt (fiskaly: re-entry after an outage with the
//   original receipt UUID never signs twice, https://support.fiskaly.com/hc/de/articles/4961028134546).
//   The answer: {_id, receipt_type, receipt_number, time_signature, cash_register_serial_number (the
//   Kassen-ID), qr_code_data, signed, schema}.
// - GET /cash-register/{id}/receipt?order_by=receipt_number&order=ASC&limit&offset → {count, data}:
//   every receipt, those fiskaly made by itself too.
// - GET /cash-register/{id}/export → the DEP7 JSON.

export interface SignAtEndpoint {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The signature creation unit's id (a UUID this installation chooses: FISCAL_TSS_ID). */
  scuId: string;
  timeoutMs: number;
}

export type Json = Record<string, unknown>;

/** SIGN AT answered with an error status: what it said, and the status (404: not there yet). */
export class SignAtRefused extends SigningFailed {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const tokens = new Map<string, { value: string; renewAt: number }>();

async function call(
  endpoint: SignAtEndpoint,
  method: string,
  path: string,
  body?: Json,
  token?: string,
): Promise<Json> {
  let res: Response;
  try {
    res = await fetch(`${endpoint.baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
  } catch (error) {
    throw new SigningFailed(`fiskaly SIGN AT cannot be reached (${method} ${path}): ${(error as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  let parsed: Json;
  try {
    parsed = text ? (JSON.parse(text) as Json) : {};
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  if (res.status === 401) tokens.delete(`${endpoint.baseUrl} ${endpoint.apiKey}`);
  if (res.status >= 300) {
    const said = [parsed.code, parsed.message].filter(Boolean).join(': ');
    throw new SignAtRefused(
      `fiskaly SIGN AT refused ${method} ${path} (HTTP ${res.status})${said ? `: ${String(said)}` : ''}`,
      res.status,
    );
  }
  return parsed;
}

async function token(endpoint: SignAtEndpoint): Promise<string> {
  const key = `${endpoint.baseUrl} ${endpoint.apiKey}`;
  const known = tokens.get(key);
  if (known && known.renewAt > Date.now()) return known.value;
  const answer = await call(endpoint, 'POST', '/auth', { api_key: endpoint.apiKey, api_secret: endpoint.apiSecret });
  if (typeof answer.access_token !== 'string') throw new SigningFailed('fiskaly SIGN AT gave no access token.');
  const seconds = Number(answer.access_token_expires_in) || 300;
  tokens.set(key, { value: answer.access_token, renewAt: Date.now() + Math.max(seconds - 60, 1) * 1000 });
  return answer.access_token;
}

const authorised = async (endpoint: SignAtEndpoint, method: string, path: string, body?: Json) =>
  call(endpoint, method, path, body, await token(endpoint));

/** GET, or null where SIGN AT does not know it (404). */
async function find(endpoint: SignAtEndpoint, path: string): Promise<Json | null> {
  try {
    return await authorised(endpoint, 'GET', path);
  } catch (error) {
    if (error instanceof SignAtRefused && error.status === 404) return null;
    throw error;
  }
}

/** The legal entity a signature creation unit belongs to: the company's VAT id or tax number, and its name. */
export interface LegalEntity {
  vatId: string;
  taxId: string;
  name: string;
}

/** The unit, created and initialised where it is not yet: safe to call again from any state. */
export async function ensureScu(endpoint: SignAtEndpoint, entity: LegalEntity): Promise<Json> {
  const path = `/signature-creation-unit/${endpoint.scuId}`;
  let scu = await find(endpoint, path);
  if (!scu) {
    if (!entity.vatId && !entity.taxId)
      throw new SigningFailed(
        'SIGN AT needs the company’s VAT id or tax number (settings) to create its signature creation unit.',
      );
    scu = await authorised(endpoint, 'PUT', path, {
      legal_entity_id: entity.vatId ? { vat_id: entity.vatId } : { tax_id: entity.taxId },
      legal_entity_name: entity.name || 'Streetpaper',
    });
  }
  if (scu.state === 'PENDING') throw new SigningFailed('fiskaly is still setting up the signature creation unit.');
  if (scu.state === 'CREATED') scu = await authorised(endpoint, 'PATCH', path, { state: 'INITIALIZED' });
  if (scu.state !== 'INITIALIZED')
    throw new SigningFailed(`The signature creation unit is ${String(scu.state)}, not INITIALIZED.`);
  return scu;
}

/** The till's cash register, created, registered and initialised where it is not yet. */
export async function ensureRegister(endpoint: SignAtEndpoint, registerId: string, description: string): Promise<Json> {
  const path = `/cash-register/${registerId}`;
  let register = await find(endpoint, path);
  if (!register) register = await authorised(endpoint, 'PUT', path, { description });
  if (register.state === 'CREATED') register = await authorised(endpoint, 'PATCH', path, { state: 'REGISTERED' });
  if (register.state === 'REGISTERED') register = await authorised(endpoint, 'PATCH', path, { state: 'INITIALIZED' });
  // OUTAGE: the unit has failed; SIGN AT still chains the receipts ("Sicherheitseinrichtung ausgefallen").
  if (register.state !== 'INITIALIZED' && register.state !== 'OUTAGE')
    throw new SigningFailed(`The cash register at SIGN AT is ${String(register.state)}: it signs nothing.`);
  if (typeof register.serial_number !== 'string' || !register.serial_number)
    throw new SigningFailed('SIGN AT named no serial number (Kassen-ID) for the cash register.');
  return register;
}

export type SignAtReceiptType = 'NORMAL' | 'CANCELLATION' | 'TRAINING';

/** Signs one receipt under the id this installation chose for it; the same id again answers the same receipt. */
export async function signReceipt(
  endpoint: SignAtEndpoint,
  registerId: string,
  receiptId: string,
  receiptType: SignAtReceiptType,
  raw: Record<string, string>,
): Promise<Json> {
  const receipt = await authorised(endpoint, 'PUT', `/cash-register/${registerId}/receipt/${receiptId}`, {
    receipt_type: receiptType,
    schema: { raw },
  });
  if (receipt._id !== receiptId || typeof receipt.qr_code_data !== 'string')
    throw new SigningFailed('SIGN AT answered no receipt for the request.');
  return receipt;
}

/** The register's receipts from `offset` on, in the order of the chain. */
export async function receiptsFrom(endpoint: SignAtEndpoint, registerId: string, offset: number): Promise<Json[]> {
  const all: Json[] = [];
  for (;;) {
    const page = await authorised(
      endpoint,
      'GET',
      `/cash-register/${registerId}/receipt?order_by=receipt_number&order=ASC&limit=100&offset=${offset + all.length}`,
    );
    const data = Array.isArray(page.data) ? (page.data as Json[]) : [];
    all.push(...data);
    if (!data.length || offset + all.length >= Number(page.count)) return all;
  }
}
