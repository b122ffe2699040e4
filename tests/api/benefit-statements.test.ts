import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Db } from '../../api/src/db/connection.ts';
import { counterVisit } from '../../api/src/ledger/counter.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { backdate, backdating, bookHistory, bookPaidOrder, type History } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { pdfPrinter } from '../support/pdf.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// Statements of earnings for vendors on benefits: a six-month statement over the tests' demo
// history, each month's figure checked against the test's own SQL over ledger_rows and
// cash_movements; the gauge of the benefit scheme at a band edge; the page for the job centre
// printed to PDF, one page per vendor, and rendered with pdftoppm.

const run = promisify(execFile);
const zone = 'Europe/Berlin';

interface Month {
  month: string;
  sales: number;
  licences: number;
  feesBorne: number;
  copiesBought: number;
  other: number;
  net: number;
  tips: number;
  payouts: number;
  gauge: { level: string; edge: number | null; allowance: number; counted: number; tips: string };
}

interface Answer {
  months: Month[];
  totals: Omit<Month, 'month' | 'gauge'>;
  averageNet: number;
  purchases: { at: string; copies: number; amount: number; vouchers: string[] }[];
  payouts: { at: string; voucher: string; amount: number; kind: string }[];
  averageGauge: Month['gauge'];
}

/** Per local month of 2026-01 … 2026-06: the vendor's signed sum of the given kinds, written out here. */
async function sqlMonths(db: Db, vendorId: number, kinds: string[]): Promise<Map<string, number>> {
  const { rows } = await db.raw<{ rows: { month: string; total: string | number }[] }>(
    `select to_char(r.created_at at time zone 'Europe/Berlin', 'YYYY-MM') as month,
       sum(case when r.receiver_id = a.id then r.amount else -r.amount end)::bigint as total
     from ledger_accounts a join ledger_rows r on r.receiver_id = a.id or r.sender_id = a.id
     where a.vendor_id = ? and r.kind = any(?::text[])
       and r.created_at >= timestamp '2026-01-01 00:00' at time zone 'Europe/Berlin'
       and r.created_at < timestamp '2026-07-01 00:00' at time zone 'Europe/Berlin'
     group by 1`,
    [vendorId, kinds],
  );
  return new Map(rows.map((row) => [row.month, Number(row.total)]));
}

/** Every kind that is earnings: all a vendor's account moves except tips, cash paid in and payouts. */
const earningKinds = [
  'sale',
  'licence',
  'fee',
  'fee_cover',
  'counter_sale',
  'refund',
  'refund_failed',
  'dispute_vendor',
  'dispute_won',
];

