import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { isDatabaseUnreachable, pgCode, withoutPassword } from '../db.ts';
import {
  CounterError,
  CreditNotZero,
  LedgerError,
  NothingToPayOut,
  PayoutAlreadyReversed,
  PayoutNotFound,
  StaleAmount,
} from '../ledger/errors.ts';
import { isDiskFull, noteDiskFull, noteWriteSucceeded } from '../db-space.ts';
import { log } from '../log.ts';
import { centsToDecimal } from './csv.ts';
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
  // The cash book guard (migration 014): a closed day is final, movements are never edited.
  CB001: [
    409,
    'The cash book refuses this: the day is closed or the movement is booked. Book a correction on an open day.',
  ],
};

const euros = (cents: number) => `${centsToDecimal(cents)} €`;

const counterStatus: Record<CounterError['refusal'], number> = { invalid: 400, unknown: 404, conflict: 409 };

interface Refusal {
  status: number;
  body: { message: string; errors?: FieldErrors; currentAmount?: number; [figure: string]: unknown };
}

/** The answer to a refusal of the money rules: their errors know nothing of HTTP, this says it. */
export function ledgerRefusal(error: LedgerError): Refusal {
  if (error instanceof NothingToPayOut) {
    const errors = { vendor: 'This vendor has no credit to pay out.' };
    return { status: 409, body: { message: 'No credits to pay out', errors } };
  }
  if (error instanceof StaleAmount) {
    const now = euros(error.currentAmount);
    return {
      status: 409,
      body: {
        message:
          `The credit has changed in the meantime: it is now ${now}. ` + 'Please check the amount and pay out again.',
        errors: { expectedAmount: `The credit is now ${now}.` },
        // The figure that is open now, so the payout page can show it for a new confirmation.
        currentAmount: error.currentAmount,
      },
    };
  }
  if (error instanceof PayoutNotFound) {
    return { status: 404, body: { message: `There is no payout with the id ${error.payoutId}.` } };
  }
  if (error instanceof PayoutAlreadyReversed) {
    return { status: 409, body: { message: 'This payout has already been reversed.' } };
  }
  if (error instanceof CounterError) {
    // The counter's refusals (ledger/till.ts, ledger/counter.ts), with the figures the screen shows again.
    const status = counterStatus[error.refusal];
    return {
      status,
      body: { message: error.message, ...(error.errors ? { errors: error.errors } : {}), ...error.details },
    };
  }
  if (error instanceof CreditNotZero) {
    const message =
      `This vendor cannot be deleted: the credit is not zero (${euros(error.credit)}). ` +
      'Please pay it out or settle the debt first.';
    return { status: 409, body: { message } };
  }
  return { status: 409, body: { message: 'This vendor has been deleted; no money can be booked for them.' } };
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
      const error = raw as KoaLikeError;
      const code = pgCode(raw);
      if (raw instanceof HttpError) {
        ctx.status = raw.status;
        ctx.set(raw.headers);
        ctx.body = raw.errors ? { message: raw.message, errors: raw.errors } : { message: raw.message };
      } else if (raw instanceof LedgerError) {
        const { status, body } = ledgerRefusal(raw);
        ctx.status = status;
        ctx.body = body;
      } else if (isDiskFull(raw)) {
        // Nothing can be saved until someone makes room; what was saved is safe. The log has one line
        // when it begins (db-space.ts), the access log one per request.
        noteDiskFull(raw);
        ctx.status = 503;
        ctx.set('Retry-After', String(diskFullRetrySeconds));
        ctx.body = {
          message:
            'The shop cannot save anything right now because its storage is full. Nothing was lost. ' +
            'Please try again in a few minutes.',
        };
      } else if (isDatabaseUnreachable(raw)) {
        // Not our fault and not the caller's: the answer says so and when to try again. One line in
        // the log per request, without a stack (pg's messages name hosts, never the password).
        ctx.status = 503;
        ctx.set('Retry-After', String(databaseRetrySeconds));
        ctx.body = { message: 'The database cannot be reached right now. Please try again in a moment.' };
        log.warn('database unreachable', {
          requestId,
          method: ctx.method,
          path: loggablePath(ctx.path),
          error: withoutPassword(String(error.message ?? raw)),
          code,
        });
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
        log.error('request failed', {
          requestId,
          method: ctx.method,
          path: loggablePath(ctx.path),
          error: withoutPassword(String((raw as Error)?.stack ?? raw)),
        });
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
