import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context, Middleware } from 'koa';
import { isLoopback } from '../../foundations/config.ts';
import { standardV1Errors, type StandardV1Receipt } from '../de/standard-v1.ts';
import { simulatorCredentials } from './keys.ts';
import {
  answeringRefusals,
  readJson,
  requireApiKey,
  requireToken,
  SimulatorError,
  uuidParam,
  type Json,
} from './requests.ts';
import { rksvSimulator } from './rksv.ts';
import {
  finishSignature,
  newKeyPair,
  newToken,
  selfSignedCertificate,
  serialOf,
  signatureAlgorithm,
  startSignature,
  timestampFormat,
} from './tss.ts';

// The local TSE simulator: the subset of fiskaly SIGN DE v2 the adapter calls (de/fiskaly.ts names
// each rule's source), under /fiscal-sandbox/api/v2, so dev, tests and the demo run the real adapter;
// beside it fiskaly SIGN AT's (./rksv.ts) under /fiscal-sandbox/api/rksv/v1.
// Like the Stripe sandbox it is no part of our API (no RouteDef, no OIDC token: it checks its own
// bearer token), and it answers this machine alone: a request from another address, or one a proxy
// passed on, is answered 404, so nobody outside can sign in its name or read its keys.
//
// Its state lives in the database (fiscal_sandbox_*), so every process shares one TSS with one
// signature counter; a TSS's row is locked while it signs, so the counters rise without gaps.
// POST /fiscal-sandbox/offline {"offline": true} (with the API key as bearer) makes it unreachable
// until it is switched back: the outage tests and the demo of "TSE ausgefallen" use it.
// POST /fiscal-sandbox/faults (the same bearer) tells it to answer the next calls of one kind (method
// and `resource`: auth, tss, admin, client, tx or *) with an HTTP status (429, 5xx), slowly
// (`delayMs`), or to do what was asked and then hold the answer back until the caller gives up
// (`timeout`: a PUT /tss whose answer is lost after the TSS was created), `times` times;
// DELETE /fiscal-sandbox/faults forgets them. As the Stripe sandbox's controls, for the failure tests.

export const simulatorPath = '/fiscal-sandbox/api/v2';

