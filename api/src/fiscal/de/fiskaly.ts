import { randomBytes } from 'node:crypto';
import type { DeSignature, FiscalPort, SignJob } from '../port.ts';
import { SigningFailed } from '../port.ts';
import { parseQrCode, processOf, qrCode, standardV1 } from './standard-v1.ts';

// Germany through fiskaly SIGN DE v2, the cloud TSE, or the local simulator that speaks the same
// subset of its API (../sandbox). What each call follows, from fiskaly's API reference
// (developer.fiskaly.com, SIGN DE v2) and its open-source clients (github.com/fiskaly):
// - POST /auth with `api_key` and `api_secret` answers an `access_token` (a bearer token) and
//   `access_token_expires_in` seconds; every other call sends it.
// - A TSS is PUT with an id the client chooses (state CREATED, answering the `admin_puk`), PATCHed to
//   UNINITIALIZED, its admin PIN set with the PUK (PATCH /tss/{id}/admin), the admin logged in
//   (POST /tss/{id}/admin/auth), the TSS PATCHed to INITIALIZED, the client (the till's electronic
//   recording system, with its `serial_number`) PUT at /tss/{id}/client/{client_id}, the admin logged out.
// - A transaction is PUT at /tss/{tss}/tx/{tx_id}?tx_revision=n, its id chosen by the client: revision
//   1 with state ACTIVE starts it, the next with state FINISHED and `schema.standard_v1.receipt`
//   finishes it. The same revision sent again changes nothing, and GET answers the transaction with
//   its `latest_revision`: a retry asks first and never finishes a transaction twice.
// - A finished transaction answers `number`, `time_start`, `time_end` (unix seconds), `tss_serial_number`,
//   `client_serial_number`, `signature` (`value`, `algorithm`, `counter`, `public_key`),
//   `log.timestamp_format` and `qr_code_data`: the fields a German receipt prints (fiskaly's
//   "Receipt data" page).

export interface FiskalyEndpoint {
  /** The API's base, ending in /api/v2. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  tssId: string;
  clientId: string;
  /** How long one call may take. */
  timeoutMs: number;
}

interface Token {
  value: string;
  /** ms since the epoch when it is to be renewed. */
  renewAt: number;
}

type Json = Record<string, unknown>;

const tokens = new Map<string, Token>();
const readyClients = new Set<string>();
// The TSS's X.509 certificate (PEM) per endpoint and TSS, as its TSS object gives it (`certificate`;
// the field as fiskaly's TSS object names it, e.g. MewsSystems/fiscalizations, Dto/TssResponse.cs):
// the DSFinV-K's tse.csv carries it.
const certificates = new Map<string, string>();

/** The serial number of a till's client: what the receipt prints as the Kassen-Seriennummer. */
export const clientSerial = (clientId: string) => `streetpaper-${clientId}`;

class Api {
  constructor(private readonly endpoint: FiskalyEndpoint) {}

