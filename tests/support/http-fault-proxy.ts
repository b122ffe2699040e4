import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the proxy treats the next requests: `pass` forwards them; `fail` answers 500 the way Stripe
 * does when it has a bad moment; `hang` forwards them (the work is done upstream) and never answers,
 * so the caller's timeout decides, as when the answer is lost on the network.
 */
export type FaultMode = 'pass' | 'fail' | 'hang';

export interface HttpFaultProxy {
  url: string;
  /** Where requests are forwarded; may be set once the upstream's address is known. */
  target: string;
  mode: FaultMode;
  /** Requests received, by method and path (e.g. "POST /v1/checkout/sessions"). */
  readonly seen: string[];
  close(): Promise<void>;
}

export async function startHttpFaultProxy(target = ''): Promise<HttpFaultProxy> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url?.split('?')[0]}`);
    if (proxy.mode === 'fail') {
      req.resume();
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred (fault proxy).' } }));
      return;
    }
    const hang = proxy.mode === 'hang';
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
