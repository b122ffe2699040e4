import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { bookHistory, edges, type History } from '../support/books.ts';
import { describeApi, type ApiTest } from '../support/env.ts';
import { assertBalanced } from '../support/orders.ts';

// Every total the back office shows for a period (accounting list and its totals,
// sales, payouts, the accounts export) equals a direct SQL sum over the ledger. The bounds of the
// reference sums are computed by PostgreSQL itself (`date::timestamp at time zone`), not by the API.

const zone = 'Europe/Berlin';

/** The newspaper's app with its time zone pinned, whatever TIME_ZONE the test machine has. */
const berlinApp = (t: ApiTest) =>
  supertest.agent(buildApp({ db: t.db, config: { ...t.config, timeZone: zone } }).callback());

/** Local midnight of a calendar day, as PostgreSQL computes it. */
async function midnight(t: ApiTest, day: string): Promise<Date> {
  const { rows } = await t.db.raw('select (?::date)::timestamp at time zone ? as at', [day, zone]);
  return rows[0].at;
}

/** The reference: count, amount and quantity of ledger rows in [from, to) matching `where`. */
async function ledgerSum(t: ApiTest, from: Date, to: Date, where = 'true', bindings: number[] = []) {
  const { rows } = await t.db.raw(
    `select count(*)::bigint as count, coalesce(sum(amount), 0)::bigint as amount, coalesce(sum(quantity), 0)::bigint as quantity
     from ledger_rows where created_at >= ? and created_at < ? and (${where})`,
    [from, to, ...bindings],
  );
  return rows[0] as { count: number; amount: number; quantity: number };
}

const vendorAccount = (t: ApiTest, licence: string) =>
  t
    .db('ledger_accounts as a')
    .join('vendors as v', 'v.id', 'a.vendor_id')
    .where('v.license_id', licence)
    .first('a.id')
    .then((a) => a.id as number);

