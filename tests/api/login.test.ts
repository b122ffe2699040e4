import assert from 'node:assert/strict';
import supertest from 'supertest';
import { decodeJwt } from 'jose';
import { buildApp } from '../../api/src/app.ts';
import type { Config } from '../../api/src/foundations/config.ts';
import { capturedLog } from '../support/log.ts';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { describeApi } from '../support/env.ts';
import {
  Browser,
  authorizeUrl,
  exchangeCode,
  loginWithPkce,
  openLoginPage,
  pkce,
  tokenRequest,
} from '../support/oidc-flow.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The embedded OpenID provider as the back office and vendors meet it: over real HTTP on a real
// port, through our login page, with the tokens our API accepts.

const embedded = (c: Config): Partial<Config> => ({ oidc: { ...c.oidc, issuer: undefined } });
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
const bearer = (token: string) => `Bearer ${token}`;

describeApi('embedded OpenID provider', (t) => {
  let shop: ListeningShop;
  let office: string; // staff token of the suite's external-mode app, for managing vendors
  let counter = 0;
  const nextLicense = () => `LOGIN-${++counter}`;

  before(async () => {
    shop = await listenShop(t, embedded);
    office = await t.office();
  });
  after(() => shop.close());
  // Every request comes from 127.0.0.1: each test starts without counted failures.
  beforeEach(() => t.db('login_throttle').delete());

  const hello = (token: string) => shop.http.get('/api/auth/hello/').set('Authorization', bearer(token));

  async function createVendor(fields: Record<string, unknown> = {}) {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: nextLicense(), firstName: 'Lotte', ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: number; licenseId: string; login: { username: string; oneTimePassword: string } } & Record<
      string,
      unknown
    >;
  }
  const updateVendor = async (vendor: Record<string, unknown>, changes: Record<string, unknown>) => {
    const { login: _login, ...record } = vendor;
    const res = await t.http
      .put(`/api/vendors/${String(vendor.id)}`)
      .set('Authorization', office)
      .send({ ...record, ...changes });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  describe('the provider', () => {
    it('publishes discovery and its public key under <PUBLIC_URL>/oidc, and the settings name it', async () => {
      const discovery = await (await fetch(`${shop.url}/oidc/.well-known/openid-configuration`)).json();
      assert.equal(discovery.issuer, `${shop.url}/oidc`);
      assert.equal(discovery.authorization_endpoint, `${shop.url}/oidc/auth`);
      assert.equal(discovery.token_endpoint, `${shop.url}/oidc/token`);
      assert.equal(discovery.end_session_endpoint, `${shop.url}/oidc/session/end`);
      assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(discovery.grant_types_supported, ['authorization_code', 'refresh_token']);

      const jwks = await (await fetch(discovery.jwks_uri)).json();
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0].kty, 'RSA');
      assert.ok(jwks.keys[0].kid);
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi'])
        assert.equal(jwks.keys[0][secret], undefined, `the JWKS publishes "${secret}"`);

      const settings = await shop.http.get('/api/settings/');
      assert.deepEqual(settings.body.identityProvider, {
        url: `${shop.url}/oidc`,
        realm: null,
        clientId: 'backoffice',
        scopes: 'openid profile email offline_access',
      });
    });

    it('logs office in with code + PKCE: a short-lived JWT for our API with the groups, an ID token, a rotating refresh token', async () => {
      const tokens = await loginWithPkce(shop.url, 'office', 'office');
      const access = decodeJwt(tokens.access_token);
      assert.equal(access.iss, `${shop.url}/oidc`);
      assert.equal(access.aud, t.config.oidc.audience);
      assert.deepEqual(access.groups, ['backoffice']);
      assert.equal(access.preferred_username, 'office');
      assert.equal(access.exp! - access.iat!, 300);
      const id = decodeJwt(tokens.id_token);
      assert.equal(id.aud, 'backoffice');
      assert.deepEqual(id.groups, ['backoffice']);

      const me = await hello(tokens.access_token);
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.deepEqual(me.body, {
        sub: access.sub,
        username: 'office',
        email: 'office@demo.strassenzeitung.org',
        groups: ['backoffice'],
      });
      assert.equal(
        (await shop.http.get('/api/vendors/').set('Authorization', bearer(tokens.access_token))).status,
        200,
      );

      const used = tokens.refresh_token;
      const renewed = await tokens.refresh();
      assert.notEqual(renewed.refresh_token, used, 'the refresh token rotates');
      assert.equal((await hello(renewed.access_token)).status, 200);
      const replay = await tokenRequest(shop.url, { grant_type: 'refresh_token', refresh_token: used });
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
    });

    it('refuses an authorization request without PKCE and a code with the wrong verifier', async () => {
      const browser = new Browser(shop.url);
      const noPkce = await browser.request(authorizeUrl(shop.url));
      const location = new URL(noPkce.headers.get('location') ?? '', shop.url);
      assert.equal(location.pathname, '/backoffice/auth-callback');
      assert.equal(location.searchParams.get('error'), 'invalid_request');

      const page = await openLoginPage(shop.url);
      const { code } = await page.submit('office', 'office');
      const wrong = await tokenRequest(shop.url, {
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: pkce().verifier,
        redirect_uri: page.redirectUri,
      });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.error, 'invalid_grant');
    });

    it('refuses redirect URIs that are not ours', async () => {
      const res = await new Browser(shop.url).request(
        authorizeUrl(shop.url, { redirectUri: 'https://evil.example/callback', challenge: pkce().challenge }),
      );
      assert.equal(res.status, 400);
      assert.match(await res.text(), /redirect_uri/);
    });

    it('ends the session at logout: the refresh token stops working and the next login asks for the password again', async () => {
      const tokens = await loginWithPkce(shop.url, 'office', 'office');
      const { browser } = tokens;
      // Still logged in at the provider: a new authorization gets its code without the login page.
      const again = await browser.follow(
        await browser.request(authorizeUrl(shop.url, { challenge: pkce().challenge })),
        (l) => l.pathname === '/backoffice/auth-callback',
      );
      assert.ok(
        again.location?.searchParams.get('code'),
        'a second authorization in the same session needs no password',
      );

      const end = `${shop.url}/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${shop.url}/backoffice` })}`;
      const confirm = await browser.request(end);
      assert.equal(confirm.status, 200);
      const html = await confirm.text();
      const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
      assert.ok(action && xsrf, html);
      const done = await browser.request(action, { form: { xsrf, logout: 'yes' } });
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), `${shop.url}/backoffice`);

      const refresh = await tokenRequest(shop.url, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      assert.equal(refresh.status, 400);
      const page = await openLoginPage(shop.url, {}, browser);
      assert.equal(page.status, 200, 'the login page is shown again');
    });

    it('keeps its keys and its state in the database: a second app on it verifies the tokens and renews them', async () => {
      const tokens = await loginWithPkce(shop.url, 'office', 'office');
      const second = supertest.agent(buildApp({ db: t.db, config: shop.config }).callback());
      const firstKeys = await (await fetch(`${shop.url}/oidc/jwks`)).json();
      const secondKeys = (await second.get('/oidc/jwks')).body;
      assert.deepEqual(secondKeys, firstKeys, 'the same key, with the same kid');
      assert.equal((await second.get('/api/auth/hello').set('Authorization', bearer(tokens.access_token))).status, 200);

      const renewed = await second
        .post('/oidc/token')
        .type('form')
        .send({ client_id: 'backoffice', grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
      assert.equal(
        (await hello(renewed.body.access_token)).status,
        200,
        'and the first app accepts what the second issued',
      );
    });
  });

  describe('the login page', () => {
    it('is German by default: the newspaper, labelled fields with autocomplete, a switch to English', async () => {
      const page = await openLoginPage(shop.url);
      assert.equal(page.status, 200);
      const { html } = page;
      assert.match(html, /<html lang="de">/);
      assert.ok(html.includes(`<title>${DEMO_NEWSPAPER_NAME} | Anmelden</title>`), html);
      assert.match(html, /<img src="\/files\/[0-9a-f-]+" alt="">/, 'the newspaper logo from the settings');
      assert.match(html, /<label for="username">Benutzername<\/label>/);
      assert.match(html, /<label for="password">Passwort<\/label>/);
      assert.match(html, /<input id="username" name="username" type="text" autocomplete="username"/);
      assert.match(html, /<input id="password" name="password" type="password" autocomplete="current-password"/);
      assert.match(html, /lang="en" hreflang="en">English<\/a>/);
      assert.equal(alertOf(html), undefined);

      const switched = await page.browser.request(`${page.action}?lang=en`);
      const english = await switched.text();
      assert.match(english, /<html lang="en">/);
      assert.match(english, /<label for="username">Username<\/label>/);
      assert.match(english, /lang="de" hreflang="de">Deutsch<\/a>/);
    });

    it('follows ui_locales of the authorization request', async () => {
      const page = await openLoginPage(shop.url, { uiLocales: 'en-GB de' });
      assert.match(page.html, /<html lang="en">/);
      assert.match(page.html, /<h1>Log in<\/h1>/);
    });

    it('says wrong username or password in German and English, keeps the username, never echoes the password', async () => {
      const page = await openLoginPage(shop.url);
      const german = await page.submit('office', 'not-the-password');
      assert.equal(alertOf(german.html), 'Benutzername oder Passwort ist falsch.');
      assert.match(german.html, /name="username" type="text"[^>]* value="office"/);
      assert.ok(!german.html.includes('not-the-password'));

      const english = await page.submit('nobody-at-all', 'not-the-password', 'en');
      assert.equal(alertOf(english.html), 'Wrong username or password.');
      assert.match(english.html, /<html lang="en">/);

      const html = await page.submit('<script>x</script>', 'x');
      assert.ok(!html.html.includes('<script>x'), 'the username is escaped');
      assert.ok(html.html.includes('&#60;script&#62;x&#60;/script&#62;'));
    });

    it('records each failed login in the protocol, with the name and address but not the password', async () => {
      const before = (await t.db('protocol_entries').where({ action: 'login.failed' }).count({ n: '*' }).first()) as {
        n: number;
      };
      const page = await openLoginPage(shop.url);
      await page.submit('office', 'secret-guess-42');
      const entries = await t.db('protocol_entries').where({ action: 'login.failed' }).orderBy('id');
      assert.equal(entries.length, Number(before.n) + 1);
      const entry = entries.at(-1);
      assert.equal(entry.actor_name, 'office');
      assert.match(String(entry.details.ip), /127\.0\.0\.1/);
      assert.ok(!JSON.stringify(entries).includes('secret-guess-42'));
    });

    it('throttles an account after 5 failures, even with the right password, in German and English', async () => {
      const page = await openLoginPage(shop.url);
      for (let i = 0; i < 5; i++)
        assert.equal(
          alertOf((await page.submit('office', `wrong-${i}`)).html),
          'Benutzername oder Passwort ist falsch.',
        );
      const refused = await page.submit('office', 'office');
      assert.equal(refused.status, 429);
      assert.equal(refused.code, undefined);
      assert.equal(alertOf(refused.html), 'Zu viele Fehlversuche. Bitte warte 15 Minuten.');
      const english = await page.submit('Office', 'office', 'en');
      assert.equal(alertOf(english.html), 'Too many failed attempts. Please wait 15 minutes.');

      // Other accounts from the same address are not affected.
      assert.equal((await hello((await loginWithPkce(shop.url, 'vendor', 'vendor')).access_token)).status, 200);

      // The wait shrinks as the failures age, and ends with the window.
      await t
        .db('login_throttle')
        .update({ window_start: t.db.raw(`window_start - interval '14 minutes 10 seconds'`) });
      assert.match(
        alertOf((await page.submit('office', 'office')).html)!,
        /^Zu viele Fehlversuche\. Bitte warte (4\d|50) Sekunden\.$/,
      );
      await t.db('login_throttle').update({ window_start: t.db.raw(`window_start - interval '1 minute'`) });
      assert.ok((await page.submit('office', 'office')).code, 'the login works again after 15 minutes');
    });

    it('throttles an address after 20 failures, whatever the username', async () => {
      const page = await openLoginPage(shop.url);
      for (let i = 0; i < 20; i++) await page.submit(`probe-${i}`, 'guess');
      const refused = await page.submit('vendor', 'vendor');
      assert.equal(refused.status, 429);
      assert.equal(alertOf(refused.html), 'Zu viele Fehlversuche. Bitte warte 15 Minuten.');
    });
  });

  describe('vendor logins', () => {
    it('come with a new vendor: the licence id and a one-time password shown once, which logs in', async () => {
      const vendor = await createVendor();
      const { login } = vendor;
      assert.equal(login.username, vendor.licenseId);
      assert.match(login.oneTimePassword, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

      const read = await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', office);
      assert.equal(read.body.login, undefined);
      const list = await t.http.get('/api/vendors').set('Authorization', office);
      assert.ok(!JSON.stringify([read.body, list.body]).includes(login.oneTimePassword));

      const account = await t.db('accounts').where({ vendor_id: vendor.id }).first();
      assert.equal(account.username, vendor.licenseId);
      assert.equal(account.email, `${vendor.licenseId}@demo.strassenzeitung.org`, 'e-mail from the settings postfix');
      assert.deepEqual(account.groups, ['vendor']);
      assert.match(account.password_hash, /^scrypt\$32768\$8\$1\$/, 'stored at the product’s cost');

      const tokens = await loginWithPkce(shop.url, login.username, login.oneTimePassword);
      const me = await hello(tokens.access_token);
      assert.deepEqual(me.body, {
        sub: String(account.id),
        username: vendor.licenseId,
        email: account.email,
        groups: ['vendor'],
      });
    });

    it('deactivating the vendor makes the next login fail and its refresh token invalid; reactivating allows it again', async () => {
      const vendor = await createVendor({ email: 'lotte@example.org' });
      const tokens = await loginWithPkce(shop.url, vendor.login.username, vendor.login.oneTimePassword);
      assert.equal((await hello(tokens.access_token)).status, 200);

      await updateVendor(vendor, { isDisabled: true });
      const refresh = await tokenRequest(shop.url, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      assert.equal(refresh.status, 400);
      assert.equal(refresh.body.error, 'invalid_grant');
      assert.equal((await hello(tokens.access_token)).status, 401, 'the access token stops working too');
      const attempt = await (await openLoginPage(shop.url)).submit(vendor.login.username, vendor.login.oneTimePassword);
      assert.equal(attempt.code, undefined);
      assert.equal(alertOf(attempt.html), 'Benutzername oder Passwort ist falsch.');

      await updateVendor(vendor, { isDisabled: false });
      assert.equal(
        (await hello((await loginWithPkce(shop.url, vendor.login.username, vendor.login.oneTimePassword)).access_token))
          .status,
        200,
      );
    });

    it('deleting the vendor ends its login and frees the licence id for a successor with a login of its own', async () => {
      const vendor = await createVendor();
      const tokens = await loginWithPkce(shop.url, vendor.login.username, vendor.login.oneTimePassword);
      assert.equal((await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', office)).status, 200);
      assert.equal(
        (await tokenRequest(shop.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status,
        400,
      );
      assert.equal((await hello(tokens.access_token)).status, 401);

      const successor = await createVendor({ licenseId: vendor.licenseId });
      assert.equal(successor.login.username, vendor.licenseId);
      assert.equal(
        (await (await openLoginPage(shop.url)).submit(vendor.licenseId, vendor.login.oneTimePassword)).code,
        undefined,
        'the old password is gone',
      );
      const me = await hello(
        (await loginWithPkce(shop.url, vendor.licenseId, successor.login.oneTimePassword)).access_token,
      );
      assert.equal(me.status, 200);
      assert.equal(
        (
          await t
            .db('accounts')
            .where({ id: Number(me.body.sub) })
            .first()
        ).vendor_id,
        successor.id,
      );
    });

    it('renaming the licence id renames the login and keeps its link and password; the e-mail follows too', async () => {
      const vendor = await createVendor();
      const account = await t.db('accounts').where({ vendor_id: vendor.id }).first();
      const renamed = `${vendor.licenseId}-NEW`;
      await updateVendor(vendor, { licenseId: renamed, email: 'renamed@example.org' });
      const me = await hello((await loginWithPkce(shop.url, renamed, vendor.login.oneTimePassword)).access_token);
      assert.equal(me.body.username, renamed);
      assert.equal(me.body.email, 'renamed@example.org');
      assert.equal(me.body.sub, String(account.id));
      assert.equal((await t.db('accounts').where({ id: account.id }).first()).vendor_id, vendor.id);
      assert.equal(
        (await (await openLoginPage(shop.url)).submit(vendor.licenseId, vendor.login.oneTimePassword)).code,
        undefined,
      );

      // A licence id that is another account's login name is refused, and the vendor stays as it was.
      const { login: _login, ...record } = vendor;
      const clash = await t.http
        .put(`/api/vendors/${String(vendor.id)}`)
        .set('Authorization', office)
        .send({ ...record, licenseId: 'office' });
      assert.equal(clash.status, 409, JSON.stringify(clash.body));
      assert.ok(clash.body.errors.licenseId);
      assert.equal((await t.db('vendors').where({ id: vendor.id }).first()).license_id, renamed);
    });

    it('refuses a licence id that is already a login name, and creates nothing', async () => {
      const res = await t.http
        .post('/api/vendors')
        .set('Authorization', office)
        .send({ licenseId: 'Office', firstName: 'Clash' });
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.ok(res.body.errors.licenseId);
      assert.equal(await t.db('vendors').whereRaw(`lower(license_id) = 'office'`).first(), undefined);
    });

    it('the demo vendor login belongs to DEMO-1', async () => {
      const me = await hello((await loginWithPkce(shop.url, 'vendor', 'vendor')).access_token);
      assert.deepEqual(me.body.groups, ['vendor']);
      const account = await t
        .db('accounts')
        .where({ id: Number(me.body.sub) })
        .first();
      const demo1 = await t.db('vendors').where({ license_id: 'DEMO-1' }).first();
      assert.equal(account.vendor_id, demo1.id);
    });
  });

  describe('secrets', () => {
    it('never puts a password, hash or token into an API answer or a log line', async () => {
      const answers: string[] = [];
      let secrets: string[] = [];
      const lines = await capturedLog(async () => {
        const vendor = await createVendor();
        const page = await openLoginPage(shop.url);
        await page.submit(vendor.login.username, `${vendor.login.oneTimePassword}-typo`);
        const { code } = await page.submit(vendor.login.username, vendor.login.oneTimePassword);
        const tokens = await exchangeCode(shop.url, code!, page.pkce.verifier);
        const renewed = await tokenRequest(shop.url, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
        });
        const staff = await loginWithPkce(shop.url, 'office', 'office');
        for (const res of [
          await hello(tokens.access_token),
          await shop.http.get('/api/auth/hello').set('Authorization', bearer(String(renewed.body.access_token))),
          await shop.http.get(`/api/vendors/${vendor.id}`).set('Authorization', bearer(staff.access_token)),
          await shop.http.get('/api/vendors').set('Authorization', bearer(staff.access_token)),
          await shop.http.get('/api/protocol').set('Authorization', bearer(staff.access_token)),
          await shop.http.get('/api/settings'),
        ]) {
          assert.ok(res.status < 400, `${res.status} ${JSON.stringify(res.body)}`);
          answers.push(res.text);
        }
        const hashes = (await t.db('accounts').select('password_hash'))
          .map((a) => a.password_hash as string)
          .filter(Boolean);
        const keys = (await t.db('system_state').where({ key: 'oidc_keys' }).first()).value;
        secrets = [
          vendor.login.oneTimePassword,
          ...hashes,
          ...hashes.map((h) => h.split('$').at(-1)!),
          tokens.access_token,
          tokens.refresh_token,
          tokens.id_token,
          String(renewed.body.refresh_token),
          staff.access_token,
          keys.signing.d,
          ...keys.cookies,
        ];
      });
      assert.ok(
        lines.some((l) => l.includes('"msg":"request"')),
        'the log lines were captured',
      );
      for (const secret of secrets) {
        assert.ok(secret.length >= 12, 'a real secret');
        assert.deepEqual(
          lines.filter((l) => l.includes(secret)),
          [],
          'a log line holds a secret',
        );
        assert.deepEqual(
          answers.filter((a) => a.includes(secret)),
          [],
          'an answer holds a secret',
        );
      }
    });
  });
});