describeApi('statements of earnings for vendors on benefits', (t) => {
  let office = '';
  let history: History;
  let demo = 0;
  let edgeVendor = 0;
  let counterVoucher = '';
  const printer = pdfPrinter();
  after(() => printer.close());

  before(async function () {
    this.timeout(240_000);
    office = await t.office();
    history = await bookHistory(t.db, { orders: 80 });
    demo = history.vendorIds[0]!;
    // DEMO-1 buys four papers (6,00 €) at the counter in June, paying them in cash: the voucher is the cash's.
    const till = await t.db('tills').orderBy('id').first('id');
    const paper = await t.db('items').where({ name: 'Zeitung' }).first('id');
    const open = (await vendorAccountSummary(t.db, demo)).credit;
    await backdating(t.db, async (trx) => {
      const visit = await counterVisit(
        trx,
        {
          visitId: randomUUID(),
          vendorId: demo,
          tillId: till.id,
          lines: [{ itemId: paper.id, quantity: 4 }],
          cash: 600,
          payOut: false,
          expectedCredit: open,
          staff: 'benefit test',
          timeZone: zone,
        },
        publishLedgerEvent,
      );
      const rows = await trx('ledger_rows').where({ counter_visit_id: visit.id }).pluck('id');
      await backdate(trx, 'ledger_rows', rows, new Date('2026-06-10T09:00:00Z'));
      const movement = await trx('cash_movements')
        .where({ counter_visit_id: visit.id })
        .first('till_id', 'year', 'voucher_number');
      counterVoucher = `${movement.till_id}-${movement.year}-${String(movement.voucher_number).padStart(6, '0')}`;
    });
    // A vendor whose February earnings end just above the Bürgergeld band edge of 520 €.
    const created = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: 'EDGE-1', firstName: 'Edda', lastName: 'Grenz', language: 'en' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    edgeVendor = created.body.id;
    for (let day = 1; ; day++) {
      const net = (await sqlMonths(t.db, edgeVendor, earningKinds)).get('2026-02') ?? 0;
      if (net >= 52_000) break;
      const at = new Date(`2026-02-${String(Math.min(day, 27)).padStart(2, '0')}T10:00:00Z`);
      await bookPaidOrder(t.db, edgeVendor, at, { prints: 10, digital: 0, tip: 0 });
    }
  });

  const statement = (id: number, query: Record<string, string> = {}) =>
    t.http
      .get(`/api/vendors/${id}/benefit-statement`)
      .query({ from: '2026-01', to: '2026-06', ...query })
      .set('Authorization', office);

  it('gives each month of six the SQL sums over the ledger: sales, shares, fees, copies, tips, payouts, net', async function () {
    this.timeout(60_000);
    const res = await statement(demo);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = res.body as Answer;
    assert.deepEqual(
      body.months.map((m) => m.month),
      ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'],
    );
    const expected = {
      sales: await sqlMonths(t.db, demo, ['sale']),
      licences: await sqlMonths(t.db, demo, ['licence']),
      feesBorne: await sqlMonths(t.db, demo, ['fee', 'fee_cover']),
      copiesBought: await sqlMonths(t.db, demo, ['counter_sale']),
      tips: await sqlMonths(t.db, demo, ['tip']),
      payouts: await sqlMonths(t.db, demo, ['payout', 'payout_reversal']),
      net: await sqlMonths(t.db, demo, earningKinds),
    };
    for (const month of body.months) {
      for (const [figure, sums] of Object.entries(expected)) {
        assert.equal(month[figure as keyof typeof expected], sums.get(month.month) ?? 0, `${month.month} ${figure}`);
      }
    }
    // The history is sales of March to June, with payouts; the counter visit is June's expense.
    assert.ok(body.months.slice(2).every((m) => m.sales > 0));
    assert.ok(body.months.some((m) => m.payouts < 0));
    assert.ok(body.months.some((m) => m.tips > 0));
    const june = body.months[5];
    assert.ok(june.copiesBought < 0);
    const sum = (figure: keyof Answer['totals']) => body.months.reduce((total, m) => total + m[figure], 0);
    assert.equal(body.totals.net, sum('net'));
    assert.equal(body.averageNet, Math.floor(sum('net') / 6));

    // The copies bought, per visit, with the voucher of the cash paid for them (cash_movements).
    const { rows: visits } = await t.db.raw<{ rows: { copies: string; amount: string }[] }>(
      `select sum(r.quantity)::bigint as copies, sum(r.amount)::bigint as amount
       from ledger_rows r join ledger_accounts a on a.id = r.sender_id
       where a.vendor_id = ? and r.kind = 'counter_sale' group by r.counter_visit_id`,
      [demo],
    );
    assert.deepEqual(
      body.purchases.map((p) => [p.copies, p.amount, p.vouchers]),
      visits.map((v) => [Number(v.copies), -Number(v.amount), [counterVoucher]]),
    );
    assert.equal(body.purchases[0].at, '2026-06-10T09:00:00.000Z');

    // The payouts by date, each with its cash movement's voucher.
    const { rows: payouts } = await t.db.raw<{ rows: { at: Date; voucher: string; amount: string }[] }>(
      `select r.created_at as at, m.till_id || '-' || m.year || '-' || lpad(m.voucher_number::text, 6, '0') as voucher,
         case when r.receiver_id = a.id then r.amount else -r.amount end as amount
       from ledger_accounts a join ledger_rows r on r.receiver_id = a.id or r.sender_id = a.id
       join cash_movements m on m.ledger_row_id = r.id
       where a.vendor_id = ? and r.kind in ('payout', 'payout_reversal')
       order by r.created_at, r.id`,
      [demo],
    );
    assert.ok(payouts.length > 0);
    assert.deepEqual(
      body.payouts.map((p) => [p.at, p.voucher, p.amount]),
      payouts.map((p) => [new Date(p.at).toISOString(), p.voucher, Number(p.amount)]),
    );
  });

  it('warns at a band edge of the benefit scheme, for a vendor placed just above it', async () => {
    const scheme = await t.http.get('/api/settings/benefit-scheme').set('Authorization', office);
    assert.equal(scheme.status, 200);
    assert.equal(scheme.body.scheme, 'de-buergergeld', 'Bürgergeld is the default in Germany');
    assert.deepEqual(
      scheme.body.bands.map((b: { upTo: number }) => b.upTo),
      [10_000, 52_000, 100_000, 120_000],
    );
    // Another country's paper starts with its own law's scheme, or none where the code knows none.
    for (const [country, expected] of [
      ['AT', 'at-grundversorgung'],
      ['CH', 'none'],
      ['GB', 'none'],
    ] as const) {
      await t.db('settings').where({ id: 1 }).update({ country });
      const other = await t.http.get('/api/settings/benefit-scheme').set('Authorization', office);
      assert.equal(other.body.scheme, expected, country);
    }
    await t.db('settings').where({ id: 1 }).update({ country: 'DE' });

    const body = (await statement(edgeVendor)).body as Answer;
    const february = body.months[1];
    const net = (await sqlMonths(t.db, edgeVendor, earningKinds)).get('2026-02')!;
    assert.equal(february.net, net);
    assert.ok(net >= 52_000 && net < 52_000 * 1.1, `placed just above 520 €: ${net}`);
    assert.deepEqual([february.gauge.level, february.gauge.edge], ['near', 52_000]);
    // 100 € free, 20 % of 100–520 €, 30 % of what lies above 520 €.
    assert.equal(february.gauge.allowance, Math.floor((10_000 * 100 + 42_000 * 20 + (net - 52_000) * 30) / 100));
    assert.equal(february.gauge.counted, net - february.gauge.allowance);
    assert.equal(body.months[0].gauge.level, 'ok', 'January earned nothing');

    // The office edits the scheme: an Austrian Grundversorgung limit of 110 € puts February over it.
    const saved = await t.http
      .put('/api/settings/benefit-scheme')
      .set('Authorization', office)
      .send({
        scheme: 'at-grundversorgung',
        bands: [{ upTo: 11_000, percent: 100 }],
        warnPercent: 10,
        tipsFreeUpTo: null,
      });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    try {
      const over = (await statement(edgeVendor)).body as Answer;
      assert.deepEqual([over.months[1].gauge.level, over.months[1].gauge.edge], ['over', 11_000]);
      assert.equal(over.months[1].gauge.allowance, 11_000);
    } finally {
      const back = await t.http
        .put('/api/settings/benefit-scheme')
        .set('Authorization', office)
        .send({ ...scheme.body, presets: undefined });
      assert.equal(back.status, 200, JSON.stringify(back.body));
    }
    const refused = await t.http
      .put('/api/settings/benefit-scheme')
      .set('Authorization', office)
      .send({
        scheme: 'custom',
        bands: [
          { upTo: 500, percent: 100 },
          { upTo: 400, percent: 10 },
        ],
        warnPercent: 10,
        tipsFreeUpTo: null,
      });
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors['bands.1.upTo']);
  });

  it('prints one page per vendor for the job centre, with the letterhead and a signature line', async function () {
    this.timeout(120_000);
    await t
      .db('settings')
      .update({ newspaper_name: 'Straßenzeitung Test', newspaper_address: 'Hauptstraße 1\n10115 Berlin' });
    const one = await statement(demo, { format: 'html', lang: 'de' });
    assert.equal(one.status, 200);
    assert.match(one.headers['content-type'], /text\/html/);
    const single = await printer.print(one.text, `benefit-one-${t.engine}`);
    assert.equal(single.pages, 1);
    for (const text of [
      'Straßenzeitung Test',
      'Hauptstraße 1',
      'Nachweis der Einnahmen',
      'Nettoeinnahmen',
      'Trinkgeld',
      'Unterschrift',
      counterVoucher,
      'Juni 2026',
    ]) {
      assert.ok(single.text.includes(text), `${text} in:\n${single.text}`);
    }
    assert.doesNotMatch(single.text, /Spende/);

    const batch = await t.http
      .get('/api/benefit-statements')
      .query({ from: '2026-01', to: '2026-06', format: 'html' })
      .set('Authorization', office);
    assert.equal(batch.status, 200);
    const json = await t.http
      .get('/api/benefit-statements')
      .query({ from: '2026-01', to: '2026-06' })
      .set('Authorization', office);
    const vendors = (json.body.statements as { vendor: { licenseId: string } }[]).map((s) => s.vendor.licenseId);
    assert.deepEqual(vendors, ['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4', 'DEMO-5', 'EDGE-1']);
    const printed = await printer.print(batch.text, `benefit-batch-${t.engine}`);
    assert.equal(printed.pages, vendors.length, 'one page per vendor');
    assert.ok(printed.text.includes('Statement of earnings'), 'EDGE-1 reads English');
    // pdftoppm renders every page: the job centre's copy is an image of each.
    const prefix = path.join(path.dirname(printed.file), `benefit-batch-${t.engine}`);
    await run('pdftoppm', ['-png', '-r', '40', printed.file, prefix]);
    const images = fs
      .readdirSync(path.dirname(printed.file))
      .filter((name) => name.startsWith(`benefit-batch-${t.engine}-`) && name.endsWith('.png'));
    assert.equal(images.length, vendors.length);
  });

  it('writes the page in the installation’s currency: francs for a German reader, pounds for an English one', async () => {
    const { totals } = (await statement(demo)).body as { totals: { net: number } };
    const decimal = `${Math.trunc(totals.net / 100)}.${String(totals.net % 100).padStart(2, '0')}`;
    const grouped = (apostrophe: string) => decimal.replace(/\B(?=(\d{3})+\.)/g, apostrophe);
    for (const [currency, lang, net] of [
      ['CHF', 'de', `CHF ${grouped("'")}`],
      ['GBP', 'en', `£${grouped(',')}`],
    ] as const) {
      await t.db('settings').update({ currency });
      const res = await statement(demo, { format: 'html', lang });
      assert.equal(res.status, 200, res.text);
      assert.doesNotMatch(res.text, /€|EUR/i, `no euro in ${currency}`);
      const text = res.text.replace(/[\u00a0\u202f]/g, ' ').replace(/&#39;/g, "'");
      assert.ok(text.includes(`<td class="num net">${net}</td>`), `the total net reads ${net}`);
    }
  });

  it('refuses bad periods and formats with a message', async () => {
    const queries: Record<string, string>[] = [
      { from: '2026-13', to: '2026-06' },
      { from: '2026-06', to: '2026-01' },
      { from: '2024-01', to: '2026-06' },
      { format: 'csv' },
      { lang: 'fr' },
    ];
    for (const query of queries) {
      const res = await statement(demo, query);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.ok(typeof res.body.message === 'string' && res.body.message.length > 5);
    }
    assert.equal((await statement(999_999)).status, 404);
  });

  it('refuses a nested, a prototype-keyed or a huge benefit scheme with a message, and keeps the saved one', async () => {
    const before = (await t.http.get('/api/settings/benefit-scheme').set('Authorization', office)).body;
    let nested: unknown = { kind: 'custom' };
    for (let depth = 0; depth < 200; depth++) nested = { bands: [nested] };
    const bodies = [
      nested,
      JSON.parse('{"kind":"custom","__proto__":{"admin":true},"bands":[]}') as unknown,
      { kind: 'custom', bands: Array.from({ length: 50_000 }, (_, i) => ({ from: i, to: i + 1, percent: 10 })) },
    ];
    for (const body of bodies) {
      const res = await t.http
        .put('/api/settings/benefit-scheme')
        .set('Authorization', office)
        .set('Accept-Language', 'de')
        .send(body as object);
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      assert.ok(typeof res.body.message === 'string' && res.body.message.length > 5, JSON.stringify(res.body));
    }
    const after = (await t.http.get('/api/settings/benefit-scheme').set('Authorization', office)).body;
    assert.deepEqual(after, before);
  });
});
