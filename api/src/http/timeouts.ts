import http, { type Server } from 'node:http';
import type { Middleware } from 'koa';
import { log } from '../log.ts';
import { HttpError } from './errors.ts';

/**
 * The HTTP server with limits on a client's connection, against clients that send slowly on purpose
 * (slowloris) and hold sockets open: headers within 20 s, the whole request (an upload on weak mobile
 * data) within 60 s. Node checks those limits only every `connectionsCheckingInterval` (30 s unless
 * told), which let slow senders stay 50 s; checked every second they go on time. At most
 * `maxConnections` sockets are open at once; beyond that new ones are closed at once, so that a flood
 * of sockets runs into the cap instead of the process's file descriptors.
 * Idle keep-alive connections stay open longer than a load balancer's usual 60 s, so the balancer,
 * not this process, closes them: otherwise it may send a request on a socket we are just closing.
 */
export function createShopServer(
  callback: http.RequestListener,
  { maxConnections, headersTimeoutMs = 20_000 }: { maxConnections: number; headersTimeoutMs?: number },
): Server {
  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(60_000, headersTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
    callback,
  );
  server.keepAliveTimeout = 65_000;
  server.maxConnections = maxConnections;
  return server;
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
    work.catch((error: unknown) =>
      log.warn('a request failed after its deadline', {
        requestId: ctx.state.requestId,
        error: String((error as Error)?.message ?? error),
      }),
    );
    throw new HttpError(503, 'The server took too long to answer. Please try again in a moment.');
  };
}
