import http, { type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Middleware } from 'koa';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import { connectionBucket } from './client-address.ts';
import { HttpError } from './errors.ts';

type ServerLimits = Pick<Config, 'maxConnections' | 'maxConnectionsPerAddress' | 'trustProxy' | 'ipv6Prefix'> & {
  headersTimeoutMs?: number;
};

/**
 * The HTTP server with limits on a client's connection, against clients that send slowly on purpose
 * (slowloris) and hold sockets open: headers within 20 s, the whole request (an upload on weak mobile
 * data) within 60 s. Node checks those limits only every `connectionsCheckingInterval` (30 s unless
 * told), which let slow senders stay 50 s; checked every second they go on time. At most
 * `maxConnections` sockets are open at once; beyond that new ones are closed at once, so that a flood
 * of sockets runs into the cap instead of the process's file descriptors. One client address (IPv6
 * by its prefix) holds at most `maxConnectionsPerAddress` of them, so that one client's flood leaves
 * room for everyone else; a trusted proxy, which brings everyone's requests, is not counted.
 * Behind a trusted proxy, idle keep-alive connections stay open longer than a load balancer's usual
 * 60 s, so the balancer, not this process, closes them: otherwise it may send a request on a socket
 * we are just closing. Without one, every idle connection is a client's own and holds a place in the
 * table, so it is closed after 5 s (Node's default); a browser that comes back later opens a new one.
 */
export function createShopServer(
  callback: http.RequestListener,
  { headersTimeoutMs = 20_000, ...limits }: ServerLimits,
): Server {
  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(60_000, headersTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
    callback,
  );
  server.keepAliveTimeout = limits.trustProxy.length > 0 ? 65_000 : 5_000;
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const bucket = connectionBucket(socket.remoteAddress ?? '', limits);
    if (bucket === undefined) return;
    const count = open.get(bucket) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) return void socket.destroy();
    open.set(bucket, count + 1);
    socket.once('close', () => {
      const left = (open.get(bucket) ?? 1) - 1;
      if (left > 0) open.set(bucket, left);
      else open.delete(bucket);
    });
  });
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
