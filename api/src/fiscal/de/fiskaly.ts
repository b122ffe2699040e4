import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { log } from '../../foundations/log.ts';
import { tillSerial, uuidFrom } from '../ids.ts';
import type { DeSignature, FiscalPort, FiscalRequest, SignJob } from '../port.ts';
import { SigningFailed } from '../port.ts';
import { seal, unseal } from '../../foundations/sealing.ts';
import { sealingKey } from './secrets.ts';
import { abortReceipt, parseQrCode, processOf, qrCode, standardV1 } from './standard-v1.ts';

// Germany through fiskaly SIGN DE v2, the cloud TSE, or the local simulator that speaks the same
// subset of its API (../sandbox). What each call follows, from fiskaly's API reference
// (https://developer.fiskaly.com/api/kassensichv/v2, SIGN DE v2), its guides on
// https://workspace.fiskaly.com/countries/germany and open-source clients (github.com/fiskaly;
// MewsSystems/fiscalizations, src/Germany):
// - POST /auth with `api_key` and `api_secret` answers an `access_token` (a bearer token) and
//   `access_token_expires_in` seconds; every other call sends it.
// - A TSS is PUT with an id the client chooses: it is CREATED and the answer carries its `admin_puk`,
//   once (fiskaly shows it nowhere else). PATCHed to UNINITIALIZED, its admin PIN is set with the PUK
//   (PATCH /tss/{id}/admin: `admin_puk`, `new_admin_pin`), the admin logged in (POST
//   /tss/{id}/admin/auth), the TSS PATCHed to INITIALIZED; a client (a till, with its `serial_number`)
//   is PUT at /tss/{id}/client/{client_id} by the logged-in admin, who then logs out
//   (POST /tss/{id}/admin/logout). A client is deregistered (PATCH, state DEREGISTERED) and a TSS
//   taken out of service (PATCH, state DISABLED: "only a TSS in the state UNINITIALIZED or
//   INITIALIZED can be disabled", after the admin logged in, irreversibly,
//   https://support.fiskaly.com/hc/en-001/articles/4961066766354-SIGN-DE-How-can-I-disable-a-TSS).
// - Timeouts ("Error and Timeout Handling",
//   https://workspace.fiskaly.com/countries/germany/guides/error-handling): transactions 3 to 5 s,
//   authorisation 3 to 4 s, TSS creation and personalisation at least 30 s (FISCAL_SETUP_TIMEOUT_MS).
// - A transaction is PUT at /tss/{tss}/tx/{tx_id}?tx_revision=n, its id chosen by the client: revision
//   1 with state ACTIVE starts it, the next with state FINISHED (or CANCELLED) and
//   `schema.standard_v1.receipt` ends it. The same revision sent again changes nothing, and GET
//   answers the transaction with its `latest_revision`: a retry asks first and never ends a
//   transaction twice.
// - A finished transaction answers `number`, `time_start`, `time_end` (unix seconds), `tss_serial_number`,
//   `client_serial_number`, `signature` (`value`, `algorithm`, `counter`, `public_key`),
//   `log.timestamp_format` and `qr_code_data`: the fields a German receipt prints (fiskaly's
//   "Receipt data" page).
//
// The set-up resumes from whatever state it reached (fiscal_tss keeps it): a PUT /tss whose answer
// was lost leaves a TSS CREATED at fiskaly whose PUK nobody has; without it fiskaly lets nobody set
// its admin PIN, so it can never be initialised (nor disabled, which needs the admin). Such a TSS
// never signed anything: it is recorded as ABANDONED, with why, and a new TSS (its id made from the
// first one's) is set up in its place.

export interface FiskalyEndpoint {
  /** The API's base, ending in /api/v2. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The TSS the installation begins with (FISCAL_TSS_ID); a replacement's id is made from it. */
  tssId: string;
  /** What the tills' client ids are made from (FISCAL_CLIENT_ID). */
  clientId: string;
  /** How long one transaction call may take. */
  timeoutMs: number;
  /** How long one set-up call may take. */
  setupTimeoutMs: number;
  /** The secret the admin PUK and PIN are sealed with (FISCAL_SECRET_KEY, else FISCAL_API_SECRET). */
  secret: string;
}