/** Only this machine, directly: the socket's peer is loopback and no proxy forwarded the request. */
function fromThisMachine(ctx: Context): boolean {
  const peer = (ctx.req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return isLoopback(peer) && !ctx.get('x-forwarded-for') && !ctx.get('forwarded');
}

const unixNow = () => Math.floor(Date.now() / 1000);

interface TssRow {
  id: string;
  state: string;
  serial_number: string;
  private_key: string;
  public_key: string;
  certificate: string;
  admin_puk: string;
  admin_pin: string | null;
  admin_authenticated: boolean;
  signature_counter: number | string;
  transaction_counter: number | string;
}

function tssBody(tss: TssRow): Json {
  return {
    _id: tss.id,
    _type: 'TSS',
    _env: 'TEST',
    state: tss.state,
    serial_number: tss.serial_number,
    public_key: tss.public_key,
    certificate: tss.certificate || null,
    signature_algorithm: signatureAlgorithm,
    signature_timestamp_format: timestampFormat,
    signature_counter: String(tss.signature_counter),
    transaction_counter: String(tss.transaction_counter),
  };
}

async function lockTss(trx: Knex.Transaction, id: string): Promise<TssRow> {
  const tss = await trx('fiscal_sandbox_tss').where({ id }).forUpdate().first<TssRow | undefined>();
  if (!tss) throw new SimulatorError(404, 'E_TSS_NOT_FOUND', `TSS ${id} not found.`);
  return tss;
}

function mount(router: Router, db: Knex): void {
  router.post('/api/v2/auth', async (ctx) => {
    const body = await readJson(ctx);
    const credentials = await simulatorCredentials(db);
    if (body.api_key !== credentials.apiKey || body.api_secret !== credentials.apiSecret)
      throw new SimulatorError(401, 'E_UNAUTHORIZED', 'Invalid API key or secret.');
    const seconds = 3600;
    ctx.body = { access_token: newToken(credentials.apiSecret, seconds), access_token_expires_in: seconds };
  });

  router.get('/api/v2/tss/:tss', async (ctx) => {
    await requireToken(db, ctx);
    const tss = await db('fiscal_sandbox_tss')
      .where({ id: uuidParam(ctx, 'tss') })
      .first<TssRow | undefined>();
    if (!tss) throw new SimulatorError(404, 'E_TSS_NOT_FOUND', 'TSS not found.');
    if (!tss.certificate) {
      tss.certificate = selfSignedCertificate(tss.private_key, tss.serial_number);
      await db('fiscal_sandbox_tss').where({ id: tss.id, certificate: '' }).update({ certificate: tss.certificate });
    }
    ctx.body = tssBody(tss);
  });

  router.put('/api/v2/tss/:tss', async (ctx) => {
    await requireToken(db, ctx);
    await readJson(ctx);
    const id = uuidParam(ctx, 'tss');
    const keys = newKeyPair();
    const puk = randomBytes(5).toString('hex');
    const inserted = await db('fiscal_sandbox_tss')
      .insert({
        id,
        state: 'CREATED',
        serial_number: serialOf(keys.publicKey),
        private_key: keys.privateKey,
        public_key: keys.publicKey,
        certificate: selfSignedCertificate(keys.privateKey, serialOf(keys.publicKey)),
        admin_puk: puk,
      })
      .onConflict('id')
      .ignore()
      .returning<TssRow[]>('*');
    const tss = inserted[0];
    if (!tss) throw new SimulatorError(409, 'E_TSS_CONFLICT', 'The TSS exists already.');
    ctx.body = { ...tssBody(tss), admin_puk: puk };
  });

  router.patch('/api/v2/tss/:tss', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    ctx.body = await db.transaction(async (trx) => {
      const tss = await lockTss(trx, uuidParam(ctx, 'tss'));
      const allowed: Record<string, string[]> = {
        CREATED: ['UNINITIALIZED'],
        UNINITIALIZED: ['INITIALIZED', 'DISABLED'],
        INITIALIZED: ['DISABLED'],
      };
      const state = String(body.state);
      if (!['CREATED', 'UNINITIALIZED', 'INITIALIZED', 'DISABLED'].includes(state))
        throw new SimulatorError(400, 'E_TSS_STATE', 'state must be UNINITIALIZED, INITIALIZED or DISABLED.');
      if (state === tss.state) return tssBody(tss);
      if (!allowed[tss.state]?.includes(state))
        throw new SimulatorError(409, 'E_TSS_STATE', `A TSS cannot go from ${tss.state} to ${state}.`);
      if ((state === 'INITIALIZED' || state === 'DISABLED') && !tss.admin_authenticated)
        throw new SimulatorError(401, 'E_ADMIN_NOT_AUTHENTICATED', 'The admin must be logged in.');
      await trx('fiscal_sandbox_tss').where({ id: tss.id }).update({ state });
      return tssBody({ ...tss, state });
    });
  });

  router.patch('/api/v2/tss/:tss/admin', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const id = uuidParam(ctx, 'tss');
    const tss = await db('fiscal_sandbox_tss').where({ id }).first<TssRow | undefined>();
    if (!tss) throw new SimulatorError(404, 'E_TSS_NOT_FOUND', 'TSS not found.');
    if (body.admin_puk !== tss.admin_puk) throw new SimulatorError(401, 'E_ADMIN_PUK', 'Wrong admin PUK.');
    if (typeof body.new_admin_pin !== 'string' || body.new_admin_pin.length < 6)
      throw new SimulatorError(400, 'E_ADMIN_PIN', 'The admin PIN needs at least 6 characters.');
    await db('fiscal_sandbox_tss').where({ id }).update({ admin_pin: body.new_admin_pin });
    ctx.body = {};
  });

  router.post('/api/v2/tss/:tss/admin/auth', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const id = uuidParam(ctx, 'tss');
    const tss = await db('fiscal_sandbox_tss').where({ id }).first<TssRow | undefined>();
    if (!tss) throw new SimulatorError(404, 'E_TSS_NOT_FOUND', 'TSS not found.');
    if (!tss.admin_pin || body.admin_pin !== tss.admin_pin)
      throw new SimulatorError(401, 'E_ADMIN_PIN', 'Wrong admin PIN.');
    await db('fiscal_sandbox_tss').where({ id }).update({ admin_authenticated: true });
    ctx.body = {};
  });

  router.post('/api/v2/tss/:tss/admin/logout', async (ctx) => {
    await requireToken(db, ctx);
    await readJson(ctx);
    await db('fiscal_sandbox_tss')
      .where({ id: uuidParam(ctx, 'tss') })
      .update({ admin_authenticated: false });
    ctx.body = {};
  });

  router.get('/api/v2/tss/:tss/client/:client', async (ctx) => {
    await requireToken(db, ctx);
    const client = await db('fiscal_sandbox_clients')
      .where({ tss_id: uuidParam(ctx, 'tss'), id: uuidParam(ctx, 'client') })
      .first<{ id: string; serial_number: string; state: string } | undefined>();
    if (!client) throw new SimulatorError(404, 'E_CLIENT_NOT_FOUND', 'Client not found.');
    ctx.body = { _id: client.id, _type: 'CLIENT', serial_number: client.serial_number, state: client.state };
  });

  // A client's deregistration, by the logged-in admin (fiskaly: PATCH with state DEREGISTERED).
  router.patch('/api/v2/tss/:tss/client/:client', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const tssId = uuidParam(ctx, 'tss');
    const id = uuidParam(ctx, 'client');
    ctx.body = await db.transaction(async (trx) => {
      const tss = await lockTss(trx, tssId);
      if (!tss.admin_authenticated)
        throw new SimulatorError(401, 'E_ADMIN_NOT_AUTHENTICATED', 'The admin must be logged in.');
      if (body.state !== 'DEREGISTERED' && body.state !== 'REGISTERED')
        throw new SimulatorError(400, 'E_CLIENT_STATE', 'state must be REGISTERED or DEREGISTERED.');
      const client = await trx('fiscal_sandbox_clients')
        .where({ tss_id: tssId, id })
        .first<{ serial_number: string; state: string } | undefined>();
      if (!client) throw new SimulatorError(404, 'E_CLIENT_NOT_FOUND', 'Client not found.');
      if (client.state === 'DEREGISTERED' && body.state === 'REGISTERED')
        throw new SimulatorError(409, 'E_CLIENT_STATE', 'A deregistered client stays deregistered.');
      await trx('fiscal_sandbox_clients').where({ tss_id: tssId, id }).update({ state: body.state });
      return { _id: id, _type: 'CLIENT', serial_number: client.serial_number, state: body.state, tss_id: tssId };
    });
  });

  router.put('/api/v2/tss/:tss/client/:client', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const tssId = uuidParam(ctx, 'tss');
    const id = uuidParam(ctx, 'client');
    ctx.body = await db.transaction(async (trx) => {
      const tss = await lockTss(trx, tssId);
      if (tss.state !== 'INITIALIZED' || !tss.admin_authenticated)
        throw new SimulatorError(409, 'E_TSS_STATE', 'Clients are added to an INITIALIZED TSS by its logged-in admin.');
      const serial = body.serial_number;
      if (typeof serial !== 'string' || !serial || serial.length > 100)
        throw new SimulatorError(400, 'E_CLIENT_SERIAL', 'serial_number is required: the till\u2019s serial number.');
      await trx('fiscal_sandbox_clients')
        .insert({ tss_id: tssId, id, serial_number: serial })
        .onConflict(['tss_id', 'id'])
        .ignore();
      return { _id: id, _type: 'CLIENT', serial_number: serial, state: 'REGISTERED', tss_id: tssId };
    });
  });

  router.get('/api/v2/tss/:tss/tx/:tx', async (ctx) => {
    await requireToken(db, ctx);
    const tx = await db('fiscal_sandbox_transactions')
      .where({ tss_id: uuidParam(ctx, 'tss'), id: uuidParam(ctx, 'tx') })
      .first<{ body: Json } | undefined>('body');
    if (!tx) throw new SimulatorError(404, 'E_TX_NOT_FOUND', 'Transaction not found.');
    ctx.body = tx.body;
  });

  router.put('/api/v2/tss/:tss/tx/:tx', async (ctx) => {
    await requireToken(db, ctx);
    const body = await readJson(ctx);
    const tssId = uuidParam(ctx, 'tss');
    const txId = uuidParam(ctx, 'tx');
    const revision = Number(ctx.query.tx_revision);
    if (!Number.isInteger(revision) || revision < 1)
      throw new SimulatorError(400, 'E_TX_REVISION', 'tx_revision must be a whole number of at least 1.');
    ctx.body = await db.transaction(async (trx) => {
      const tss = await lockTss(trx, tssId);
      if (tss.state !== 'INITIALIZED') throw new SimulatorError(409, 'E_TSS_STATE', 'The TSS is not INITIALIZED.');
      const clientId = typeof body.client_id === 'string' ? body.client_id : '';
      const client = await trx('fiscal_sandbox_clients')
        .where({ tss_id: tssId, id: clientId.toLowerCase() })
        .first<{ serial_number: string; state: string } | undefined>('serial_number', 'state');
      if (!client) throw new SimulatorError(404, 'E_CLIENT_NOT_FOUND', 'Client not found.');
      if (client.state !== 'REGISTERED')
        throw new SimulatorError(409, 'E_CLIENT_STATE', 'The client is deregistered and signs nothing.');
      const known = await trx('fiscal_sandbox_transactions')
        .where({ tss_id: tssId, id: txId })
        .first<{ revision: number; state: string; body: Json } | undefined>();
      // The same revision again: answered as it was, nothing signed again.
      if (known && revision === known.revision) return known.body;
      if (known ? revision !== known.revision + 1 : revision !== 1)
        throw new SimulatorError(409, 'E_TX_REVISION', `Revision ${revision} does not follow ${known?.revision ?? 0}.`);
      if (known && known.state !== 'ACTIVE')
        throw new SimulatorError(409, 'E_TX_STATE', `The transaction is ${known.state} and cannot change.`);
      const state = String(body.state);
      if (!known && state !== 'ACTIVE') throw new SimulatorError(400, 'E_TX_STATE', 'A transaction starts ACTIVE.');
      if (state !== 'ACTIVE' && state !== 'FINISHED' && state !== 'CANCELLED')
        throw new SimulatorError(400, 'E_TX_STATE', 'state must be ACTIVE, FINISHED or CANCELLED.');
      // fiskaly validates the schema before it signs: a finished transaction needs standard_v1's receipt
      const schema = body.schema as { standard_v1?: { receipt?: unknown } } | undefined;
      if (schema !== undefined || state === 'FINISHED') {
        const receiptGiven = schema?.standard_v1?.receipt;
        const errors =
          schema && typeof schema === 'object' ? standardV1Errors(receiptGiven) : ['schema must be an object'];
        if (errors.length) throw new SimulatorError(400, 'E_SCHEMA_VALIDATION', errors.join('; '));
      }
      const counter = Number(tss.signature_counter) + 1;
      const now = unixNow();
      const common = {
        _id: txId,
        _type: 'TRANSACTION',
        _env: 'TEST',
        client_id: clientId,
        client_serial_number: client.serial_number,
        tss_id: tssId,
        tss_serial_number: tss.serial_number,
        latest_revision: revision,
        revision,
        state,
      };
      let answer: Json;
      let transactions = Number(tss.transaction_counter);
      if (!known) {
        transactions += 1;
        const fields = {
          clientSerial: client.serial_number,
          transactionNumber: transactions,
          signatureCounter: counter,
          timeStart: now,
        };
        answer = {
          ...common,
          number: transactions,
          time_start: now,
          signature: {
            value: startSignature({ privateKey: tss.private_key, publicKey: tss.public_key }, fields),
            algorithm: signatureAlgorithm,
            counter,
            public_key: tss.public_key,
          },
          log: { operation: 'StartTransaction', timestamp: now, timestamp_format: timestampFormat },
        };
      } else {
        const receipt = (body.schema as { standard_v1?: { receipt?: StandardV1Receipt } } | undefined)?.standard_v1
          ?.receipt ?? { receipt_type: 'ABORT', amounts_per_vat_rate: [], amounts_per_payment_type: [] };
        const number = Number(known.body.number);
        const timeStart = Number(known.body.time_start);
        const signed = finishSignature(
          { privateKey: tss.private_key, publicKey: tss.public_key },
          {
            clientSerial: client.serial_number,
            transactionNumber: number,
            signatureCounter: counter,
            timeStart,
            timeEnd: now,
          },
          receipt,
        );
        answer = {
          ...common,
          number,
          time_start: timeStart,
          time_end: now,
          schema: body.schema,
          signature: { value: signed.value, algorithm: signatureAlgorithm, counter, public_key: tss.public_key },
          log: {
            operation: state === 'ACTIVE' ? 'UpdateTransaction' : 'FinishTransaction',
            timestamp: now,
            timestamp_format: timestampFormat,
          },
          qr_code_data: signed.qr,
        };
      }
      await trx('fiscal_sandbox_tss')
        .where({ id: tssId })
        .update({ signature_counter: counter, transaction_counter: transactions });
      await trx('fiscal_sandbox_transactions')
        .insert({ tss_id: tssId, id: txId, revision, state, body: JSON.stringify(answer) })
        .onConflict(['tss_id', 'id'])
        .merge();
      return answer;
    });
  });
}

