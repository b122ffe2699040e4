import assert from 'node:assert/strict';
import { loadConfig, type Config } from '../../api/src/foundations/config.ts';
import { claimAttempt, loginSucceeded } from '../../api/src/identity/provider/throttle.ts';
import { describeApi } from '../support/env.ts';
import { Browser, openLoginPage } from '../support/oidc-flow.ts';
import { startCluster, type Cluster } from '../support/processes.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Login throttling that holds under concurrency and cannot lock the owner out. Attempts
// are counted before the password is checked; an account and address pair and an address have hard
// limits, an account as a whole only growing delays; staff can lift the locks.

const rules: Config['loginThrottle'] = {
  windowMinutes: 15,
  perPair: 5,
  perAddress: 20,
  perAccount: 10,
  delaySeconds: 1,
};
const alertOf = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeApi('login throttling', (t) => {
  beforeEach(() => t.db('login_throttle').delete());

  const claim = (username: string, address: string) => claimAttempt(t.db, rules, username, address);
  /** Lets the account's current delay pass, as if the time had come. */
  const delayPasses = () =>
    t
      .db('login_throttle')
      .where({ scope: 'account' })
      .update({ next_at: t.db.raw(`now() - interval '1 second'`) });

  it('lets exactly the limit of 100 parallel attempts of one account from one address through', async () => {
    const claims = await Promise.all(Array.from({ length: 100 }, () => claim('office', '203.0.113.1')));
    assert.equal(claims.filter((c) => c.allowed).length, rules.perPair);
    const refused = claims.filter((c) => !c.allowed);
    assert.ok(
      refused.every((c) => !c.allowed && c.waitSeconds > 14 * 60 && c.waitSeconds <= 15 * 60),
      JSON.stringify(refused[0]),
    );
    // The refused attempts took nothing from the address's own allowance or the account.
    const rows = await t.db('login_throttle').orderBy('scope').select('scope', 'attempts');
    assert.deepEqual(rows, [
      { scope: 'account', attempts: 5 },
      { scope: 'address', attempts: 5 },
      { scope: 'pair', attempts: 5 },
    ]);
  });

  it('slows an account tried from many addresses down with growing delays instead of locking it', async () => {
    for (let n = 0; n < rules.perAccount; n++)
      assert.ok((await claim('office', `203.0.113.${n}`)).allowed, `attempt ${n + 1}`);
    assert.ok((await claim('office', '198.51.100.7')).allowed, 'the first attempt of an address is not delayed');
    const waits: number[] = [];
    for (let step = 0; step < 4; step++) {
      const refused = await claim('office', '198.51.100.7');
      assert.ok(!refused.allowed, `during delay ${step + 1}`);
      waits.push(refused.waitSeconds);
      await delayPasses();
      assert.ok((await claim('office', '198.51.100.7')).allowed, `after delay ${step + 1}`);
    }
    assert.deepEqual(waits, [2, 4, 8, 16]);
    // Other accounts are not slowed down, and a success ends the delays.
    assert.ok((await claim('vendor', '203.0.113.1')).allowed);
    await loginSucceeded(t.db, 'Office', '198.51.100.7');
    assert.ok((await claim('office', '192.0.2.1')).allowed);
  });

  it('limits one address whatever the names, and gives a success its attempt back', async () => {
    for (let n = 0; n < rules.perAddress - 1; n++) assert.ok((await claim(`probe-${n}`, '203.0.113.9')).allowed);
    assert.ok((await claim('office', '203.0.113.9')).allowed);
    await loginSucceeded(t.db, 'office', '203.0.113.9');
    assert.ok((await claim('vendor', '203.0.113.9')).allowed, 'the successful login did not use up the address');
    const refused = await claim('vendor', '203.0.113.9');
    assert.ok(!refused.allowed && refused.waitSeconds > 14 * 60);
    assert.ok((await claim('vendor', '203.0.113.10')).allowed, 'another address is not affected');
  });

  describe('at the login page, with the protocol and the back office', () => {
    let shop: ListeningShop;
    let office: string;
    before(async () => {
      shop = await listenShop(t, (c) => ({
        oidc: { ...c.oidc, issuer: undefined },
        trustProxy: ['127.0.0.1'],
        loginThrottle: rules,
      }));
      office = await t.office();
    });
    after(() => shop.close());

    const from = (address: string) =>
      openLoginPage(shop.url, {}, new Browser(shop.url, { 'X-Forwarded-For': address }));

    it('locks the attacker’s address out of the account, records it, lets the owner in from elsewhere, and staff unlock', async () => {
      const attacker = await from('203.0.113.66');
      for (let n = 0; n < rules.perPair; n++) assert.equal((await attacker.submit('office', `guess-${n}`)).status, 200);
      const locked = await attacker.submit('office', 'office');
      assert.equal(locked.status, 429);
      assert.equal(alertOf(locked.html), 'Zu viele Fehlversuche. Bitte warte 15 Minuten.');
      const entry = await t
        .db('protocol_entries')
        .where({ action: 'login.locked', actor_name: 'office' })
        .orderBy('id', 'desc')
        .first();
      assert.deepEqual(entry?.details, { ip: '203.0.113.66', scope: 'pair', attempts: rules.perPair });

      assert.ok(
        (await (await from('198.51.100.20')).submit('office', 'office')).code,
        'the owner logs in from another address',
      );
      for (let n = 0; n < rules.perPair; n++) await attacker.submit('office', `again-${n}`); // still locked: nothing counted

      const list = await t.http.get('/api/login-locks').set('Authorization', office);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      assert.equal(list.headers['content-range'], 'login-locks 0-0/1');
      assert.deepEqual(
        list.body.map((l: { id: string; addresses: string[] }) => [l.id, l.addresses]),
        [['office', ['203.0.113.66']]],
      );
      assert.equal((await t.http.get('/api/login-locks').set('Authorization', await t.auth(['vendor']))).status, 403);
      assert.equal(
        (await t.http.delete('/api/login-locks/office').set('Authorization', await t.auth(['vendor']))).status,
        403,
      );

      const unlocked = await t.http.delete('/api/login-locks/Office').set('Authorization', office);
      assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
      assert.equal(unlocked.body.id, 'office');
      assert.ok(
        await t
          .db('protocol_entries')
          .where({ action: 'login.unlocked', record_type: 'login-lock', record_id: 'Office' })
          .first(),
      );
      assert.deepEqual((await t.http.get('/api/login-locks').set('Authorization', office)).body, []);
      assert.equal((await t.http.delete('/api/login-locks/office').set('Authorization', office)).status, 404);
      assert.ok((await attacker.submit('office', 'office')).code, 'unlocked, the address may try again');
    });

    it('lets the owner in from their own address after 20 wrong passwords from four, while the guessers wait', async () => {
      /** A wrong password that reaches the password check, once the account's delay (if any) has passed. */
      const guess = async (browser: Awaited<ReturnType<typeof from>>, n: number) => {
        let answer = await browser.submit('office', `guess-${n}`);
        for (let waits = 0; answer.status === 429 && waits < 5; waits++) {
          await delayPasses();
          answer = await browser.submit('office', `guess-${n}`);
        }
        assert.equal(answer.status, 200, alertOf(answer.html));
      };
      const failures = async () =>
        Number(
          (await t.db('protocol_entries').where({ action: 'login.failed', actor_name: 'office' }).count({ n: '*' }))[0]
            ?.n,
        );
      const before = await failures();
      const guessers = await Promise.all(['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map(from));
      for (const [g, browser] of guessers.entries())
        for (let n = 0; n < rules.perPair; n++) await guess(browser, g * rules.perPair + n);
      assert.equal(await failures(), before + 20, 'twenty passwords were checked and wrong');

      const locked = await guessers[0].submit('office', 'office');
      assert.equal(locked.status, 429, 'an address that guessed is locked out of the account');
      assert.equal(alertOf(locked.html), 'Zu viele Fehlversuche. Bitte warte 15 Minuten.');
      const newcomer = await from('203.0.113.5');
      assert.equal((await newcomer.submit('office', 'guess-new')).status, 200, 'a new address has one attempt');
      const delayed = await newcomer.submit('office', 'guess-again');
      assert.equal(delayed.status, 429, 'then it waits the account’s delay like the others');
      assert.match(alertOf(delayed.html) ?? '', /^Zu viele Fehlversuche\. Bitte warte \d+ (Minuten|Sekunden)\.$/);

      assert.ok((await (await from('198.51.100.20')).submit('office', 'office')).code, 'the owner gets in');
    });

    it('counts an IPv6 network as one address: a /64 shares its attempts', async () => {
      for (let n = 0; n < rules.perPair; n++)
        await (await from(`2001:db8:7:7::${n + 1}`)).submit('office', `guess-${n}`);
      const next = await (await from('2001:db8:7:7:ffff:1:2:3')).submit('office', 'office');
      assert.equal(next.status, 429, 'another address of the same /64');
      assert.ok(
        (await (await from('2001:db8:7:8::1')).submit('office', 'office')).code,
        'the next /64 is another client',
      );
    });
  });
});

/**
 * Two real API processes on PostgreSQL, an attacker sending 200 wrong
 * passwords at once through the balancer, and the owner logging in from another address meanwhile.
 * Each password check that fails is a `login.failed` entry in the protocol: that is the count.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const cluster = adminUrl ? describe : describe.skip;

cluster(
  `login throttling across two API processes on PostgreSQL${adminUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`,
  function () {
    this.timeout(90_000);
    let shop: Cluster;
    // The account's limit as low as the pair's, so that this one attacker already starts its delays.
    const limits = { LOGIN_LIMIT_PER_PAIR: '5', LOGIN_LIMIT_PER_ACCOUNT: '5', LOGIN_DELAY_SECONDS: '1' };

    before(async () => {
      // A start for this machine only, so the balancer forwards for loopback clients (http/local-only.ts).
      shop = await startCluster(adminUrl!, `throttle_${process.pid}`, { env: { TRUST_PROXY: '127.0.0.1', ...limits } });
    });
    after(() => shop?.stop());

    it('checks the password at most the limit of times for 200 parallel attempts, and the owner gets in meanwhile', async () => {
      const configured = loadConfig(limits).loginThrottle;
      const attacker = await openLoginPage(shop.url, {}, new Browser(shop.url, { 'X-Forwarded-For': '127.0.0.66' }));
      const attempts = Array.from({ length: 200 }, (_, n) => attacker.submit('office', `guess-${n}`));
      const attack = Promise.all(attempts);

      // The owner, from another address, while the attack runs (its first attempt answered, the
      // others on their way): at most the account's delay to wait.
      await Promise.race(attempts);
      const owner = await openLoginPage(shop.url, {}, new Browser(shop.url, { 'X-Forwarded-For': '127.0.0.20' }));
      const waited: string[] = [];
      let code: string | undefined;
      for (let tries = 0; tries < 3 && !code; tries++) {
        const answer = await owner.submit('office', 'office');
        code = answer.code;
        if (code) break;
        const alert = alertOf(answer.html) ?? '';
        waited.push(alert);
        const seconds = /warte (\d+) Sekunden?\./.exec(alert)?.[1];
        assert.ok(seconds && Number(seconds) <= configured.delaySeconds * 2, `the owner was told: ${alert}`);
        // The owner waits as told, as a person does: the delay runs on the server processes' own
        // clock, which a test cannot advance from outside, and nothing else ends it.
        await sleep(Number(seconds) * 1000);
      }
      assert.ok(code, `the owner did not get in: ${waited.join(' | ')}`);

      const answers = await attack;
      const checked = await shop
        .db('protocol_entries')
        .where({ action: 'login.failed', actor_name: 'office' })
        .count({ n: '*' })
        .first();
      assert.ok(
        Number(checked?.n) <= configured.perPair,
        `${checked?.n} password checks for a limit of ${configured.perPair}`,
      );
      assert.equal(answers.filter((a) => a.status === 429).length, 200 - Number(checked?.n));
      assert.ok(
        answers.every((a) => a.status === 200 || a.status === 429),
        JSON.stringify(answers.map((a) => a.status)),
      );
      assert.deepEqual(
        new Set(shop.balancer.forwarded.map((f) => f.backend)),
        new Set([0, 1]),
        'both processes answered',
      );
      assert.ok(
        await shop.db('protocol_entries').where({ action: 'login.locked', actor_name: 'office' }).first(),
        'the lockout is in the protocol',
      );
    });
  },
);
