import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import supertest from 'supertest';
import { protocol } from '../../api/src/protocol/middleware.ts';
import type { AppDeps, AppState } from '../../api/src/http/context.ts';
import { errorHandler } from '../../api/src/http/errors.ts';
import { createTill } from '../../api/src/ledger/till.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { capturedLog } from '../support/log.ts';
import { vendorId } from '../support/orders.ts';

// Bookings of one till at the same time: they queue on the till and never deadlock; the cash book
// stays gap-free. A payout or a till movement sent again with its request id books once.

interface Movement {
  voucher: string;
  amountIn: number;
  amountOut: number;
  balance: number;
}

describeApi('till: bookings at the same time, and a submission sent again', (t) => {
  let office = '';
  before(async () => {
    office = await t.office();
  });
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const move = (tillId: number, body: object) => as(t.http.post(`/api/tills/${tillId}/movements`)).send(body);
  const payOut = (body: object) => as(t.http.post('/api/payments/payout')).send(body);
  const payouts = async (licenseId: string) =>
    t
      .db('payouts')
      .where({ vendor_id: await vendorId(t.db, licenseId) })
      .pluck('id');

  /** Gives the vendor a credit from a paid order (a copy and a tip); answers it. */
  async function giveCredit(licenseId: string): Promise<number> {
    const id = await vendorId(t.db, licenseId);
    await bookPaidOrder(t.db, id, new Date(), { prints: 1, digital: 0, tip: 100 });
    return (await vendorAccountSummary(t.db, id)).credit;
  }

  /** Every row's balance is the one before plus its amount; vouchers 1, 2, 3 …; answers the rows. */
  async function assertBookAddsUp(tillId: number, openingBalance: number): Promise<Movement[]> {
    const res = await as(t.http.get(`/api/tills/${tillId}/book`));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rows = res.body.movements as Movement[];
    let balance = openingBalance;
    rows.forEach((row, n) => {
      balance += row.amountIn - row.amountOut;
      assert.equal(row.balance, balance, `running balance at row ${n + 1}`);
      assert.equal(Number(row.voucher.split('-')[2]), n + 1, `voucher of row ${n + 1} is ${row.voucher}`);
    });
    assert.equal(res.body.till.balance, balance, 'the till balance is the last row’s');
    return rows;
  }

  it('pays out 50 vendors from one till at once: each answer 201 or a plain 409, the cash book gap-free', async function () {
    // PGlite has one connection: its bookings cannot overlap.
    if (t.engine === 'pglite') this.skip();
    const extra = Array.from({ length: 20 }, (_, n) => ({ license_id: `RACE-${n + 1}`, first_name: 'Race' }));
    await t.db('vendors').insert(extra);
    const vendors: { id: number; license_id: string }[] = await t
      .db('vendors')
      .where('license_id', 'like', 'DEMO-%')
      .whereNot({ license_id: 'DEMO-OFF' })
      .orWhere('license_id', 'like', 'RACE-%')
      .select('id', 'license_id');
    assert.equal(vendors.length, 50);
    await Promise.all(vendors.map((v) => bookPaidOrder(t.db, v.id, new Date(), { prints: 1, digital: 0, tip: 100 })));
    const credits = await Promise.all(vendors.map(async (v) => (await vendorAccountSummary(t.db, v.id)).credit));
    const openingBalance = 1_000_000;
    const tillId = await createTill(t.db, { name: 'Race', openingBalance });

    let answers: supertest.Response[] = [];
    const lines = await capturedLog(async () => {
      answers = await Promise.all(
        vendors.map((v, n) => payOut({ vendor: v.license_id, expectedAmount: credits[n], tillId })),
      );
    });
    // The till's lock comes first in each: they queue on it, and PostgreSQL finds no deadlock to break.
    assert.deepEqual(
      lines.filter((line) => /"transaction (run again|conflict)"|"request failed"/.test(line)),
      [],
    );
    const unexpected = answers.filter(
      (res) => res.status !== 201 && !(res.status === 409 && /try again/.test(res.body.message)),
    );
    assert.deepEqual(
      unexpected.map((res) => [res.status, res.body]),
      [],
    );
    const paid = answers.filter((res) => res.status === 201).map((res) => res.body.amount as number);
    const rows = await assertBookAddsUp(tillId, openingBalance);
    assert.equal(rows.length, paid.length);
    assert.equal(
      rows.at(-1)?.balance ?? openingBalance,
      openingBalance - paid.reduce((sum, amount) => sum + amount, 0),
    );
  });

  it('books a till movement sent twice, and one sent 10 times at once, once: each answer is the first one', async () => {
    const tillId = await createTill(t.db, { name: 'Twice', openingBalance: 10_000 });
    const body = { kind: 'bank_deposit', amount: 2500, requestId: randomUUID() };
    const first = await move(tillId, body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await move(tillId, body);
    assert.deepEqual([again.status, again.body], [201, first.body]);

    const same = { ...body, requestId: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 10 }, () => move(tillId, same)));
    assert.deepEqual(
      answers.map((res) => [res.status, res.body]),
      Array(10).fill([201, answers[0].body]),
    );
    const rows = await assertBookAddsUp(tillId, 10_000);
    assert.deepEqual(
      rows.map((row) => row.voucher),
      [first.body.voucher, answers[0].body.voucher],
    );
  });

  it('books a payout sent twice, and one sent 10 times at once, once: each answer is the first payout', async () => {
    const body = { vendor: 'DEMO-1', expectedAmount: await giveCredit('DEMO-1'), requestId: randomUUID() };
    const first = await payOut(body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await payOut(body);
    assert.deepEqual([again.status, again.body], [201, first.body]);
    assert.deepEqual(await payouts('DEMO-1'), [first.body.id]);

    const same = { vendor: 'DEMO-2', expectedAmount: await giveCredit('DEMO-2'), requestId: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 10 }, () => payOut(same)));
    assert.deepEqual(
      answers.map((res) => [res.status, res.body]),
      Array(10).fill([201, answers[0].body]),
    );
    assert.deepEqual(await payouts('DEMO-2'), [answers[0].body.id]);
  });

  it('refuses a request id sent again with other figures (409) and books nothing for it', async () => {
    const tillId = await createTill(t.db, { name: 'Other figures', openingBalance: 10_000 });
    const requestId = randomUUID();
    assert.equal((await move(tillId, { kind: 'bank_deposit', amount: 2500, requestId })).status, 201);
    const moved = await move(tillId, { kind: 'bank_deposit', amount: 2600, requestId });
    assert.equal(moved.status, 409, JSON.stringify(moved.body));
    assert.match(moved.body.message, /already booked with other figures/);
    assert.equal((await assertBookAddsUp(tillId, 10_000)).length, 1);

    const credit = await giveCredit('DEMO-3');
    await giveCredit('DEMO-4');
    const payoutRequest = randomUUID();
    const paid = await payOut({ vendor: 'DEMO-3', expectedAmount: credit, requestId: payoutRequest });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    const other = await payOut({ vendor: 'DEMO-4', expectedAmount: credit, requestId: payoutRequest });
    assert.equal(other.status, 409, JSON.stringify(other.body));
    assert.match(other.body.message, /already booked with other figures/);
    assert.deepEqual(await payouts('DEMO-4'), []);
  });

  it('runs a payout that PostgreSQL ended to break a deadlock once more, whole: 201', async function () {
    if (t.engine === 'pglite') this.skip();
    const credit = await giveCredit('DEMO-5');
    const tillId = await createTill(t.db, { name: 'Deadlock', openingBalance: 10_000 });
    const account = await t
      .db('ledger_accounts')
      .where({ vendor_id: await vendorId(t.db, 'DEMO-5') })
      .first('id');
    let answer: supertest.Response | undefined;
    const lines = await capturedLog(async () => {
      // Locks in the wrong order, vendor's account then till, against the payout's till then account.
      const other = await t.db.transaction();
      try {
        // The payout waits first and, with PostgreSQL's 1 s, looks for the deadlock first: it is the one ended.
        await other.raw(`set local deadlock_timeout = '10s'`);
        await other('ledger_accounts').where({ id: account.id }).forUpdate();
        const { rows } = await other.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid');
        const paying = payOut({ vendor: 'DEMO-5', expectedAmount: credit, tillId }).then((res) => (answer = res));
        while (!(await blockedBy(rows[0].pid))) await new Promise((resolve) => setTimeout(resolve, 20));
        await other('tills').where({ id: tillId }).forUpdate();
        await other.rollback();
        await paying;
      } finally {
        if (!other.isCompleted()) await other.rollback();
      }
    });
    assert.equal(answer?.status, 201, JSON.stringify(answer?.body));
    assert.ok(
      lines.some((line) => /"transaction run again".*"40P01"/.test(line)),
      lines.join('\n'),
    );
    await assertBookAddsUp(tillId, 10_000);
  });

  /** Whether a statement waits for a lock that the connection `pid` holds. */
  async function blockedBy(pid: number): Promise<boolean> {
    const { rows } = await t.db.raw<{ rows: { n: number }[] }>(
      `select count(*)::int as n from pg_stat_activity where ?::integer = any(pg_blocking_pids(pid))`,
      [pid],
    );
    return rows[0].n > 0;
  }

  describe('an audited route whose transaction PostgreSQL ends to break a deadlock', () => {
    /** A server with one audited route that fails with a deadlock `conflicts` times, then books. */
    function server(conflicts: number) {
      let runs = 0;
      const app = new Koa<AppState, AppDeps>();
      app.context.db = t.db;
      app.use(errorHandler());
      app.use(async (ctx, next) => {
        ctx.state.user = { sub: 'office', username: 'office', groups: ['backoffice'] };
        await next();
      });
      const route = protocol('POST', '/test', { recordType: 'test', load: () => Promise.resolve({}) }, (ctx) => {
        runs += 1;
        if (runs <= conflicts) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
        ctx.status = 201;
        ctx.body = { id: runs };
      });
      app.use(route!);
      return { http: supertest(app.callback()), runs: () => runs };
    }

    it('runs it once more from its start', async () => {
      const once = server(1);
      const res = await once.http.post('/test');
      assert.deepEqual([res.status, res.body, once.runs()], [201, { id: 2 }, 2]);
    });

    it('answers a second deadlock 409 with a plain "try again", in German and English', async () => {
      const twice = server(2);
      const german = await twice.http.post('/test');
      assert.deepEqual(
        [german.status, german.body.message],
        [
          409,
          'Gerade wurde gleichzeitig etwas anderes gebucht oder geändert; es ist nichts gespeichert worden. Bitte noch einmal versuchen.',
        ],
      );
      assert.equal(twice.runs(), 2);
      const english = await server(2).http.post('/test').set('Accept-Language', 'en');
      assert.deepEqual(
        [english.status, english.body.message],
        [409, 'Something else was booked or changed at the same moment; nothing was saved. Please try again.'],
      );
    });
  });
});