async function isOffline(db: Knex): Promise<boolean> {
  const row = await db('fiscal_sandbox_state').where({ id: true }).first<{ offline: boolean } | undefined>('offline');
  return Boolean(row?.offline);
}

/** The simulator as middleware, in front of the API's authentication (it checks its own tokens). */
export function fiscalSandbox(db: Knex): Middleware {
  const router = new Router({ prefix: '/fiscal-sandbox' });
  mount(router, db);
  router.post('/offline', async (ctx) => {
    await requireApiKey(db, ctx);
    const body = await readJson(ctx);
    await db('fiscal_sandbox_state')
      .insert({ id: true, offline: body.offline === true })
      .onConflict('id')
      .merge();
    ctx.body = { offline: body.offline === true };
  });
  router.post('/faults', async (ctx) => {
    await requireApiKey(db, ctx);
    const body = await readJson(ctx);
    const kind = body.kind;
    const method = typeof body.method === 'string' ? body.method.toUpperCase() : '*';
    const resource = typeof body.resource === 'string' ? body.resource : '*';
    const times = body.times === undefined ? 1 : Number(body.times);
    if (kind !== 'status' && kind !== 'slow' && kind !== 'timeout')
      throw new SimulatorError(400, 'E_FAULT', 'kind must be status, slow or timeout.');
    if (!['*', ...resources].includes(resource))
      throw new SimulatorError(400, 'E_FAULT', `resource must be one of *, ${resources.join(', ')}.`);
    if (!Number.isInteger(times) || times < 1 || times > 1000)
      throw new SimulatorError(400, 'E_FAULT', 'times must be a whole number from 1 to 1000.');
    const status = kind === 'status' ? Number(body.status) : null;
    if (status !== null && (!Number.isInteger(status) || status < 400 || status > 599))
      throw new SimulatorError(400, 'E_FAULT', 'status must be an HTTP error status (400 to 599).');
    const delayMs = kind === 'slow' ? Number(body.delayMs) : 0;
    if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > 120_000)
      throw new SimulatorError(400, 'E_FAULT', 'delayMs must be a whole number of milliseconds up to 120000.');
    await db('fiscal_sandbox_faults').insert({
      method,
      path: resource,
      kind,
      status,
      delay_ms: delayMs,
      remaining: times,
    });
    ctx.status = 201;
    ctx.body = { method, resource, kind, status, delayMs, times };
  });
  router.delete('/faults', async (ctx) => {
    await requireApiKey(db, ctx);
    await db('fiscal_sandbox_faults').delete();
    ctx.status = 204;
  });
  const routes = router.routes() as unknown as Middleware;
  const austria = rksvSimulator(db);
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/fiscal-sandbox/')) {
      await next();
      return;
    }
    if (!fromThisMachine(ctx)) {
      ctx.status = 404;
      ctx.body = 'Not found';
      return;
    }
    if (ctx.path.startsWith('/fiscal-sandbox/api/') && (await isOffline(db))) {
      // As a TSE (or signature device) that is switched off: no answer at all.
      ctx.req.socket.destroy();
      ctx.respond = false;
      return;
    }
    const fault = ctx.path.startsWith(`${simulatorPath}/`) ? await takeFault(db, ctx) : undefined;
    if (fault?.kind === 'status') {
      ctx.status = fault.status!;
      if (fault.status === 429) ctx.set('Retry-After', '0');
      ctx.body = {
        status_code: fault.status,
        error: 'E_SIMULATED',
        code: 'E_SIMULATED',
        message: 'A fault the simulator was told to answer.',
      };
      return;
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delay_ms));
    await answeringRefusals(ctx, async () => {
      await austria(ctx, async () => {
        await routes(ctx, () => {
          ctx.status = 404;
          ctx.body = { status_code: 404, error: 'Not Found', code: 'E_NOT_FOUND', message: 'No such route.' };
          return Promise.resolve();
        });
      });
    });
    if (fault?.kind === 'timeout') {
      // Done, but the answer never comes: held until the caller gives up and closes the connection.
      await untilClosed(ctx);
      ctx.respond = false;
    }
  };
}

