import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';
import { startKeycloakStandIn, type KeycloakStandIn } from '../support/keycloak.ts';

/**
 * Acceptance: with OIDC_ISSUER pointing at a separately running provider shaped like a Keycloak realm
 * (groups as paths, aud "account" with the client in azp), staff and vendors get in as with the
 * embedded provider, and the embedded one is off.
 */
describeApi('logins through an external OpenID provider (Keycloak stand-in)', (t) => {
  let keycloak: KeycloakStandIn;
  let http: supertest.Agent;
  let demo1: { id: number; email: string };
  let config: ReturnType<typeof loadConfig>;

  before(async () => {
    const office = await t.office();
    const vendors = (await t.http.get('/api/vendors/?filter={"q":"DEMO-1"}').set('Authorization', office)).body;
    demo1 = vendors.find((v: { licenseId: string }) => v.licenseId === 'DEMO-1');
    keycloak = await startKeycloakStandIn({
      realm: 'streetpaper',
      clients: ['backoffice', 'another-app'],
      users: {
        maria: { email: 'maria@office.example', groups: ['/backoffice'] },
        // Staff set the read-only attribute `vendor` (the licence id) when they create the login.
        'demo-1': { email: demo1.email, groups: ['/vendor'], attributes: { vendor: 'demo-1' } },
        stranger: { email: 'stranger@example.org', groups: ['/vendor'] },
        // a vendor who set their e-mail to another vendor's, unverified or verified.
        impostor: { email: demo1.email.toUpperCase(), emailVerified: false, groups: ['/vendor'] },
        'verified-impostor': { email: demo1.email, emailVerified: true, groups: ['/vendor'] },
      },
    });
    // Configured as an operator would: through the environment.
    config = loadConfig({
      PUBLIC_URL: 'http://shop.test',
      OIDC_ISSUER: keycloak.issuer,
      OIDC_REALM: 'streetpaper',
      OIDC_CLIENT_ID: 'backoffice',
      OIDC_AUDIENCE: 'street-paper-api',
      LOG_LEVEL: 'silent',
    });
    http = supertest.agent(buildApp({ db: t.db, config }).callback()).set('Accept-Language', 'en');
  });
  after(() => keycloak?.close());

  const as = async (username: string, clientId?: string) => `Bearer ${await keycloak.login(username, { clientId })}`;

  it('tells the browser the issuer, realm and client id in the public settings', async () => {
    const res = await http.get('/api/settings/');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.identityProvider, {
      url: keycloak.issuer,
      realm: 'streetpaper',
      clientId: 'backoffice',
      scopes: 'openid profile email offline_access',
    });
  });

  it('switches the embedded provider off', async () => {
    for (const path of ['/oidc/.well-known/openid-configuration', '/oidc/jwks', '/oidc/auth']) {
      assert.equal((await http.get(path)).status, 404, path);
    }
  });

  it('lets staff in by the group path /backoffice, with aud "account" and the client in azp', async () => {
    const maria = await as('maria');
    const hello = await http.get('/api/auth/hello/').set('Authorization', maria);
    assert.equal(hello.status, 200, JSON.stringify(hello.body));
    assert.equal(hello.body.username, 'maria');
    assert.deepEqual(hello.body.groups, ['backoffice']);
    assert.equal((await http.get('/api/vendors/').set('Authorization', maria)).status, 200);
    assertRefused(await http.get('/api/vendors/me/').set('Authorization', maria), 403);

    const changed = await http
      .put(`/api/vendors/${demo1.id}`)
      .set('Authorization', maria)
      .send({ ...(await http.get(`/api/vendors/${demo1.id}`).set('Authorization', maria)).body, debt: 'Badge 5 €' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const [entry] = (await http.get('/api/protocol/?filter={"recordType":"vendor"}').set('Authorization', maria)).body;
    assert.equal(entry.username, 'maria', 'the protocol names the external user');
    assert.equal(entry.userSub, 'maria');
  });

  it('lets a vendor in by the group path /vendor and finds their record by the vendor attribute (the licence id)', async () => {
    const vendor = await as('demo-1');
    const me = await http.get('/api/vendors/me/').set('Authorization', vendor);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.id, demo1.id);
    assert.equal(typeof me.body.credit, 'number');
    assertRefused(await http.get('/api/vendors/').set('Authorization', vendor), 403);
    assertRefused(await http.get(`/api/vendors/${demo1.id}`).set('Authorization', vendor), 403);

    const stranger = await http.get('/api/vendors/me/').set('Authorization', await as('stranger'));
    assertRefused(stranger, 403);
    assert.match(stranger.body.message, /not linked to a vendor/);
  });

  it('gives no vendor data to a login whose e-mail is a vendor’s but which lacks the vendor attribute', async () => {
    for (const user of ['impostor', 'verified-impostor']) {
      const res = await http.get('/api/vendors/me/').set('Authorization', await as(user));
      assertRefused(res, 403);
      assert.match(res.body.message, /not linked to a vendor/, user);
      assertRefused(await http.get('/api/vendors/me/payments').set('Authorization', await as(user)), 403);
    }
    // Where the newspaper links vendors by e-mail, still only a verified one.
    const byEmail = supertest
      .agent(buildApp({ db: t.db, config: { ...config, oidc: { ...config.oidc, vendorByEmail: true } } }).callback())
      .set('Accept-Language', 'en');
    assertRefused(await byEmail.get('/api/vendors/me/').set('Authorization', await as('impostor')), 403);
    assert.equal(
      (await byEmail.get('/api/vendors/me/').set('Authorization', await as('verified-impostor'))).body.id,
      demo1.id,
    );
  });

  it('refuses tokens the realm issued to another client', async () => {
    const res = await http.get('/api/vendors/').set('Authorization', await as('maria', 'another-app'));
    assertRefused(res, 401);
  });

  it('without OIDC_AUDIENCE still accepts only tokens issued to our client', async () => {
    const config = loadConfig({
      PUBLIC_URL: 'http://shop.test',
      OIDC_ISSUER: keycloak.issuer,
      OIDC_CLIENT_ID: 'backoffice',
      LOG_LEVEL: 'silent',
    });
    const noAudience = supertest.agent(buildApp({ db: t.db, config }).callback()).set('Accept-Language', 'en');
    assert.equal((await noAudience.get('/api/vendors/').set('Authorization', await as('maria'))).status, 200);
    assertRefused(await noAudience.get('/api/vendors/').set('Authorization', await as('maria', 'another-app')), 401);
  });
});
