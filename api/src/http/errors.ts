import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { isDatabaseUnreachable, pgCode, withoutPassword } from '../db.ts';
import { CounterError } from '../ledger/till.ts';
import { log } from '../log.ts';
import { isMachinePath } from './paths.ts';

export type FieldErrors = Record<string, string>;

/** An error whose message is meant for the person in front of the screen. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new HttpError(400, message, errors);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string, errors?: FieldErrors) => new HttpError(409, message, errors);

// Constraint violations that slipped past validation still describe bad input, not a server fault.
const pgClientErrors: Record<string, [number, string]> = {
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
  // The cash book guard (migration 011): a closed day is final, movements are never edited.
  CB001: [409, 'The cash book refuses this: the day is closed or the movement is booked. Book a correction on an open day.'],
};

/** What Retry-After suggests while the database is away: long enough for a restart or a failover to begin. */
const databaseRetrySeconds = 5;

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
    } catch (raw) {
      const error = raw as KoaLikeError;
      const code = pgCode(raw);
      if (raw instanceof HttpError) {
        ctx.status = raw.status;
        ctx.set(raw.headers);
        ctx.body = raw.errors ? { message: raw.message, errors: raw.errors } : { message: raw.message };
      } else if (raw instanceof CounterError) {
        // The counter's refusals (ledger/till.ts, ledger/counter.ts), with the figures the screen shows again.
        ctx.status = raw.status;
        ctx.body = { message: raw.message, ...(raw.errors ? { errors: raw.errors } : {}), ...raw.details };
      } else if (isDatabaseUnreachable(raw)) {
        // Not our fault and not the caller's: the answer says so and when to try again. One line in
        // the log per request, without a stack (pg's messages name hosts, never the password).
        ctx.status = 503;
        ctx.set('Retry-After', String(databaseRetrySeconds));
        ctx.body = { message: 'The database cannot be reached right now. Please try again in a moment.' };
        log.warn('database unreachable', { requestId, method: ctx.method, path: loggablePath(ctx.path), error: withoutPassword(String(error.message ?? raw)), code });
      } else if (code && pgClientErrors[code]) {
        const [status, message] = pgClientErrors[code];
        ctx.status = status;
        ctx.body = { message };
      } else if (error.expose && error.status && error.status < 500) {
        ctx.status = error.status;
        ctx.body = { message: error.message };
      } else {
        ctx.status = 500;
        ctx.body = { message: 'An error occurred. Please try again later.', requestId };
        log.error('request failed', { requestId, method: ctx.method, path: loggablePath(ctx.path), error: withoutPassword(String((raw as Error)?.stack ?? raw)) });
      }
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