describeApi('accounting: payments list, totals and accounts', (t) => {
  let history: History;
  let http: supertest.Agent;
  let office: string;
  let may: { from: Date; to: Date };
  before(async function () {
    this.timeout(120_000);
    history = await bookHistory(t.db);
    http = berlinApp(t);
    office = await t.office();
    may = { from: await midnight(t, '2026-05-01'), to: await midnight(t, '2026-06-01') };
  });

  const get = (path: string, query: Record<string, unknown> = {}) =>
    http.get(path).query(query).set('Authorization', office);
  const filtered = (filter: object, extra: Record<string, unknown> = {}) =>
    get('/api/payments/', { filter: JSON.stringify(filter), ...extra });
  const total = (res: supertest.Response) => Number(/\/(\d+)$/.exec(res.headers['content-range'])![1]);
  const orderIds = async (query: Record<string, unknown>) =>
    new Set(
      ((await get('/api/payments/', { ...query, range: '[0,999]' })).body as { orderId: number }[]).map(
        (r) => r.orderId,
      ),
    );

  it('books a few hundred rows through the ledger, balanced', async () => {
    const [{ count }] = await t.db('ledger_rows').count({ count: '*' });
    assert.ok(Number(count) >= 300, `${count} rows`);
    await assertBalanced(t.db);
  });

  it('takes from inclusive and to exclusive, a bare date as local midnight, the whole last day included', async () => {
    const res = await filtered({ from: '2026-05-01', to: '2026-05-31' }, { range: '[0,9]' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.length, 10);
    assert.equal(total(res), (await ledgerSum(t, may.from, may.to)).count, 'Content-Range counts the whole period');

    const inMay = await orderIds({ from: '2026-05-01', to: '2026-05-31', kind: 'sale' });
    const { edgeOrders } = history;
    for (const inside of ['mayStart', 'mayFirstNight', 'mayLast'] as const)
      assert.ok(inMay.has(edgeOrders[inside]), `${inside} is in May`);
    for (const outside of ['beforeMay', 'juneStart', 'juneFirstNight'] as const)
      assert.ok(!inMay.has(edgeOrders[outside]), `${outside} is not in May`);

    // The same period as instants with the offset of Berlin's summer time: the same rows.
    const offsets = await orderIds({
      from: '2026-05-01T00:00:00+02:00',
      to: '2026-06-01T00:00:00+02:00',
      kind: 'sale',
    });
    assert.deepEqual([...offsets].sort(), [...inMay].sort());
    // Midnight UTC is two hours later: the first night of May drops out, the first of June comes in.
    const utc = await orderIds({ from: '2026-05-01T00:00:00Z', to: '2026-06-01T00:00:00Z', kind: 'sale' });
    assert.ok(
      !utc.has(edgeOrders.mayStart) &&
        !utc.has(edgeOrders.mayFirstNight) &&
        utc.has(edgeOrders.juneStart) &&
        utc.has(edgeOrders.juneFirstNight),
    );
    // A time exactly at `to` is outside, exactly at `from` inside.
    const exact = await orderIds({ from: edges.mayStart, to: edges.juneStart, kind: 'sale' });
    assert.ok(exact.has(edgeOrders.mayStart) && exact.has(edgeOrders.mayLast) && !exact.has(edgeOrders.juneStart));
  });

  it('counts the day of the clock change with its 23 hours', async () => {
    const day = await orderIds({ from: '2026-03-29', to: '2026-03-29', kind: 'sale' });
    const { edgeOrders } = history;
    assert.ok(day.has(edgeOrders.dstDayStart) && day.has(edgeOrders.dstDayLast) && !day.has(edgeOrders.dstNextDay));
    const res = await filtered({ from: '2026-03-29', to: '2026-03-29' });
    const reference = await ledgerSum(t, await midnight(t, '2026-03-29'), await midnight(t, '2026-03-30'));
    assert.equal(reference.count > 0 && total(res), reference.count);
    const totals = (await get('/api/payments/totals/', { from: '2026-03-29', to: '2026-03-29' })).body;
    assert.deepEqual([totals.count, totals.amount], [reference.count, reference.amount]);
  });

  it('answers totals of the whole filtered period equal to SQL sums, for every filter', async () => {
    const demo2 = await vendorAccount(t, 'DEMO-2');
    const print = (await t.db('items').where({ name: 'Zeitung' }).first('id')).id;
    const cases: [object, string, number[]][] = [
      [{}, 'true', []],
      [{ kind: 'sales' }, `kind in ('sale', 'tip')`, []],
      [{ kind: ['fee', 'fee_cover'] }, `kind in ('fee', 'fee_cover')`, []],
      [{ kind: 'payout' }, `kind = 'payout'`, []],
      [{ vendor: 'demo-2' }, 'sender_id = ? or receiver_id = ?', [demo2, demo2]],
      [{ item: print }, 'item_id = ?', [print]],
      [
        { vendor: 'DEMO-2', kind: 'sales', item: String(print) },
        `(sender_id = ? or receiver_id = ?) and kind in ('sale', 'tip') and item_id = ?`,
        [demo2, demo2, print],
      ],
    ];
    for (const [filter, where, bindings] of cases) {
      const reference = await ledgerSum(t, may.from, may.to, where, bindings);
      assert.ok(reference.count > 0, `${JSON.stringify(filter)} selects rows`);
      const query = { filter: JSON.stringify({ from: '2026-05-01', to: '2026-05-31', ...filter }) };
      const totals = (await get('/api/payments/totals/', query)).body;
      assert.deepEqual(
        [totals.count, totals.amount, totals.quantity],
        [reference.count, reference.amount, reference.quantity],
        JSON.stringify(filter),
      );
      const byItem = totals.byItem as { amount: number; quantity: number }[];
      assert.equal(
        byItem.reduce((s, g) => s + g.amount, 0),
        reference.amount,
        'the groups add up',
      );
      assert.equal(
        total(await get('/api/payments/', { ...query, range: '[0,4]' })),
        reference.count,
        'the list counts the same rows',
      );
    }
  });

  it('names both accounts and the item of each row', async () => {
    const res = await filtered(
      { from: '2026-05-01', to: '2026-05-31', kind: 'sale', vendor: 'DEMO-2' },
      { range: '[0,0]', sort: '["amount","ASC"]' },
    );
    const [row] = res.body;
    const vendor = await t.db('vendors').where({ license_id: 'DEMO-2' }).first();
    assert.equal(row.kind, 'sale');
    assert.equal(row.senderName, 'Kundschaft');
    assert.equal(row.receiverName, `${vendor.first_name} ${vendor.last_name} (DEMO-2)`);
    assert.deepEqual(row.receiver, {
      accountId: await vendorAccount(t, 'DEMO-2'),
      kind: 'vendor',
      vendorId: vendor.id,
      licenseId: 'DEMO-2',
      name: row.receiverName,
    });
    assert.equal(row.sender.kind, 'customers');
    assert.ok(['Zeitung', 'Digitale Ausgabe'].includes(row.itemName));
    assert.equal(row.amount, row.quantity * row.unitPrice);
    const smallest = await t
      .db('ledger_rows')
      .where({ kind: 'sale', receiver_id: row.receiver.accountId })
      .whereBetween('created_at', [may.from, new Date(may.to.getTime() - 1)])
      .min({ min: 'amount' })
      .first();
    assert.equal(row.amount, Number(smallest!.min), 'sorted by amount');
  });

  it('gives each account its opening balance, movements and closing balance; the closings sum to zero', async () => {
    const res = await get('/api/payments/accounts/', { from: '2026-05-01', to: '2026-05-31' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const accounts = res.body.accounts as {
      accountId: number;
      name: string;
      opening: number;
      received: number;
      sent: number;
      closing: number;
    }[];
    assert.equal(accounts.length, Number((await t.db('ledger_accounts').count({ n: '*' }).first())!.n));
    for (const account of accounts) {
      const sums = await t.db.raw(
        `select coalesce(sum(case when receiver_id = :a then amount else -amount end) filter (where created_at < :from), 0)::bigint as opening,
           coalesce(sum(amount) filter (where receiver_id = :a and created_at >= :from and created_at < :to), 0)::bigint as received,
           coalesce(sum(amount) filter (where sender_id = :a and created_at >= :from and created_at < :to), 0)::bigint as sent
         from ledger_rows where receiver_id = :a or sender_id = :a`,
        { a: account.accountId, from: may.from, to: may.to },
      );
      const { opening, received, sent } = sums.rows[0];
      assert.deepEqual(
        [account.opening, account.received, account.sent, account.closing],
        [opening, received, sent, opening + received - sent],
        account.name,
      );
    }
    assert.deepEqual(res.body.totals.opening, 0);
    assert.deepEqual(res.body.totals.closing, 0);
    assert.equal(res.body.totals.received, res.body.totals.sent);
    assert.ok(
      accounts.some((a) => a.name === 'Kasse' && a.received > 0),
      'payouts reached the cash desk',
    );

    // April's closing balances are May's opening balances.
    const april = (
      await get('/api/payments/accounts/', { filter: JSON.stringify({ from: '2026-04-01', to: '2026-04-30' }) })
    ).body.accounts as typeof accounts;
    assert.deepEqual(
      april.map((a) => [a.accountId, a.closing]),
      accounts.map((a) => [a.accountId, a.opening]),
    );
  });

  it('sums the payouts of a period like SQL does', async () => {
    const { rows } = await t.db.raw(
      'select count(*)::bigint as count, coalesce(sum(amount), 0)::bigint as amount from payouts where created_at >= ? and created_at < ?',
      [await midnight(t, '2026-04-01'), may.to],
    );
    assert.ok(rows[0].count > 0);
    const res = await get('/api/payouts/totals/', { filter: JSON.stringify({ from: '2026-04-01', to: '2026-05-31' }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.count, res.body.amount], [rows[0].count, rows[0].amount]);
    const payoutRows = await ledgerSum(t, await midnight(t, '2026-04-01'), may.to, `kind = 'payout'`);
    assert.equal(payoutRows.amount, rows[0].amount, 'each payout is one ledger row');
  });

  it('refuses filters and periods it cannot read, with a sentence and the field', async () => {
    const refused = [
      await get('/api/payments/', { from: 'yesterday' }),
      await filtered({ to: '2026-02-30' }),
      await filtered({ kind: 'lost' }),
      await filtered({ vendor: 'DEMO 1; drop' }),
      await filtered({ item: 'print' }),
      await filtered({ colour: 'red' }),
      await get('/api/payments/totals/', { from: '2026-05-01T25:00:00Z' }),
      await get('/api/payments/accounts/', { from: '2026-05-31', to: '2026-05-01' }),
      await get('/api/payments/accounts/', { filter: JSON.stringify({ vendor: 'DEMO-1' }) }),
      await get('/api/payments/', { format: 'csv', from: 'soon' }),
    ];
    for (const res of refused) {
      assert.equal(res.status, 400, `${res.status} ${JSON.stringify(res.body)}`);
      assert.match(res.body.message, /\w+ \w+/);
    }
    assert.ok(refused[0].body.errors.from);
    assert.ok(refused[7].body.errors.to);
  });
});
