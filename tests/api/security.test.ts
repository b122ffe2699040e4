import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/foundations/config.ts';
import { limits } from '../../api/src/http/body.ts';
import { connectionBucket } from '../../api/src/http/client-address.ts';
import type { RouteDef } from '../../api/src/http/routes.ts';
import { tileSource } from '../../api/src/http/security.ts';
import { createShopServer } from '../../api/src/http/timeouts.ts';
import { allowingRibbon } from '../../api/src/web/ribbon.ts';
import { describeApi } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';
import { itemId } from '../support/orders.ts';
import { authorizeUrl, Browser, pkce } from '../support/oidc-flow.ts';
import { listenShop } from '../support/shop-server.ts';

// What a browser is told about each answer: which sources a page may load, who may frame it, that
// types are not guessed, how much of the address leaves with a link, and that HTTPS is to stay.

const newspaper = 'https://www.strassenblatt.example';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Map<string, string[]> {
  assert.ok(header, 'a Content-Security-Policy header');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

describeApi('security headers on every answer', (t) => {
  let app: supertest.Agent;
  let config: Config;
  before(() => {
    config = { ...t.config, embedOrigins: [newspaper], mapTileUrl: 'https://{s}.tiles.example.net/{z}/{x}/{y}.png' };
    app = supertest.agent(buildApp({ db: t.db, config }).callback()).set('Accept-Language', 'en');
  });

  it('gives API answers, errors included, a policy that loads and frames nothing', async () => {
    const answers: [string, supertest.Test, number][] = [
      ['settings', app.get('/api/settings/'), 200],
      ['no token', app.get('/api/vendors/'), 401],
      ['no endpoint', app.get('/api/no-such-endpoint'), 404],
      ['broken JSON', app.post('/api/orders/').set('Content-Type', 'application/json').send('{"vendor":'), 400],
      ['the sandbox’s API without its key', app.get('/v1/checkout/sessions/cs_unknown'), 401],
    ];
    for (const [what, request, status] of answers) {
      const res = await request;
      assert.equal(res.status, status, what);
      const csp = directives(res.headers['content-security-policy']);
      assert.deepEqual(csp.get('default-src'), ["'none'"], what);
      assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], what);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
    }
  });

  it('lets only the shop itself and EMBED_ORIGINS frame the shop, whose scripts come from the shop alone', async () => {
    for (const path of ['/v/DEMO-1', '/', '/success?order=x', '/no-such-page']) {
      const res = await app.get(path);
      const csp = directives(res.headers['content-security-policy']);
      assert.deepEqual(csp.get('frame-ancestors'), ["'self'", newspaper], path);
      // No eval; inline only the loader that asks for the script after the first paint, by its hash.
      const [self, ...hashes] = csp.get('script-src') ?? [];
      assert.equal(self, "'self'", path);
      assert.equal(hashes.length, 1, `${path}: one inline script allowed`);
      const inline = [...res.text.matchAll(/<script(?![^>]*(?:\ssrc=|application\/json))[^>]*>([^<]*)<\/script>/g)];
      for (const [, text] of inline)
        assert.equal(`'sha256-${createHash('sha256').update(text).digest('base64')}'`, hashes[0], path);
      // A page the server renders runs the loader instead of a module script; a receipt needs the script at once.
      assert.equal(inline.length, path.startsWith('/success') ? 0 : 1, path);
      assert.equal(/<script type="module"/.test(res.text), path.startsWith('/success'), `${path}: the module script`);
      assert.deepEqual(csp.get('object-src'), ["'none'"], path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
      // The receipt's address holds the order's token: it never leaves with a link.
      assert.equal(res.headers['referrer-policy'], 'no-referrer', path);
    }
    const script = await app.get('/widget.js');
    assert.equal(script.status, 200);
    assert.equal(script.headers['x-content-type-options'], 'nosniff');
    assert.ok(script.headers['content-security-policy']);
  });

  it('adds the websites of the settings to the shop page’s frame-ancestors, and drops them again', async () => {
    const office = await t.office();
    const other = 'https://verein.example.org';
    const saved = await withForm(t.http.put('/api/settings/').set('Authorization', office), { embedOrigins: other });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    try {
      assert.deepEqual(
        directives((await app.get('/v/DEMO-1')).headers['content-security-policy']).get('frame-ancestors'),
        ["'self'", newspaper, other],
      );
    } finally {
      await withForm(t.http.put('/api/settings/').set('Authorization', office), { embedOrigins: '' });
    }
    assert.deepEqual(
      directives((await app.get('/v/DEMO-1')).headers['content-security-policy']).get('frame-ancestors'),
      ["'self'", newspaper],
    );
  });

  it('lets nobody frame the back office and /me, and allows them their map tiles and the OpenID provider', async () => {
    const issuer = new URL(config.oidc.issuer!).origin;
    for (const path of ['/backoffice', '/backoffice/vendors/1', '/me', '/dashboard']) {
      const res = await app.get(path);
      assert.equal(res.status, 200, path);
      const csp = directives(res.headers['content-security-policy']);
      assert.deepEqual(csp.get('frame-ancestors'), ["'none'"], path);
      assert.deepEqual(csp.get('script-src'), ["'self'"], path);
      assert.ok(csp.get('img-src')!.includes('https://*.tiles.example.net'), path);
      assert.ok(csp.get('connect-src')!.includes(issuer), `${path}: tokens come from ${issuer}`);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin', path);
    }
  });

  it('takes the map tiles’ source from MAP_TILE_URL, placeholders and all', () => {
    assert.equal(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png'), 'https://tile.openstreetmap.org');
    assert.equal(tileSource('https://{s}.tile.example.org/{z}/{x}/{y}.png'), 'https://*.tile.example.org');
    assert.equal(tileSource('http://localhost:8080/tiles/{z}/{x}/{y}.png'), 'http://localhost:8080');
    assert.equal(tileSource('https://tiles-{s}.example.org/{z}/{x}/{y}.png'), 'https:');
  });

  it('keeps the own, stricter policies of the Stripe sandbox’s page and of stored files', async () => {
    const missing = await app.get('/stripe-sandbox/pay/cs_unknown');
    assert.equal(missing.status, 404);
    const csp = directives(missing.headers['content-security-policy']);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    assert.equal(missing.headers['x-content-type-options'], 'nosniff');
    const file = await app.get('/files/999999');
    assert.equal(file.status, 404);
    assert.deepEqual(directives(file.headers['content-security-policy']).get('default-src'), ["'none'"]);
  });

  it('sends HSTS only over HTTPS: PUBLIC_URL on https, or a trusted proxy saying so', async () => {
    const forwarded = (overrides: Partial<Config>) =>
      supertest(buildApp({ db: t.db, config: { ...config, ...overrides } }).callback())
        .get('/api/settings')
        .set('X-Forwarded-Proto', 'https');
    assert.equal((await app.get('/api/settings')).headers['strict-transport-security'], undefined, 'plain HTTP');
    assert.equal(
      (await forwarded({})).headers['strict-transport-security'],
      undefined,
      'anyone can write X-Forwarded-Proto',
    );
    assert.match(
      (await forwarded({ trustProxy: ['127.0.0.1', '::1'] })).headers['strict-transport-security'],
      /^max-age=\d{7,}/,
    );
    assert.match(
      (await forwarded({ publicUrl: 'https://shop.example.org' })).headers['strict-transport-security'],
      /^max-age=\d{7,}/,
    );
  });

  it('puts the headers on the embedded OpenID provider’s answers and its login page', async () => {
    const shop = await listenShop(t, (c) => ({ oidc: { ...c.oidc, issuer: undefined } }));
    try {
      const discovery = await shop.http.get('/oidc/.well-known/openid-configuration');
      assert.equal(discovery.status, 200);
      assert.deepEqual(directives(discovery.headers['content-security-policy']).get('frame-ancestors'), ["'none'"]);
      assert.equal(discovery.headers['x-content-type-options'], 'nosniff');

      const browser = new Browser(shop.url);
      const url = authorizeUrl(shop.url, {
        redirectUri: `${shop.url}/backoffice/auth-callback`,
        challenge: pkce().challenge,
      });
      const { response } = await browser.follow(await browser.request(url), () => false);
      assert.equal(response.status, 200);
      const csp = directives(response.headers.get('content-security-policy') ?? undefined);
      assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
      assert.match(csp.get('script-src')?.join(' ') ?? "'nonce-", /^'nonce-/, 'scripts only with the page’s nonce');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    } finally {
      await shop.close();
    }
  });

  it('lets the test-mode ribbon’s style into the login page, whose own styles go by nonce, and leaves other policies be', async () => {
    const shop = await listenShop(t, (c) => ({
      oidc: { ...c.oidc, issuer: undefined },
      stripe: { ...c.stripe, secretKey: undefined, sandbox: true },
    }));
    try {
      const browser = new Browser(shop.url);
      const url = authorizeUrl(shop.url, {
        redirectUri: `${shop.url}/backoffice/auth-callback`,
        challenge: pkce().challenge,
      });
      const { response } = await browser.follow(await browser.request(url), () => false);
      assert.equal(response.status, 200);
      const css = /<style>([^<]*)<\/style><div id="test-mode-ribbon"/.exec(await response.text())?.[1];
      assert.ok(css, 'the login page carries the ribbon');
      const styles = directives(response.headers.get('content-security-policy') ?? undefined).get('style-src') ?? [];
      assert.ok(styles.includes(`'sha256-${createHash('sha256').update(css).digest('base64')}'`), styles.join(' '));
      assert.match(styles.join(' '), /'nonce-/, 'the page’s own style still by its nonce');
      assert.ok(!styles.includes("'unsafe-inline'"));
      // A hash beside 'unsafe-inline' would switch it off, and with it the styles MUI writes in the
      // back office and the sandbox's card page: policies that take inline styles stay as they are.
      for (const policy of [
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'",
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
      ])
        assert.equal(allowingRibbon(policy), policy);
    } finally {
      await shop.close();
    }
  });
});

describeApi('request size and time limits', (t) => {
  it('refuses a JSON body over 256 KB with 413 and a message, and stores nothing', async () => {
    const before = (await t.db('orders').count({ n: '*' }))[0].n;
    const entries = [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }];
    const res = await t.http.post('/api/orders').send({ vendor: 'DEMO-1', entries, padding: 'x'.repeat(300 * 1024) });
    assert.equal(res.status, 413);
    assert.equal(res.body.message, `The request is too large; at most ${limits.json / 1024} KB are accepted.`);
    assert.equal((await t.db('orders').count({ n: '*' }))[0].n, before);
  });

  it('answers a route that takes no body without waiting for (or holding) the one a client announces', async () => {
    const handle = buildApp({ db: t.db, config: t.config }).callback();
    const server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // 50 MB announced, 1 KB sent: the answer comes before the rest, so nothing waits to buffer it.
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({
          port,
          host: '127.0.0.1',
          method: 'GET',
          path: '/api/settings',
          headers: { 'Content-Length': String(50 * 1024 * 1024) },
        });
        req.on('response', (res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write(Buffer.alloc(1024));
      });
      assert.equal(status, 200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe('a handler that hangs', () => {
    let release: () => void = () => undefined;
    const hanging: RouteDef = {
      method: 'GET',
      path: '/api/test/hang',
      access: 'public',
      handler: (ctx) =>
        new Promise<void>((resolve) => {
          release = () => {
            ctx.body = { late: true };
            resolve();
          };
        }),
    };
    after(() => release());

    it('is answered 503 with a message at REQUEST_TIMEOUT_SECONDS, and the app keeps serving', async () => {
      const app = supertest(
        buildApp({ db: t.db, config: { ...t.config, requestTimeoutSeconds: 1 }, routes: [hanging] }).callback(),
      );
      const res = await app.get('/api/test/hang').set('Accept-Language', 'en');
      assert.equal(res.status, 503);
      assert.equal(res.body.message, 'The server took too long to answer. Please try again in a moment.');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      release();
      assert.equal((await app.get('/api/no-such-endpoint')).status, 404, 'the next request is served');
    });
  });

  it('reads REQUEST_TIMEOUT_SECONDS, 30 by default', () => {
    assert.equal(loadConfig({}).requestTimeoutSeconds, 30);
    assert.equal(loadConfig({ REQUEST_TIMEOUT_SECONDS: '5' }).requestTimeoutSeconds, 5);
    assert.throws(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '0' }), /REQUEST_TIMEOUT_SECONDS must be a whole number/);
  });

  it('bounds how long a client may take to send headers and the request, and idles longer than a load balancer behind one', () => {
    const server = createShopServer(() => undefined, { ...t.config, trustProxy: ['10.0.0.0/8'] });
    assert.ok(
      server.headersTimeout > 0 && server.headersTimeout <= 30_000,
      `headers within ${server.headersTimeout} ms`,
    );
    assert.ok(
      server.requestTimeout > 0 && server.requestTimeout <= 120_000,
      `request within ${server.requestTimeout} ms`,
    );
    assert.ok(server.keepAliveTimeout > 60_000, 'longer than the 60 s idle timeout of common load balancers');
    const direct = createShopServer(() => undefined, { ...t.config, trustProxy: [] });
    assert.ok(direct.keepAliveTimeout <= 5000, 'without a proxy, an idle client holds its place for at most 5 s');
    assert.equal(server.maxConnections, 1000, 'MAX_CONNECTIONS is 1000 by default');
    assert.equal(loadConfig({ MAX_CONNECTIONS: '50' }).maxConnections, 50);
    assert.equal(loadConfig({}).maxConnectionsPerAddress, 50);
    assert.equal(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '10' }).maxConnectionsPerAddress, 10);
    assert.throws(
      () => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }),
      /MAX_CONNECTIONS_PER_ADDRESS must be a whole number/,
    );
  });

  /** A socket that sends the start of a request and never its end, and when it was closed. */
  const slowSender = (port: number) => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.on('error', () => undefined);
    socket.resume(); // read the 408, so that the server's end closes the socket
    socket.on('connect', () => socket.write('GET /api/settings/ HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    return { socket, closed };
  };

  it('drops slow senders at the header timeout, not up to 30 s later, and closes connections beyond the cap', async function () {
    this.timeout(20_000);
    const app = buildApp({ db: t.db, config: t.config });
    const handle = app.callback();
    const server = createShopServer((req, res) => void handle(req, res), {
      ...t.config,
      maxConnections: 300,
      // all 400 come from 127.0.0.1: this test is of the cap per process
      maxConnectionsPerAddress: 400,
      headersTimeoutMs: 2000,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const started = Date.now();
      const senders = Array.from({ length: 400 }, () => slowSender(port));
      const closedAt = await Promise.all(senders.map((s) => s.closed));
      const late = closedAt.filter((at) => at - started > 2000 + 2500);
      assert.deepEqual(late, [], `${late.length} of 400 slow senders stayed open past the header timeout`);
      const early = closedAt.filter((at) => at - started < 1500).length;
      assert.ok(early >= 100, `the ${early} connections beyond the cap of 300 are closed at once`);
      // And the server still answers.
      const res = await fetch(`http://127.0.0.1:${port}/api/settings/`);
      assert.equal(res.status, 200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe('connections per client address', () => {
    /** A shop server on a free loopback port; 127.0.0.2 reaches it too (all of 127.0.0.0/8 is loopback). */
    async function shopServer(config: Config) {
      const handle = buildApp({ db: t.db, config }).callback();
      const server = createShopServer((req, res) => void handle(req, res), config);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { server, port: (server.address() as AddressInfo).port };
    }

    /** `count` idle sockets from `from`, resolved once each is connected or already closed again. */
    async function idleSockets(port: number, from: string, count: number) {
      const sockets = Array.from({ length: count }, () => {
        const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
        socket.on('error', () => undefined);
        return socket;
      });
      await Promise.all(
        sockets.map((socket) => new Promise((resolve) => socket.once('connect', resolve).once('close', resolve))),
      );
      return sockets;
    }

    /** Waits until `done` or `ms` have passed; the caller's assertions then say what was missing. */
    async function waitFor(done: () => boolean | Promise<boolean>, ms: number) {
      for (const until = Date.now() + ms; !(await done()) && Date.now() < until;)
        await new Promise((resolve) => setTimeout(resolve, 20));
    }

    /** The connections the server holds now. */
    const held = (server: http.Server) =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );

    /** The status of a GET from the local address `from`, on a connection of its own. */
    const statusFrom = (port: number, from: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/api/settings/', localAddress: from, agent: false }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });

    const stop = async (server: http.Server, sockets: net.Socket[]) => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };

    it('keeps MAX_CONNECTIONS_PER_ADDRESS of 1,000 idle sockets from one address, and answers another address', async function () {
      this.timeout(30_000);
      const config: Config = { ...t.config, trustProxy: [] };
      const cap = config.maxConnectionsPerAddress;
      assert.ok(cap < config.maxConnections, `the cap per address (${cap}) is below the cap per process`);
      const { server, port } = await shopServer(config);
      let sockets: net.Socket[] = [];
      try {
        sockets = await idleSockets(port, '127.0.0.1', config.maxConnections);
        const open = () => sockets.filter((socket) => !socket.destroyed).length;
        await waitFor(() => open() <= cap, 5000);
        assert.equal(await statusFrom(port, '127.0.0.2'), 200, 'another address is served');
        assert.equal(open(), cap, `of ${sockets.length} sockets from 127.0.0.1 the server kept ${open()}`);
        // A socket of 127.0.0.1 that closes makes room for the next one of it.
        sockets.find((socket) => !socket.destroyed)?.destroy();
        await waitFor(async () => (await held(server)) === cap - 1, 2000);
        assert.equal(await statusFrom(port, '127.0.0.1'), 200, 'the address itself is served again');
      } finally {
        await stop(server, sockets);
      }
    });

    it('does not cap a trusted proxy, which brings everyone, and counts an IPv6 client by its /64', async function () {
      this.timeout(30_000);
      const config: Config = { ...t.config, trustProxy: ['127.0.0.1'] };
      const { server, port } = await shopServer(config);
      let sockets: net.Socket[] = [];
      try {
        sockets = await idleSockets(port, '127.0.0.1', config.maxConnectionsPerAddress + 20);
        await waitFor(async () => (await held(server)) === sockets.length, 5000);
        assert.equal(await held(server), sockets.length, 'the server holds every connection of the proxy');
        assert.ok(
          sockets.every((socket) => !socket.destroyed),
          'and closed none',
        );
      } finally {
        await stop(server, sockets);
      }
      const direct = { ...t.config, trustProxy: [] };
      assert.equal(connectionBucket('2001:db8:1:2::1', direct), connectionBucket('2001:db8:1:2:ffff::9', direct));
      assert.notEqual(connectionBucket('2001:db8:1:2::1', direct), connectionBucket('2001:db8:1:3::1', direct));
      assert.equal(connectionBucket('::ffff:10.0.0.1', direct), '10.0.0.1');
    });
  });
});