interface Token {
  value: string;
  /** ms since the epoch when it is to be renewed. */
  renewAt: number;
}

type Json = Record<string, unknown>;

const tokens = new Map<string, Token>();
/**
 * TSSs (per account) and clients (per TSS and till) this process knows to be ready, per paper's
 * database: till ids repeat between papers, and one paper's TSS must never stand for another's.
 */
const readyOfDb = new WeakMap<
  Knex,
  { tss: Map<string, { id: string; certificate?: string }>; clients: Map<string, { id: string; serial: string }> }
>();
function readyOf(db: Knex) {
  let ready = readyOfDb.get(db);
  if (!ready) readyOfDb.set(db, (ready = { tss: new Map(), clients: new Map() }));
  return ready;
}

/** Answers 429 and 5xx are tried this many times more, after a short wait (Retry-After, at most 2 s). */
const retries = 2;

class Api {
  constructor(private readonly endpoint: FiskalyEndpoint) {}

  async call(
    method: string,
    path: string,
    body?: Json,
    options: { timeoutMs?: number; authorised?: boolean } = {},
  ): Promise<{ status: number; body: Json }> {
    const authorised = options.authorised ?? true;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (authorised) headers.Authorization = `Bearer ${await this.token()}`;
      let res: Response;
      try {
        res = await fetch(`${this.endpoint.baseUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs ?? this.endpoint.timeoutMs),
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
      // Too many requests, or the service failing for a moment: asked again (every call here is
      // safe to repeat: ids and revisions are the client's), then reported as the TSE's refusal.
      if ((res.status === 429 || res.status >= 500) && attempt < retries) {
        const after = Number(res.headers.get('retry-after'));
        const waitMs = Number.isFinite(after) && after >= 0 ? Math.min(after * 1000, 2000) : 200 * 2 ** attempt;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        continue;
      }
      return { status: res.status, body: parsed };
    }
  }

  /** A call that must succeed: anything else is the TSE's refusal, named. */
  async ok(method: string, path: string, body?: Json, timeoutMs?: number): Promise<Json> {
    const answer = await this.call(method, path, body, { timeoutMs });
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
      { authorised: false },
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

/** A field of an answer as text (a number too), else the fallback. */
const text = (value: unknown, fallback = '') =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;

/** The signing account a TSS belongs to, as fiscal_tss names it: a hash of the API key (not the key). */
export const accountOf = (apiKey: string) => `key:${createHash('sha256').update(apiKey).digest('hex').slice(0, 32)}`;

export interface TssRow {
  id: string;
  endpoint: string;
  state: 'NEW' | 'CREATED' | 'UNINITIALIZED' | 'INITIALIZED' | 'DISABLED' | 'ABANDONED';
  admin_puk: string | null;
  admin_pin: string | null;
  note: string;
}

/** The account's TSS in use: the newest not abandoned nor disabled, else a new one (recorded NEW). */
async function currentTss(db: Knex, endpoint: FiskalyEndpoint): Promise<TssRow> {
  const account = accountOf(endpoint.apiKey);
  for (;;) {
    const rows = await db('fiscal_tss').where({ endpoint: account }).orderBy('created_at').select<TssRow[]>('*');
    const current = rows.find((row) => row.state !== 'ABANDONED' && row.state !== 'DISABLED');
    if (current) return current;
    const id = rows.length === 0 ? endpoint.tssId : uuidFrom(`tss:${endpoint.tssId}:${rows.length}`);
    const known = await db('fiscal_tss').where({ id }).first<TssRow | undefined>();
    if (known && known.endpoint !== account)
      throw new SigningFailed(`The TSS ${id} belongs to another fiskaly account than FISCAL_API_KEY.`);
    if (known) {
      // made before, and abandoned or disabled since: the next one replaces it
      if (known.state === 'ABANDONED' || known.state === 'DISABLED') continue;
      return known;
    }
    await db('fiscal_tss').insert({ id, endpoint: account, state: 'NEW' }).onConflict('id').ignore();
  }
}

/** Everything set-up asks of the database and the TSS, for one account. */
class Setup {
  private readonly key: Buffer;
  constructor(
    private readonly db: Knex,
    private readonly api: Api,
    private readonly endpoint: FiskalyEndpoint,
  ) {
    this.key = sealingKey(endpoint.secret);
  }

  private update = (id: string, fields: Partial<TssRow>) =>
    this.db('fiscal_tss')
      .where({ id })
      .update({ ...fields, updated_at: this.db.fn.now() });

  private secret = (row: TssRow, field: 'admin_puk' | 'admin_pin') =>
    row[field] ? unseal(this.key, row[field], `${row.id}:${field}`) : undefined;

  private sealed = (row: TssRow, field: 'admin_puk' | 'admin_pin', value: string) =>
    seal(this.key, value, `${row.id}:${field}`);

  private timeout = () => this.endpoint.setupTimeoutMs;

  /** The TSS in use, INITIALIZED: its set-up resumed or begun, step by step. */
  async tss(): Promise<{ id: string; certificate?: string }> {
    const account = accountOf(this.endpoint.apiKey);
    const ready = readyOf(this.db).tss.get(account);
    if (ready) return ready;
    // Each pass takes one step; a TSS goes through four states at most and one may be replaced.
    for (let step = 0; step < 12; step++) {
      const row = await currentTss(this.db, this.endpoint);
      const path = `/tss/${row.id}`;
      const found = await this.api.call('GET', path, undefined, { timeoutMs: this.timeout() });
      if (found.status === 404) {
        await this.create(row);
        continue;
      }
      if (found.status >= 300) throw refusal('GET', path, found);
      const state = text(found.body.state);
      if (state === 'CREATED') {
        if (!this.secret(row, 'admin_puk')) {
          await this.abandon(
            row,
            'fiskaly created it, but the answer with its admin PUK never arrived; without the PUK no admin PIN can be set, so it can never be initialised. It never signed.',
          );
          continue;
        }
        await this.api.ok('PATCH', path, { state: 'UNINITIALIZED' }, this.timeout());
        await this.update(row.id, { state: 'UNINITIALIZED' });
      } else if (state === 'UNINITIALIZED') {
        if (!this.secret(row, 'admin_puk') && !this.secret(row, 'admin_pin')) {
          await this.abandon(
            row,
            'It is UNINITIALIZED, and neither its admin PUK nor its PIN is known here: it cannot be initialised from here. It never signed.',
          );
          continue;
        }
        await this.login(row);
        await this.api.ok('PATCH', path, { state: 'INITIALIZED' }, this.timeout());
        await this.logout(row);
        await this.update(row.id, { state: 'INITIALIZED' });
      } else if (state === 'INITIALIZED') {
        if (row.state !== 'INITIALIZED') await this.update(row.id, { state: 'INITIALIZED' });
        const certificate = typeof found.body.certificate === 'string' ? found.body.certificate : undefined;
        const tss = { id: row.id, certificate: certificate || undefined };
        readyOf(this.db).tss.set(account, tss);
        return tss;
      } else if (state === 'DISABLED') {
        await this.update(row.id, { state: 'DISABLED', note: 'Disabled at fiskaly.' });
      } else {
        throw new SigningFailed(`The TSS ${row.id} is ${state || 'in no known state'}.`);
      }
    }
    throw new SigningFailed('The TSS set-up did not finish; it resumes with the next signing.');
  }

  /** PUT /tss: its answer's PUK is sealed and stored at once, the only moment it is known. */
  private async create(row: TssRow): Promise<void> {
    const path = `/tss/${row.id}`;
    const created = await this.api.call('PUT', path, {}, { timeoutMs: this.timeout() });
    // Made after all, by an earlier try whose answer was lost, or by another process: read again.
    if (created.status === 409) return;
    if (created.status >= 300) throw refusal('PUT', path, created);
    const puk = text(created.body.admin_puk);
    if (!puk) throw new SigningFailed(`The TSE created the TSS ${row.id} without an admin PUK.`);
    await this.update(row.id, { state: 'CREATED', admin_puk: this.sealed(row, 'admin_puk', puk) });
  }

  private async abandon(row: TssRow, why: string): Promise<void> {
    log.warn('fiscal: TSS abandoned', { tss: row.id, why });
    await this.update(row.id, { state: 'ABANDONED', note: why });
  }

  /** The admin logged in: with the stored PIN, else a new PIN set with the PUK (stored before it is set). */
  async login(given: TssRow): Promise<void> {
    const row = (await this.db('fiscal_tss').where({ id: given.id }).first<TssRow>()) ?? given;
    const path = `/tss/${row.id}/admin`;
    const pin = this.secret(row, 'admin_pin');
    if (pin) {
      const auth = await this.api.call('POST', `${path}/auth`, { admin_pin: pin }, { timeoutMs: this.timeout() });
      if (auth.status < 300) return;
      if (auth.status !== 401 && auth.status !== 403) throw refusal('POST', `${path}/auth`, auth);
    }
    const puk = this.secret(row, 'admin_puk');
    if (!puk)
      throw new SigningFailed(
        `The admin PIN of the TSS ${row.id} is not known here: register the till's client in fiskaly's dashboard.`,
      );
    const next = randomBytes(8).toString('hex');
    // Stored before fiskaly is told: an answer lost after fiskaly set it still leaves the PIN known.
    await this.update(row.id, { admin_pin: this.sealed(row, 'admin_pin', next) });
    await this.api.ok('PATCH', path, { admin_puk: puk, new_admin_pin: next }, this.timeout());
    await this.api.ok('POST', `${path}/auth`, { admin_pin: next }, this.timeout());
  }

  async logout(row: TssRow): Promise<void> {
    await this.api.ok('POST', `/tss/${row.id}/admin/logout`, {}, this.timeout());
  }

  private clientKey = (tssId: string, tillId: number) => `${tssId} ${tillId}`;

  /** The till's client at the TSS: registered with the till's serial number the first time. */
  async client(tssId: string, tillId: number): Promise<{ id: string; serial: string }> {
    const cached = readyOf(this.db).clients.get(this.clientKey(tssId, tillId));
    if (cached) return cached;
    const serial = tillSerial(tillId);
    let row = await this.db('fiscal_clients')
      .where({ tss_id: tssId, till_id: tillId, state: 'REGISTERED' })
      .first<{ id: string; serial_number: string } | undefined>('id', 'serial_number');
    if (!row) {
      // A till deregistered before gets a client of its own again, under a new id.
      const [{ count } = { count: 0 }] = await this.db('fiscal_clients')
        .where({ tss_id: tssId, till_id: tillId })
        .count<{ count: string | number }[]>('* as count');
      const id = uuidFrom(`client:${this.endpoint.clientId}:${tssId}:${tillId}:${Number(count)}`);
      await this.db('fiscal_clients')
        .insert({ tss_id: tssId, id, till_id: tillId, serial_number: serial })
        .onConflict(['tss_id', 'id'])
        .ignore();
      row = await this.db('fiscal_clients')
        .where({ tss_id: tssId, till_id: tillId, state: 'REGISTERED' })
        .first<{ id: string; serial_number: string }>('id', 'serial_number');
    }
    const path = `/tss/${tssId}/client/${row.id}`;
    const known = await this.api.call('GET', path, undefined, { timeoutMs: this.timeout() });
    if (known.status === 404) {
      const tss = await this.db('fiscal_tss').where({ id: tssId }).first<TssRow>();
      await this.login(tss);
      await this.api.ok('PUT', path, { serial_number: row.serial_number }, this.timeout());
      await this.logout(tss);
    } else if (known.status >= 300) throw refusal('GET', path, known);
    else if (known.body.state === 'DEREGISTERED') {
      await this.db('fiscal_clients')
        .where({ tss_id: tssId, id: row.id })
        .update({ state: 'DEREGISTERED', deregistered_at: this.db.fn.now() });
      return this.client(tssId, tillId);
    }
    const client = { id: row.id, serial: row.serial_number };
    readyOf(this.db).clients.set(this.clientKey(tssId, tillId), client);
    return client;
  }

  /** Deregisters the till's client (fiskaly: PATCH state DEREGISTERED, by the logged-in admin). */
  async deregister(tillId: number): Promise<{ tssId: string; clientId: string } | null> {
    // Only what is registered here: a till without a client sets nothing up.
    const row = await this.db('fiscal_clients as c')
      .join('fiscal_tss as t', 't.id', 'c.tss_id')
      .where({ 't.endpoint': accountOf(this.endpoint.apiKey), 'c.till_id': tillId, 'c.state': 'REGISTERED' })
      .whereIn('t.state', ['UNINITIALIZED', 'INITIALIZED'])
      .first<{ id: string; tss_id: string } | undefined>('c.id', 'c.tss_id');
    if (!row) return null;
    const tss = { id: row.tss_id };
    const tssRow = await this.db('fiscal_tss').where({ id: tss.id }).first<TssRow>();
    const path = `/tss/${tss.id}/client/${row.id}`;
    const known = await this.api.call('GET', path, undefined, { timeoutMs: this.timeout() });
    if (known.status < 300 && known.body.state !== 'DEREGISTERED') {
      await this.login(tssRow);
      await this.api.ok('PATCH', path, { state: 'DEREGISTERED' }, this.timeout());
      await this.logout(tssRow);
    } else if (known.status >= 300 && known.status !== 404) throw refusal('GET', path, known);
    await this.db('fiscal_clients')
      .where({ tss_id: tss.id, id: row.id })
      .update({ state: 'DEREGISTERED', deregistered_at: this.db.fn.now() });
    readyOf(this.db).clients.delete(this.clientKey(tss.id, tillId));
    return { tssId: tss.id, clientId: row.id };
  }

  /** Takes the TSS in use out of service (fiskaly: PATCH state DISABLED, irreversible). */
  async disable(): Promise<{ tssId: string } | null> {
    const account = accountOf(this.endpoint.apiKey);
    const row = await this.db('fiscal_tss')
      .where({ endpoint: account })
      .whereIn('state', ['UNINITIALIZED', 'INITIALIZED'])
      .orderBy('created_at', 'desc')
      .first<TssRow | undefined>();
    if (!row) return null;
    const path = `/tss/${row.id}`;
    const found = await this.api.call('GET', path, undefined, { timeoutMs: this.timeout() });
    if (found.status >= 300) throw refusal('GET', path, found);
    if (found.body.state !== 'DISABLED') {
      await this.login(row);
      await this.api.ok('PATCH', path, { state: 'DISABLED' }, this.timeout());
    }
    await this.update(row.id, { state: 'DISABLED', note: 'Taken out of service.' });
    await this.db('fiscal_clients')
      .where({ tss_id: row.id, state: 'REGISTERED' })
      .update({ state: 'DEREGISTERED', deregistered_at: this.db.fn.now() });
    readyOf(this.db).tss.delete(account);
    for (const key of [...readyOf(this.db).clients.keys()])
      if (key.startsWith(`${row.id} `)) readyOf(this.db).clients.delete(key);
    return { tssId: row.id };
  }
}

const iso = (unixSeconds: unknown) => new Date(Number(unixSeconds) * 1000).toISOString();

function signatureOf(
  tss: { id: string; certificate?: string },
  client: { id: string; serial: string },
  tx: Json,
  start: Json | undefined,
  job: SignJob,
  fallback?: { processType: string; processData: string },
): DeSignature {
  const signature = (tx.signature ?? {}) as Json;
  const log = (tx.log ?? {}) as Json;
  const startSignature = (start?.signature ?? undefined) as Json | undefined;
  const base = {
    clientSerial: text(tx.client_serial_number, client.serial),
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
    typeof tx.qr_code_data === 'string'
      ? parseQrCode(tx.qr_code_data)
      : (fallback ?? processOf(standardV1(job.request)));
  const qr = typeof tx.qr_code_data === 'string' ? tx.qr_code_data : qrCode({ ...base, ...process });
  return {
    country: 'DE',
    tssId: tss.id,
    tssSerial: text(tx.tss_serial_number),
    clientId: client.id,
    startSignatureCounter: startSignature ? Number(startSignature.counter) : null,
    startSignature: startSignature ? text(startSignature.value) : null,
    processType: process.processType,
    processData: process.processData,
    qr,
    certificate: tss.certificate,
    ...base,
  };
}

/** What the German port does beyond signing: start and cancel a transaction, the set-up's explicit steps. */
export interface FiskalyPort extends FiscalPort {
  /** Starts the transaction (ACTIVE) when it is not started yet. */
  start(job: { txId: string; tillId: number }): Promise<void>;
  /**
   * Ends a started transaction as CANCELLED (a Belegabbruch of what was to be sold) and answers its
   * signature; null when it was not started (or not by this call).
   */
  cancel(job: { txId: string; tillId: number; request: FiscalRequest }): Promise<DeSignature | null>;
  deregisterClient(tillId: number): Promise<{ tssId: string; clientId: string } | null>;
  disableTss(): Promise<{ tssId: string } | null>;
  /** The TSS in use, set up (or its set-up resumed) first. */
  tss(): Promise<{ id: string }>;
}

/** The German port on one fiskaly (or simulator) account. */
export function fiskalyPort(db: Knex, endpoint: FiskalyEndpoint): FiskalyPort {
  const api = new Api(endpoint);
  const setup = new Setup(db, api, endpoint);
  // A refusal may mean the TSS or client changed elsewhere (taken out of service, deregistered): the
  // set-up is checked again and the call tried once more, then the refusal stands.
  const forget = () => {
    readyOf(db).tss.delete(accountOf(endpoint.apiKey));
    readyOf(db).clients.clear();
  };
  const withReady = async <T>(
    tillId: number,
    work: (tss: { id: string; certificate?: string }, client: { id: string; serial: string }) => Promise<T>,
  ): Promise<T> => {
    const cached = readyOf(db).tss.has(accountOf(endpoint.apiKey));
    const tss = await setup.tss();
    try {
      return await work(tss, await setup.client(tss.id, tillId));
    } catch (error) {
      forget();
      if (!cached || !(error instanceof SigningFailed)) throw error;
      const again = await setup.tss();
      return work(again, await setup.client(again.id, tillId));
    }
  };
  return {
    country: 'DE',
    tss: () => setup.tss(),
    deregisterClient: (tillId) => setup.deregister(tillId),
    disableTss: () => setup.disable(),
    start: (job) =>
      withReady(job.tillId, async (tss, client) => {
        const path = `/tss/${tss.id}/tx/${job.txId}`;
        const known = await api.call('GET', path);
        if (known.status === 404)
          await api.ok('PUT', `${path}?tx_revision=1`, { state: 'ACTIVE', client_id: client.id });
        else if (known.status >= 300) throw refusal('GET', path, known);
      }),
    cancel: (job) =>
      withReady(job.tillId, async (tss, client) => {
        const path = `/tss/${tss.id}/tx/${job.txId}`;
        const known = await api.call('GET', path);
        if (known.status === 404) return null;
        if (known.status >= 300) throw refusal('GET', path, known);
        if (known.body.state !== 'ACTIVE') return null;
        const revision = Number(known.body.latest_revision ?? known.body.revision ?? 1) + 1;
        const receipt = abortReceipt(job.request);
        const cancelled = await api.ok('PUT', `${path}?tx_revision=${revision}`, {
          state: 'CANCELLED',
          client_id: client.id,
          schema: { standard_v1: { receipt } },
        });
        const started = revision === 2 ? known.body : undefined;
        return signatureOf(
          tss,
          client,
          cancelled,
          started,
          { txId: job.txId, tillId: job.tillId, request: job.request },
          processOf(receipt),
        );
      }),
    sign: (job) =>
      withReady(job.tillId, async (tss, client) => {
        const path = `/tss/${tss.id}/tx/${job.txId}`;
        const known = await api.call('GET', path);
        let revision: number;
        let started: Json | undefined;
        if (known.status === 404) {
          started = await api.ok('PUT', `${path}?tx_revision=1`, { state: 'ACTIVE', client_id: client.id });
          revision = 2;
        } else if (known.status >= 300) {
          throw refusal('GET', path, known);
        } else if (known.body.state === 'FINISHED') {
          return signatureOf(tss, client, known.body, undefined, job);
        } else if (known.body.state !== 'ACTIVE') {
          throw new SigningFailed(`The TSE transaction ${job.txId} is ${text(known.body.state)} and cannot be signed.`);
        } else {
          revision = Number(known.body.latest_revision ?? known.body.revision ?? 1) + 1;
          // started before (at the counter, before its booking): its first revision holds the start signature
          if (revision === 2) started = known.body;
        }
        const finished = await api.ok('PUT', `${path}?tx_revision=${revision}`, {
          state: 'FINISHED',
          client_id: client.id,
          schema: { standard_v1: { receipt: standardV1(job.request) } },
        });
        return signatureOf(tss, client, finished, started, job);
      }),
  };
}