  async call(method: string, path: string, body?: Json, authorised = true): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (authorised) headers.Authorization = `Bearer ${await this.token()}`;
    let res: Response;
    try {
      res = await fetch(`${this.endpoint.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.endpoint.timeoutMs),
      });
    } catch (error) {
      throw new SigningFailed(`The TSE cannot be reached (${method} ${path}): ${(error as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    let parsed: Json;
    try {
      parsed = text ? (JSON.parse(text) as Json) : {};
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    if (res.status === 401 && authorised) tokens.delete(this.tokenKey());
    return { status: res.status, body: parsed };
  }

  /** A call that must succeed: anything else is the TSE's refusal, named. */
  async ok(method: string, path: string, body?: Json): Promise<Json> {
    const answer = await this.call(method, path, body);
    if (answer.status >= 300) throw refusal(method, path, answer);
    return answer.body;
  }

  private tokenKey = () => `${this.endpoint.baseUrl} ${this.endpoint.apiKey}`;

  private async token(): Promise<string> {
    const known = tokens.get(this.tokenKey());
    if (known && known.renewAt > Date.now()) return known.value;
    const answer = await this.call(
      'POST',
      '/auth',
      { api_key: this.endpoint.apiKey, api_secret: this.endpoint.apiSecret },
      false,
    );
    if (answer.status !== 200 || typeof answer.body.access_token !== 'string') throw refusal('POST', '/auth', answer);
    const seconds = Number(answer.body.access_token_expires_in) || 300;
    // renewed a minute early, so a token never runs out between the check and the call
    tokens.set(this.tokenKey(), {
      value: answer.body.access_token,
      renewAt: Date.now() + Math.max(seconds - 60, 1) * 1000,
    });
    return answer.body.access_token;
  }
}

function refusal(method: string, path: string, answer: { status: number; body: Json }): SigningFailed {
  const said = [answer.body.code, answer.body.message ?? answer.body.error].filter(Boolean).join(': ');
  return new SigningFailed(`The TSE refused ${method} ${path} (HTTP ${answer.status})${said ? `: ${said}` : ''}`);
}

/** The TSS and the client, set up once if the TSS is new; a TSS set up elsewhere is only checked. */
async function ensureSetUp(api: Api, endpoint: FiskalyEndpoint): Promise<void> {
  const key = `${endpoint.baseUrl} ${endpoint.tssId} ${endpoint.clientId}`;
  if (readyClients.has(key)) return;
  const tss = `/tss/${endpoint.tssId}`;
  const found = await api.call('GET', tss);
  let adminPin: string | undefined;
  if (found.status === 404) {
    const created = await api.ok('PUT', tss, {});
    const puk = text(created.admin_puk);
    adminPin = randomBytes(6).toString('hex');
    await api.ok('PATCH', tss, { state: 'UNINITIALIZED' });
    await api.ok('PATCH', `${tss}/admin`, { admin_puk: puk, new_admin_pin: adminPin });
    await api.ok('POST', `${tss}/admin/auth`, { admin_pin: adminPin });
    await api.ok('PATCH', tss, { state: 'INITIALIZED' });
  } else if (found.status >= 300) {
    throw refusal('GET', tss, found);
  } else if (found.body.state !== 'INITIALIZED') {
    throw new SigningFailed(
      `The TSS ${endpoint.tssId} is ${text(found.body.state, 'unknown')}, not INITIALIZED: finish its set-up in fiskaly's dashboard.`,
    );
  }
  const client = `${tss}/client/${endpoint.clientId}`;
  const known = await api.call('GET', client);
  if (known.status === 404) {
    if (!adminPin)
      throw new SigningFailed(
        `The client ${endpoint.clientId} does not exist at the TSS: create it in fiskaly's dashboard.`,
      );
    await api.ok('PUT', client, { serial_number: clientSerial(endpoint.clientId) });
  } else if (known.status >= 300) throw refusal('GET', client, known);
  if (adminPin) await api.ok('POST', `${tss}/admin/logout`, {});
  const read = found.status === 200 ? found : await api.call('GET', tss);
  if (typeof read.body.certificate === 'string' && read.body.certificate)
    certificates.set(`${endpoint.baseUrl} ${endpoint.tssId}`, read.body.certificate);
  readyClients.add(key);
}

/** A field of an answer as text (a number too), else the fallback. */
const text = (value: unknown, fallback = '') =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;

const iso = (unixSeconds: unknown) => new Date(Number(unixSeconds) * 1000).toISOString();

function signatureOf(endpoint: FiskalyEndpoint, tx: Json, start: Json | undefined, job: SignJob): DeSignature {
  const signature = (tx.signature ?? {}) as Json;
  const log = (tx.log ?? {}) as Json;
  const startSignature = (start?.signature ?? undefined) as Json | undefined;
  const base = {
    clientSerial: text(tx.client_serial_number, clientSerial(endpoint.clientId)),
    transactionNumber: Number(tx.number),
    signatureCounter: Number(signature.counter),
    start: iso(tx.time_start),
    end: iso(tx.time_end),
    algorithm: text(signature.algorithm),
    timeFormat: text(log.timestamp_format, 'unixTime'),
    signature: text(signature.value),
    publicKey: text(signature.public_key),
  };
  // fiskaly's own QR text when it gives one; otherwise made from the same fields
  const process =
    typeof tx.qr_code_data === 'string' ? parseQrCode(tx.qr_code_data) : processOf(standardV1(job.request));
  const qr = typeof tx.qr_code_data === 'string' ? tx.qr_code_data : qrCode({ ...base, ...process });
  return {
    country: 'DE',
    tssId: endpoint.tssId,
    tssSerial: text(tx.tss_serial_number),
    clientId: endpoint.clientId,
    startSignatureCounter: startSignature ? Number(startSignature.counter) : null,
    startSignature: startSignature ? text(startSignature.value) : null,
    processType: process.processType,
    processData: process.processData,
    qr,
    certificate: certificates.get(`${endpoint.baseUrl} ${endpoint.tssId}`),
    ...base,
  };
}

/** The German port on one fiskaly (or simulator) endpoint. */
export function fiskalyPort(endpoint: FiskalyEndpoint): FiscalPort {
  const api = new Api(endpoint);
  return {
    country: 'DE',
    async sign(job) {
      await ensureSetUp(api, endpoint);
      const path = `/tss/${endpoint.tssId}/tx/${job.txId}`;
      const known = await api.call('GET', path);
      let revision: number;
      let started: Json | undefined;
      if (known.status === 404) {
        started = await api.ok('PUT', `${path}?tx_revision=1`, { state: 'ACTIVE', client_id: endpoint.clientId });
        revision = 2;
      } else if (known.status >= 300) {
        throw refusal('GET', path, known);
      } else if (known.body.state === 'FINISHED') {
        return signatureOf(endpoint, known.body, undefined, job);
      } else {
        revision = Number(known.body.latest_revision ?? known.body.revision ?? 1) + 1;
      }
      const finished = await api.ok('PUT', `${path}?tx_revision=${revision}`, {
        state: 'FINISHED',
        client_id: endpoint.clientId,
        schema: { standard_v1: { receipt: standardV1(job.request) } },
      });
      return signatureOf(endpoint, finished, started, job);
    },
  };
}
