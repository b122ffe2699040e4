import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { isDatabaseUnreachable, isTransactionConflict, pgCode, withoutPassword, type Db } from '../db/connection.ts';
import { DomainError, TooManyRequests, type FieldErrors, type RefusalKind } from '../foundations/errors.ts';
import { isDiskFull, noteDiskFull, noteWriteSucceeded } from '../db/space.ts';
import { log } from '../foundations/log.ts';
import { languageOf, namesMoney, translate, type Language, type Text } from '../language/messages.ts';
import { isMachinePath } from './paths.ts';
import type { AppDeps } from './context.ts';

export type { FieldErrors };

/** An error whose message is meant for the person in front of the screen. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: Text,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(text));
  }
}

export const badRequest = (message: Text, errors?: FieldErrors) => new HttpError(400, message, errors);
export const notFound = (message: Text = 'Not found.') => new HttpError(404, message);
export const conflict = (message: Text, errors?: FieldErrors) => new HttpError(409, message, errors);

// Constraint violations that slipped past validation still describe bad input, not a server fault.
const pgClientErrors: Record<string, [number, Text]> = {
  '23505': [409, 'This entry already exists.'],
  '23503': [409, 'This entry refers to something that does not exist or is still in use.'],
  '23514': [400, 'A value is not allowed.'],
  '23502': [400, 'A required value is missing.'],
  '22001': [400, 'A value is too long.'],
  '22003': [400, 'A number is out of range.'],
  '22007': [400, 'A date is not valid.'],
  '22008': [400, 'A date is out of range.'],
  '22P02': [400, 'A value has the wrong format.'],
  '22021': [400, 'A value holds characters that cannot be stored.'],
  '22P05': [400, 'A value holds characters that cannot be stored.'],
  // The ledger guard (migration 009): booked money is corrected by a new booking, never edited.
  LG001: [409, 'This booking cannot be changed; book a correction instead.'],
  // The cash book guard (migrations 014, 028): a closed period is final, movements are never edited.
  CB001: [
    409,
    'The cash book refuses this: the period is closed or the movement is booked. Book a correction as a new movement.',
  ],
};

/** The one place where a kind of refusal becomes a status. */
const refusalStatus: Record<RefusalKind, number> = {
  invalid: 400,
  forbidden: 403,
  unknown: 404,
  conflict: 409,
  too_many: 429,
  service_failed: 502,
};

interface Refusal {
  status: number;
  body: { message: Text; errors?: FieldErrors; currentAmount?: number; [figure: string]: unknown };
}

/** The answer to a domain's refusal (api/src/foundations/errors.ts): its kind says the status. */
export function domainRefusal(error: DomainError): Refusal & { headers?: Record<string, string> } {
  return {
    status: refusalStatus[error.refusal],
    body: { message: error.text, ...(error.errors ? { errors: error.errors } : {}), ...error.details },
    ...(error instanceof TooManyRequests
      ? { headers: { 'Retry-After': String(Math.max(1, error.retryAfterSeconds)) } }
      : {}),
  };
}

/** What Retry-After suggests while the database is away: long enough for a restart or a failover to begin. */
const databaseRetrySeconds = 5;
/** What Retry-After suggests while the database's disk is full: someone has to make room first. */
const diskFullRetrySeconds = 30;

interface KoaLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
  code?: string;
}

/** PDF download links and receipt tokens are the customer's secrets: the log keeps the path but not them. */
const loggablePath = (path: string) =>
  path.replace(/^(\/(?:api\/)?pdf\/)[^/]+/, '$1…').replace(/^(\/api\/orders\/)[A-Za-z0-9_-]{43}(?=\/|$)/, '$1…');

const translateFields = (errors: FieldErrors, language: Language, currency: string) =>
  Object.fromEntries(Object.entries(errors).map(([field, text]) => [field, translate(text, language, currency)]));

/**
 * The installation's currency, read only for a refusal that names an amount; the euro when the
 * database cannot answer (that refusal is then about the database, not about money).
 */
async function currencyFor(db: Db, texts: Text[]): Promise<string> {
  if (!texts.some(namesMoney)) return 'EUR';
  try {
    const row = await db('settings').where({ id: 1 }).first<{ currency: string } | undefined>('currency');
    return row?.currency ?? 'EUR';
  } catch {
    return 'EUR';
  }
}

/**
 * A refusal's sentence for a reader of `language`, its amounts in the installation's currency, for a
 * page that shows a refusal itself instead of answering it (the shop's form without the script).
 */
