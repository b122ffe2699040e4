import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import type { Config } from '../../api/src/foundations/config.ts';
import { stopSandboxDeliveries } from '../../api/src/stripe/sandbox/webhooks.ts';
import type { ApiTest } from './env.ts';

export interface ListeningShop {
  /** http://127.0.0.1:<port>, also the app's PUBLIC_URL. */
  url: string;
  config: Config;
  http: supertest.Agent;
  /** Resolves once no request is in flight here: each one answered, or closed by its client. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app on a real loopback port, on the suite's database, for flows that need real HTTP between
 * parts of the product: the Stripe SDK calling the sandbox, the sandbox calling our webhook, a
 * browser following the login redirects. PUBLIC_URL is the listening address.
 */
export async function listenShop(
  t: ApiTest,
  overrides: (config: Config) => Partial<Config> = () => ({}),
): Promise<ListeningShop> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const base: Config = { ...t.config, port, publicUrl: url };
  const config: Config = { ...base, ...overrides(base) };
  const handle = buildApp({ db: t.db, config }).callback();
  let inFlight = 0;
  const whenIdle: (() => void)[] = [];
  server.on('request', (req, res) => {
    inFlight++;
    // Before the app's own listeners: what a request's close sets off in the app (a waiting receipt
    // ending its wait) has happened by the time a caller of idle() goes on.
    res.once('close', () => {
      if (--inFlight === 0) for (const resolve of whenIdle.splice(0)) resolve();
    });
    void handle(req, res);
  });
  return {
    url,
    config,
    // As the suites' client (env.ts): English messages.
    http: supertest.agent(url).set('Accept-Language', 'en'),
    idle: () => (inFlight ? new Promise<void>((resolve) => whenIdle.push(resolve)) : Promise.resolve()),
    // Like a stopped server, it sends no more sandbox webhooks: a retry of its own, due later, would
    // otherwise take the next suite's deliveries to this closed address.
    close: () =>
      new Promise((resolve) => {
        stopSandboxDeliveries(config);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
