import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A load balancer in front of several API processes, as production runs them: every HTTP request
// (not every connection: clients keep connections alive) goes to the next process in turn. It keeps
// a log of what it forwarded, so a test can count what reached the processes, Stripe calls included.

export interface Forwarded {
  method: string;
  /** Path and query as requested. */
  url: string;
  /** Index of the process that answered. */
  backend: number;
  status: number;
}

export interface Balancer {
  /** http://127.0.0.1:<port>, the PUBLIC_URL of every process behind it. */
  url: string;
  /** Every request forwarded so far, in the order the answers began. */
  forwarded: Forwarded[];
  close(): Promise<void>;
}

/** Starts the balancer on a free loopback port; `backends` are the processes' base URLs. */
export async function startBalancer(backends: string[]): Promise<Balancer> {
  const forwarded: Forwarded[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const backend = next++ % backends.length;
    const target = new URL(req.url ?? '/', backends[backend]);
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      forwarded.push({ method: req.method ?? 'GET', url: req.url ?? '/', backend, status: answer.statusCode ?? 0 });
      // Raw headers keep repeated ones (several Set-Cookie) as they were sent.
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      res
        .writeHead(502, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ message: 'The API process cannot be reached.' }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
