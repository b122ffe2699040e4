import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the proxy treats the next requests: `pass` forwards them; `fail` answers 500 the way Stripe
 * does when it has a bad moment; `limit` answers 429 as Stripe's rate limiter does; `hang` forwards
 * them (the work is done upstream) and never answers, so the caller's timeout decides, as when the
 * answer is lost on the network.
 */
export type FaultMode = 'pass' | 'fail' | 'limit' | 'hang';

/** The answers of `fail` and `limit`, as Stripe words them. */
const faultAnswers = {
  fail: { status: 500, error: { type: 'api_error', message: 'An unknown error occurred (fault proxy).' } },
  limit: {
    status: 429,
    error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' },
  },
};

export interface HttpFaultProxy {
  url: string;
  /** Where requests are forwarded; may be set once the upstream's address is known. */
  target: string;
  mode: FaultMode;
  /** The requests (by method and path) that get `mode`; every request when unset. The others pass. */
  only?: (request: string) => boolean;
  /** How many more requests get `mode` before the proxy passes them again; no end when unset. */
  faults?: number;
  /** Requests received, by method and path (e.g. "POST /v1/checkout/sessions"). */
  readonly seen: string[];
  /** The `Idempotency-Key` of each request that carried one, in the order they arrived. */
  readonly idempotencyKeys: string[];
  close(): Promise<void>;
}

export async function startHttpFaultProxy(target = ''): Promise<HttpFaultProxy> {
  const seen: string[] = [];
  const idempotencyKeys: string[] = [];
  const server = http.createServer((req, res) => {
    const request = `${req.method} ${req.url?.split('?')[0]}`;
    seen.push(request);
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string') idempotencyKeys.push(key);
    const faulted = proxy.mode !== 'pass' && (proxy.only?.(request) ?? true) && (proxy.faults ?? 1) > 0;
    const mode = faulted ? proxy.mode : 'pass';
    if (faulted && proxy.faults !== undefined) proxy.faults--;
    if (mode === 'fail' || mode === 'limit') {
      const { status, error } = faultAnswers[mode];
      req.resume();
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error }));
      return;
    }
    const hang = mode === 'hang';
    const upstream = http.request(
      new URL(req.url ?? '/', proxy.target),
      { method: req.method, headers: req.headers },
      (answer) => {
        if (hang) {
          answer.resume();
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: HttpFaultProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target,
    mode: 'pass',
    seen,
    idempotencyKeys,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
