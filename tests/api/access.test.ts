import assert from 'node:assert/strict';
import { decodeJwt, generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import type { RouteDef } from '../../api/src/http/routes.ts';
import { apiAudience, issuerUrl } from '../../api/src/identity/issuer.ts';
import { loadProviderKeys } from '../../api/src/identity/provider/keys.ts';
import { routes } from '../../api/src/routes.ts';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi, testIssuer, type ApiTest } from '../support/env.ts';
import { startKeycloakStandIn } from '../support/keycloak.ts';
import { loginWithPkce } from '../support/oidc-flow.ts';
import { listenShop } from '../support/shop-server.ts';

/**
 * The routes anyone may call. A route that declares itself public without being listed here fails,
 * so opening an endpoint to the world is always a deliberate, reviewed change.
 */
const publicRoutes = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /api/settings',
  'GET /public/style.css',
  'GET /files/:id',
  'GET /api/items',
  'GET /api/vendors/check/:licenseId',
  'POST /api/orders',
  'GET /api/orders/verify',
  'GET /api/orders/:token',
  'POST /api/webhooks/stripe',
  'GET /api/pdf/:id/validate',
  'GET /api/pdf/:id',
  'GET /api/shop/boot',
]);

// ---------------------------------------------------------------------------------------------
// The authorization matrix: one row per route of api/src/routes.ts, one column per caller.
//   'ok'  allowed: any answer but 401 and 403, and never a 5xx (bad input may still give 400/404)
//   401   refused as not logged in (with a Bearer challenge)
//   403   refused as not allowed
// Path parameters get real ids (see `params` below): `:id` is vendor A's, so a vendor trying the
// back-office record of their own vendor is refused as well.
// ---------------------------------------------------------------------------------------------
type Outcome = 'ok' | 401 | 403;
const callers = ['anonymous', 'vendorA', 'vendorB', 'backoffice', 'expired', 'otherKey', 'otherIssuer'] as const;
type Caller = (typeof callers)[number];
type Row = readonly [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

//                        anonymous vendorA vendorB backoffice expired otherKey otherIssuer
const everyone: Row = ['ok', 'ok', 'ok', 'ok', 401, 401, 401];
const staff: Row = [401, 403, 403, 'ok', 401, 401, 401];
const ownVendor: Row = [401, 'ok', 'ok', 403, 401, 401, 401];
const loggedIn: Row = [401, 'ok', 'ok', 'ok', 401, 401, 401];

const matrix: Record<string, Row> = {
  'GET /healthz': everyone,
  'GET /readyz': everyone,
  'GET /api/settings': everyone,
  'PUT /api/settings': staff,
  'PUT /api/settings/css': staff,
  'GET /public/style.css': everyone,
  'GET /files/:id': everyone,
  'GET /api/files/:id': staff,
  'GET /api/items': everyone,
  'GET /api/items/backoffice': staff,
  'GET /api/items/:id': staff,
  'POST /api/items': staff,
  'PUT /api/items/:id': staff,
  'DELETE /api/items/:id': staff,
  'GET /api/vendors': staff,
  'POST /api/vendors': staff,
  'GET /api/vendors/check/:licenseId': everyone,
  'GET /api/vendors/me': ownVendor,
  'GET /api/vendors/me/payments': ownVendor,
  'GET /api/vendors/me/statements': ownVendor,
  'GET /api/vendors/me/statement': ownVendor,
  'GET /api/vendors/:id/statement': staff,
  'GET /api/statements': staff,
  'GET /api/vendors/:id/benefit-statement': staff,
  'GET /api/benefit-statements': staff,
  'GET /api/settings/benefit-scheme': staff,
  'PUT /api/settings/benefit-scheme': staff,
  'GET /api/vendors/:id': staff,
  'PUT /api/vendors/:id': staff,
  'PATCH /api/vendors/:id': staff,
  'DELETE /api/vendors/:id': staff,
  'GET /api/vendors/:id/locations': staff,
  'POST /api/vendors/:id/locations': staff,
  'PATCH /api/vendors/:id/locations/:locId': staff,
  'DELETE /api/vendors/:id/locations/:locId': staff,
  'GET /api/vendors/:id/comments': staff,
  'POST /api/vendors/:id/comments': staff,
  'PATCH /api/vendors/:id/comments/:cid': staff,
  'DELETE /api/vendors/:id/comments/:cid': staff,
  'GET /api/vendors/:id/export': staff,
  'POST /api/vendors/:id/anonymise': staff,
  'GET /api/map': staff,
  'GET /api/protocol': staff,
  'GET /api/login-locks': staff,
  'DELETE /api/login-locks/:username': staff,
  'POST /api/orders': everyone,
  'GET /api/orders': staff,
  'GET /api/orders/verify': everyone,
  'GET /api/orders/:token': everyone,
  'POST /api/orders/:id/reconcile': staff,
  'POST /api/orders/:id/refund': staff,
  'GET /api/orders/:id/refunds': staff,
  'GET /api/disputes': staff,
  'POST /api/disputes/:id/decision': staff,
  'GET /api/payments/forpayout': staff,
  'POST /api/payments/payout': staff,
  'POST /api/payments/payout/:id/reverse': staff,
  'GET /api/payouts': staff,
  'GET /api/payouts/totals': staff,
  'GET /api/payouts/:id': staff,
  'GET /api/payouts/:id/receipt': staff,
  'GET /api/payouts/:id/reversal/receipt': staff,
  // the counter
  'GET /api/office/today': staff,
  'GET /api/counter/vendor': staff,
  'POST /api/counter/visits': staff,
  'GET /api/counter/visits': staff,
  'GET /api/counter/visits/:id': staff,
  'GET /api/counter/visits/:id/receipt': staff,
  'GET /api/tills': staff,
  'POST /api/tills': staff,
  'PUT /api/tills/:id/location': staff,
  'GET /api/tills/:id/book': staff,
  'POST /api/tills/:id/movements': staff,
  'GET /api/tills/:id/closes': staff,
  'POST /api/tills/:id/closes': staff,
  'PUT /api/tills/:id/fiscal': staff,
  'GET /api/tills/dsfinvk': staff,
  'GET /api/tills/dep7': staff,
  'GET /api/tills/:id/rksv': staff,
  'GET /api/fiscal': staff,
  'GET /api/fiscal/failures': staff,
  'POST /api/fiscal/retry': staff,
  'POST /api/fiscal/tills/:id/deregister': staff,
  'POST /api/fiscal/tss/disable': staff,
  'GET /api/closes/:id/report': staff,
  'POST /api/webhooks/stripe': everyone,
  'GET /api/webhook-endpoints': staff,
  'GET /api/webhook-endpoints/:id': staff,
  'POST /api/webhook-endpoints': staff,
  'PUT /api/webhook-endpoints/:id': staff,
  'POST /api/webhook-endpoints/:id/secret': staff,
  'GET /api/webhook-deliveries': staff,
  'GET /api/webhook-deliveries/:id': staff,
  'POST /api/webhook-deliveries/:id/resend': staff,
  'GET /api/auth/hello': loggedIn,
  'GET /api/pdf/:id/validate': everyone,
  'GET /api/pdf/:id': everyone,
  'GET /api/outbox': staff,
  'GET /api/shop/boot': everyone,
  'GET /api/payments': staff,
  'GET /api/payments/totals': staff,
  'GET /api/payments/accounts': staff,
  // the bookkeeper's files: DATEV, the journal, the trial balance
  'GET /api/accounting/datev': staff,
  'GET /api/accounting/journal': staff,
  'GET /api/accounting/trial-balance': staff,
  'GET /api/accounting/datev/settings': staff,
  'PUT /api/accounting/datev/settings': staff,
  // the reconciliation with Stripe's balance
  'GET /api/stripe-reconciliation': staff,
  'GET /api/stripe-reconciliation.csv': staff,
  'GET /api/payments/statistics': staff,
};

const key = (r: RouteDef) => `${r.method} ${r.path}`;

/** The data the matrix calls with: vendor A (DEMO-1) with a location and a comment, and vendor B. */
interface Fixture {
  vendorA: { id: number; email: string; licenseId: string };
  vendorB: { id: number; email: string; licenseId: string; login?: { username: string; oneTimePassword: string } };
  params: Record<string, string>;
}

async function fixture(t: ApiTest): Promise<Fixture> {
  const office = await t.office();
  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const vendors = (await as(t.http.get('/api/vendors/?filter={"q":"DEMO-1"}'))).body as (Fixture['vendorA'] & {
    licenseId: string;
  })[];
  const vendorA = vendors.find((v) => v.licenseId === 'DEMO-1')!;
  // Created rather than seeded, so that with the embedded provider it comes with a login.
  const vendorB = await as(t.http.post('/api/vendors')).send({
    licenseId: 'MATRIX-B',
    firstName: 'Berta',
    email: 'matrix-b@example.org',
  });
  const location = await as(t.http.post(`/api/vendors/${vendorA.id}/locations`)).send({ name: 'Matrix corner' });
  const comment = await as(t.http.post(`/api/vendors/${vendorA.id}/comments`)).send({ comment: 'Matrix' });
  for (const res of [vendorB, location, comment]) assert.equal(res.status, 201, JSON.stringify(res.body));
  // A credit keeps vendor A and its login to the end: staff's anonymisation of it is refused (409).
  await bookPaidOrder(t.db, vendorA.id, new Date(), { prints: 1, digital: 0, tip: 0 });
  // Unlisted parameters get "1": any id will do where only the access decision is looked at.
  const params = {
    id: String(vendorA.id),
    locId: String(location.body.id),
    cid: String(comment.body.id),
    licenseId: 'DEMO-1',
  };
  return { vendorA, vendorB: vendorB.body, params };
}

const concrete = (path: string, params: Record<string, string>) =>
  path.replace(/:([A-Za-z]+)/g, (_, name: string) => params[name] ?? '1') + '/';

/**
 * Calls every route as every caller and compares with the table. Reading routes go first and
 * deletions last (children before their parent), and the back office calls each route after the
 * others, so what an allowed call changes cannot turn a later check into a false pass or failure.
 */
async function checkMatrix(http: supertest.Agent, tokens: Tokens, params: Record<string, string>) {
  const order = (r: RouteDef) => (r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);
  const depth = (r: RouteDef) => r.path.split('/').length;
  // Deleting vendor A ends its login; its locations and comments are tried before that.
  const vendorLast = (r: RouteDef) => Number(r.path.startsWith('/api/vendors/'));
  const sorted = [...routes].sort(
    (a, b) => order(a) - order(b) || (order(a) === 2 ? depth(b) - depth(a) || vendorLast(a) - vendorLast(b) : 0),
  );
  const callOrder: Caller[] = ['anonymous', 'vendorA', 'vendorB', 'expired', 'otherKey', 'otherIssuer', 'backoffice'];
  const failures: string[] = [];
  for (const route of sorted) {
    const row = matrix[key(route)];
    if (!row) {
      failures.push(`${key(route)} has no row in the matrix`);
      continue;
    }
    for (const caller of callOrder) {
      const expected = row[callers.indexOf(caller)];
      const request = http[route.method.toLowerCase() as 'get'](concrete(route.path, params));
      if (caller !== 'anonymous') request.set('Authorization', `Bearer ${tokens[caller]}`);
      const res = await request;
      const where = `${key(route)} as ${caller}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`;
      if (expected === 'ok') {
        if (res.status === 401 || res.status === 403 || res.status >= 500) failures.push(where);
      } else if (res.status !== expected) {
        failures.push(where);
      } else if (expected === 401 && !/^Bearer/.test(res.headers['www-authenticate'] ?? '')) {
        failures.push(`${where} (no Bearer challenge)`);
      }
    }
  }
  assert.deepEqual(failures, []);
}

/** A token like the issuer's, with the same key id, signed by a key the issuer never had. */
async function signedByAnotherKey(claims: JWTPayload, issuer: string, audience: string, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(privateKey);
}

type Tokens = Record<Exclude<Caller, 'anonymous'>, string>;
const bearer = (header: string) => header.slice('Bearer '.length);
const aMinuteAgo = () => Math.floor(Date.now() / 1000) - 60;

/** Runs the matrix against an app whose tokens come from one kind of provider. */
function matrixSuite(
  t: ApiTest,
  title: string,
  connect: (ids: Fixture) => Promise<{ http: supertest.Agent; tokens: Tokens; close?: () => Promise<void> }>,
) {
  describe(title, () => {
    let ids: Fixture;
    let app: Awaited<ReturnType<typeof connect>>;
    before(async function () {
      this.timeout(60_000);
      await t.reset();
      ids = await fixture(t);
      app = await connect(ids);
    });
    // The next suite resets the database before it starts; this one only closes what it opened.
    after(async () => {
      await app?.close?.();
    });

    it('shows each vendor their own record at /api/vendors/me and refuses the back-office vendor records', async () => {
      const me = (token: string) => app.http.get('/api/vendors/me').set('Authorization', `Bearer ${token}`);
      assert.equal((await me(app.tokens.vendorA)).body.id, ids.vendorA.id);
      assert.equal((await me(app.tokens.vendorB)).body.id, ids.vendorB.id);
      for (const [token, vendor] of [
        [app.tokens.vendorA, ids.vendorA],
        [app.tokens.vendorB, ids.vendorA],
        [app.tokens.vendorA, ids.vendorB],
      ] as const) {
        assert.equal(
          (await app.http.get(`/api/vendors/${vendor.id}`).set('Authorization', `Bearer ${token}`)).status,
          403,
        );
      }
    });

    it('gives every caller exactly the outcome of the matrix on every route', async function () {
      this.timeout(60_000);
      await checkMatrix(app.http, app.tokens, ids.params);
    });
  });
}

describeApi('access to every route', (t) => {
  it('has exactly one row in the matrix for every route', () => {
    const declared = routes.map(key);
    assert.deepEqual(
      declared.filter((k) => !(k in matrix)),
      [],
      'routes missing from the matrix',
    );
    assert.deepEqual(
      Object.keys(matrix).filter((k) => !declared.includes(k)),
      [],
      'matrix rows without a route',
    );
    assert.equal(new Set(declared).size, declared.length, 'a route is declared twice');
  });

  it('declares only the reviewed routes public, and the matrix lets exactly those be called anonymously', () => {
    const declaredPublic = routes
      .filter((r) => r.access === 'public')
      .map(key)
      .sort();
    assert.deepEqual(declaredPublic, [...publicRoutes].sort());
    const anonymous = Object.entries(matrix)
      .filter(([, row]) => row[0] === 'ok')
      .map(([k]) => k)
      .sort();
    assert.deepEqual(anonymous, [...publicRoutes].sort());
  });

  matrixSuite(t, 'with tokens of an external issuer (the jose stand-in)', async (ids) => {
    const issuer = await testIssuer();
    const everything = { sub: 'vendor-a', groups: ['backoffice', 'vendor'], email: ids.vendorA.email };
    return {
      http: t.http,
      tokens: {
        vendorA: bearer(
          await t.auth(['vendor'], { sub: 'vendor-a', email: ids.vendorA.email, vendor: ids.vendorA.licenseId }),
        ),
        vendorB: bearer(
          await t.auth(['vendor'], { sub: 'vendor-b', email: ids.vendorB.email, vendor: ids.vendorB.licenseId }),
        ),
        backoffice: bearer(await t.office()),
        expired: await issuer.mint(everything, { expiresIn: aMinuteAgo() }),
        otherKey: await signedByAnotherKey(everything, issuer.issuer, issuer.audience, 'test-key'),
        otherIssuer: await issuer.mint(everything, { issuer: 'https://evil.example/realms/shop' }),
      },
    };
  });

  matrixSuite(t, 'with tokens of a Keycloak realm (real provider, groups as paths, aud "account")', async (ids) => {
    const keycloak = await startKeycloakStandIn({
      clients: ['backoffice'],
      users: {
        'vendor-a': { email: ids.vendorA.email, groups: ['/vendor'], attributes: { vendor: ids.vendorA.licenseId } },
        'vendor-b': { email: ids.vendorB.email, groups: ['/vendor'], attributes: { vendor: ids.vendorB.licenseId } },
        office: { groups: ['/backoffice'] },
      },
    });
    const config = { ...t.config, oidc: { ...t.config.oidc, issuer: keycloak.issuer } };
    const everything = { sub: 'vendor-a', groups: ['/backoffice', '/vendor'], email: ids.vendorA.email };
    return {
      http: supertest.agent(buildApp({ db: t.db, config }).callback()).set('Accept-Language', 'en'),
      tokens: {
        vendorA: await keycloak.login('vendor-a'),
        vendorB: await keycloak.login('vendor-b'),
        backoffice: await keycloak.login('office'),
        expired: await keycloak.sign(everything, aMinuteAgo()),
        otherKey: await signedByAnotherKey(
          { ...everything, aud: 'account', azp: 'backoffice' },
          keycloak.issuer,
          'account',
          'realm-key',
        ),
        otherIssuer: bearer(await t.auth(everything.groups, everything)),
      },
      close: () => keycloak.close(),
    };
  });

  matrixSuite(t, 'with tokens of the embedded provider (real logins)', async (ids) => {
    const shop = await listenShop(t, (c) => ({ oidc: { ...c.oidc, issuer: undefined } }));
    assert.ok(ids.vendorB.login, 'creating a vendor answers its login');
    const keys = await loadProviderKeys(t.db);
    const office = await loginWithPkce(shop.url, 'office', 'office');
    const claims = { ...decodeJwt(office.access_token), groups: ['backoffice', 'vendor'] };
    const ownIssuer = { issuer: issuerUrl(shop.config), audience: apiAudience(shop.config) };
    const expired = new SignJWT({ ...claims, exp: aMinuteAgo() })
      .setProtectedHeader({ alg: 'RS256', kid: keys.signing.kid })
      .sign(await importJWK(keys.signing, 'RS256'));
    return {
      http: shop.http,
      tokens: {
        vendorA: (await loginWithPkce(shop.url, 'vendor', 'vendor')).access_token,
        vendorB: (await loginWithPkce(shop.url, ids.vendorB.login.username, ids.vendorB.login.oneTimePassword))
          .access_token,
        backoffice: office.access_token,
        expired: await expired,
        otherKey: await signedByAnotherKey(claims, ownIssuer.issuer, ownIssuer.audience, keys.signing.kid),
        otherIssuer: bearer(await t.auth(['backoffice', 'vendor'], { sub: claims.sub })),
      },
      close: () => shop.close(),
    };
  });

  it('accepts the Keycloak group path form /backoffice', async () => {
    const res = await t.http.get('/api/vendors/').set('Authorization', await t.auth(['/backoffice']));
    assert.equal(res.status, 200);
  });

  it('refuses tampered and malformed tokens with 401', async () => {
    const issuer = await testIssuer();
    const valid = await issuer.mint({ groups: ['backoffice'] });
    const [head, body, sig] = valid.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), groups: ['backoffice', 'root'] }),
    ).toString('base64url');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    for (const [name, header] of [
      ['tampered payload', `Bearer ${head}.${forgedBody}.${sig}`],
      ['alg none', `Bearer ${unsigned}`],
      ['not a bearer', `Basic b2ZmaWNlOm9mZmljZQ==`],
      ['garbage', 'Bearer not-a-token'],
    ]) {
      const res = await t.http.get('/api/vendors/').set('Authorization', header);
      assert.equal(res.status, 401, `${name} answered ${res.status}`);
      assert.match(res.headers['www-authenticate'] ?? '', /^Bearer/, name);
    }
  });
});
