import type { Knex } from 'knex';
import type { Context } from 'koa';
import { simulatorCredentials } from './keys.ts';
import { validToken } from './tss.ts';

// What both simulators (fiskaly SIGN DE v2 in ./index.ts, SIGN AT in ./rksv.ts) do with a request
// around their own rules: read its JSON body and its ids, check its bearer, and answer a refusal with
// fiskaly's error body ({ status_code, error, code, message }), as both services answer one.

export type Json = Record<string, unknown>;

/** A refusal of the simulated service: its HTTP status and fiskaly's error code. */
export class SimulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The most a request body may hold: the largest the adapters send is a receipt of a few lines. */
const maxBodyBytes = 64 * 1024;

/** The request's body as a JSON object ({} when empty); anything else, or too much, is refused. */
export async function readJson(ctx: Context): Promise<Json> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new SimulatorError(413, 'E_BODY_TOO_LARGE', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  } catch {
    // answered below
  }
  throw new SimulatorError(400, 'E_JSON', 'The request body must be a JSON object.');
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The path's id `name`, a UUID as fiskaly's ids are (in lower case). */
export function uuidParam(ctx: Context, name: string): string {
  const value = String((ctx as Context & { params: Record<string, string> }).params[name] ?? '').toLowerCase();
  if (!uuid.test(value)) throw new SimulatorError(400, 'E_ID', `${name} must be a UUID.`);
  return value;
}

/** A call of the simulated API: its bearer is a token that POST …/auth gave out. */
export async function requireToken(db: Knex, ctx: Context): Promise<void> {
  const { apiSecret } = await simulatorCredentials(db);
  const token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
  if (!validToken(apiSecret, token)) throw new SimulatorError(401, 'E_UNAUTHORIZED', 'Missing or invalid token.');
}

/** A call of a simulator's switches (offline, faults, a failing unit): its bearer is the API key itself. */
export async function requireApiKey(db: Knex, ctx: Context): Promise<void> {
  const { apiKey } = await simulatorCredentials(db);
  if (ctx.get('authorization') !== `Bearer ${apiKey}`)
    throw new SimulatorError(401, 'E_UNAUTHORIZED', 'The API key is needed.');
}

/** Runs `inner` and answers a SimulatorError it throws with fiskaly's error body; anything else goes on up. */
export async function answeringRefusals(ctx: Context, inner: () => Promise<void>): Promise<void> {
  try {
    await inner();
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error;
    ctx.status = error.status;
    ctx.body = { status_code: error.status, error: error.code, code: error.code, message: error.message };
  }
}