export async function refusalText(db: Db, text: Text, language: Language): Promise<string> {
  return translate(text, language, await currencyFor(db, [text]));
}

/** What a failed request answers, still in message ids: status, body and extra headers. */
function refusalFor(raw: unknown, ctx: Context, requestId: string): Refusal & { headers?: Record<string, string> } {
  const error = raw as KoaLikeError;
  const code = pgCode(raw);
  if (raw instanceof HttpError) {
    const body = raw.errors ? { message: raw.text, errors: raw.errors } : { message: raw.text };
    return { status: raw.status, body, headers: raw.headers };
  }
  if (raw instanceof DomainError) return domainRefusal(raw);
  if (isDiskFull(raw)) {
    // Nothing can be saved until someone makes room; what was saved is safe. The log has one line
    // when it begins (db/space.ts), the access log one per request.
    noteDiskFull(raw);
    return {
      status: 503,
      headers: { 'Retry-After': String(diskFullRetrySeconds) },
      body: {
        message:
          'The shop cannot save anything right now because its storage is full. Nothing was lost. Please try again in a few minutes.',
      },
    };
  }
  if (isDatabaseUnreachable(raw)) {
    // Not our fault and not the caller's: the answer says so and when to try again. One line in
    // the log per request, without a stack (pg's messages name hosts, never the password).
    log.warn('database unreachable', {
      requestId,
      method: ctx.method,
      path: loggablePath(ctx.path),
      error: withoutPassword(String(error.message ?? raw)),
      code,
    });
    return {
      status: 503,
      headers: { 'Retry-After': String(databaseRetrySeconds) },
      body: { message: 'The database cannot be reached right now. Please try again in a moment.' },
    };
  }
  if (isTransactionConflict(raw)) {
    // PostgreSQL undid the transaction to break a deadlock (an audited route's ran twice, see
    // protocol/middleware.ts): nothing was saved, and the same request may well go through now. The
    // log keeps it as a sign of locks taken in different orders.
    log.warn('transaction conflict', { requestId, method: ctx.method, path: loggablePath(ctx.path), code });
    return {
      status: 409,
      body: {
        message: 'Something else was booked or changed at the same moment; nothing was saved. Please try again.',
      },
    };
  }
  if (code && pgClientErrors[code]) {
    const [status, message] = pgClientErrors[code];
    return { status, body: { message } };
  }
  if (error.expose && error.status && error.status < 500) {
    // A library's own refusal (Koa, the router): its English text is no id of ours, so the caller
    // reads our sentence for its status.
    return {
      status: error.status,
      body: { message: statusMessages[error.status] ?? 'The request could not be handled.' },
    };
  }
  log.error('request failed', {
    requestId,
    method: ctx.method,
    path: loggablePath(ctx.path),
    error: withoutPassword(String((raw as Error)?.stack ?? raw)),
  });
  return { status: 500, body: { message: 'An error occurred. Please try again later.', requestId } };
}

const statusMessages: Record<number, Text> = {
  400: 'The request could not be read.',
  401: 'Please log in.',
  403: 'You are not allowed to do this.',
  404: 'Not found.',
  405: 'This method is not allowed here.',
  413: 'The request is too large.',
  415: 'This kind of data is not accepted here.',
};

/** Request id, access log and the JSON error contract of architecture.md. */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    const requestId = randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null && isMachinePath(ctx.path)) {
        throw notFound('There is no such endpoint.');
      }
      if (ctx.status === 405 && ctx.body == null) {
        throw new HttpError(405, 'This method is not allowed here.', undefined, { Allow: ctx.response.get('Allow') });
      }
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.status < 400) noteWriteSucceeded();
    } catch (raw) {
      const { status, body, headers } = refusalFor(raw, ctx, requestId);
      // The one place where what the caller reads is put into their language.
      const language = languageOf(ctx.get('Accept-Language'));
      ctx.status = status;
      ctx.set(headers ?? {});
      ctx.vary('Accept-Language');
      const currency = await currencyFor((ctx as unknown as AppDeps).db, [
        body.message,
        ...Object.values(body.errors ?? {}),
      ]);
      ctx.body = {
        ...body,
        message: translate(body.message, language, currency),
        ...(body.errors ? { errors: translateFields(body.errors, language, currency) } : {}),
      };
    } finally {
      log.info('request', {
        requestId,
        method: ctx.method,
        path: loggablePath(ctx.path),
        status: ctx.status,
        ms: Math.round(performance.now() - started),
      });
    }
  };
}
