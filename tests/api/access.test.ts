import assert from 'node:assert/strict';
import { routes } from '../../api/src/routes.ts';
import type { RouteDef } from '../../api/src/http/routes.ts';
import { describeApi, testIssuer } from '../support/env.ts';

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
]);

const key = (r: RouteDef) => `${r.method} ${r.path}`;
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, '1') + '/';

describeApi('access to every route', (t) => {
  it('declares only the reviewed routes public', () => {
    const declaredPublic = routes.filter((r) => r.access === 'public').map(key).sort();
    assert.deepEqual(declaredPublic, [...publicRoutes].sort());
  });

  it('answers 401 with a Bearer challenge to every non-public route without a token', async () => {
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const res = await t.http[route.method.toLowerCase() as 'get'](concrete(route.path));
      assert.equal(res.status, 401, `${key(route)} answered ${res.status}`);
      assert.match(res.headers['www-authenticate'] ?? '', /^Bearer/, key(route));
      assert.ok(res.body.message, `${key(route)} gave no message`);
    }
  });

  it('answers 403 to a valid token without the backoffice group on every back-office route', async () => {
    const vendor = await t.auth(['vendor']);
    for (const route of routes.filter((r) => r.access === 'backoffice')) {
      const res = await t.http[route.method.toLowerCase() as 'get'](concrete(route.path)).set('Authorization', vendor);
      assert.equal(res.status, 403, `${key(route)} answered ${res.status}`);
    }
  });

  it('accepts the Keycloak group path form /backoffice', async () => {
    const res = await t.http.get('/api/vendors/').set('Authorization', await t.auth(['/backoffice']));
    assert.equal(res.status, 200);
  });

  it('refuses expired, foreign-issuer, tampered and malformed tokens with 401', async () => {
    const issuer = await testIssuer();
    const expired = await issuer.mint({ groups: ['backoffice'] }, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const foreign = await issuer.mint({ groups: ['backoffice'] }, { issuer: 'https://evil.example' });
    const valid = await issuer.mint({ groups: ['backoffice'] });
    const [head, body, sig] = valid.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), groups: ['backoffice', 'root'] })).toString('base64url');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    for (const [name, header] of [
      ['expired', `Bearer ${expired}`],
      ['foreign issuer', `Bearer ${foreign}`],
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
