import type { Server } from 'node:http';
import type { Middleware } from 'koa';
import { log } from '../log.ts';
import { HttpError } from './errors.ts';

/**
 * Limits on a client's connection, against clients that send slowly on purpose (slowloris) and hold
 * sockets open: headers within 20 s, the whole request (an upload on weak mobile data) within 60 s.
 * Idle keep-alive connections stay open longer than a load balancer's usual 60 s, so the balancer,
 * not this process, closes them: otherwise it may send a request on a socket we are just closing.
 */
export function applyServerTimeouts(server: Server): void {
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
}

/**
 * A request that is not answered within `seconds` (a hung database or Stripe call) gets 503 with a
 * message instead of a spinner until the browser gives up. The work itself cannot be stopped; it
 * ends on its own, and what it fails with then is only logged.
 */
export function requestDeadline(seconds: number): Middleware {
  return async (ctx, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), seconds * 1000)));
    const work = next();
    try {
      if ((await Promise.race([work, expired])) !== 'expired') return;
    } finally {
      clearTimeout(timer);
    }
    work.catch((error: unknown) => log.warn('a request failed after its deadline', { requestId: ctx.state.requestId, error: String((error as Error)?.message ?? error) }));
    throw new HttpError(503, 'The server took too long to answer. Please try again in a moment.');
  };
}