const resources = ['auth', 'tss', 'admin', 'client', 'tx'] as const;

/** What a call of the simulated API is about: /auth, /tss/{id}, /tss/{id}/admin…, …/client/…, …/tx/…. */
function resourceOf(path: string): string {
  const rest = path.slice(simulatorPath.length).split('/').filter(Boolean);
  if (rest[0] === 'auth') return 'auth';
  if (rest[0] !== 'tss') return '';
  return rest.length <= 2
    ? 'tss'
    : rest[2] === 'admin'
      ? 'admin'
      : rest[2] === 'client'
        ? 'client'
        : rest[2] === 'tx'
          ? 'tx'
          : '';
}

interface FaultRow {
  kind: 'status' | 'slow' | 'timeout';
  status: number | null;
  delay_ms: number;
}

/** The first fault told for this call, counted down once. */
async function takeFault(db: Knex, ctx: Context): Promise<FaultRow | undefined> {
  const resource = resourceOf(ctx.path);
  const { rows } = await db.raw<{ rows: FaultRow[] }>(
    `update fiscal_sandbox_faults set remaining = remaining - 1
      where id = (select id from fiscal_sandbox_faults
                   where remaining > 0 and method in ('*', ?) and path in ('*', ?)
                   order by id limit 1 for update)
      returning kind, status, delay_ms`,
    [ctx.method, resource],
  );
  return rows[0];
}

/** Resolves when the caller closed the connection (or after two minutes, as a TSE's own limit). */
function untilClosed(ctx: Context): Promise<void> {
  return new Promise((resolve) => {
    const socket = ctx.req.socket;
    if (socket.destroyed) return resolve();
    const timer = setTimeout(done, 120_000);
    timer.unref();
    function done() {
      clearTimeout(timer);
      socket.off('close', done);
      resolve();
    }
    socket.once('close', done);
  });
}
