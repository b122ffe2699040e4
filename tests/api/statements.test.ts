import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../api/src/db/connection.ts';
import { counterVisit } from '../../api/src/ledger/counter.ts';
import { payOut, reversePayout } from '../../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { backdate, backdating, bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// Vendor statements: each figure of a month's statement is checked against a sum over the ledger
// written out in SQL here (not through api/src/ledger), in German and English, as JSON, CSV and the
// printable page; a vendor reads their own and no one else's; the year's batch has one section each.

interface Row {
  kind: string;
  label: string;
  at: string | null;
  voucher: string | null;
  count: number | null;
  amount: number;
}

const may = { from: '2026-05-01', to: '2026-05-31' };

/** One signed sum over the vendor's rows, received minus sent, with extra conditions; written out here. */
async function sqlSum(db: Db, vendorId: number, where: string, bindings: string[] = []): Promise<number> {
  const { rows } = await db.raw<{ rows: { total: string | number }[] }>(
    `select coalesce(sum(case when r.receiver_id = a.id then r.amount else -r.amount end), 0)::bigint as total
     from ledger_accounts a join ledger_rows r on r.receiver_id = a.id or r.sender_id = a.id
     where a.vendor_id = ? and (${where})`,
    [vendorId, ...bindings],
  );
  return Number(rows[0].total);
}

/** The instant a local day starts in the newspaper's zone, computed by the database. */
const startOf = (zone: string, day: string) => [`${day} 00:00:00`, zone];
const inMay = (zone: string) => ({
  sql: `r.created_at >= (?::timestamp at time zone ?) and r.created_at < (?::timestamp at time zone ?)`,
  bindings: [...startOf(zone, '2026-05-01'), ...startOf(zone, '2026-06-01')],
});

describeApi('vendor statements', (t) => {
  let office = '';
  let vendor = { id: 0, licenseId: '' };
  let other = { id: 0, licenseId: '' };
  let payoutVoucher = '';
  let reversalVoucher = '';
  const at = (iso: string) => new Date(iso);

  const vendorToken = (licence: string) =>
    t.auth(['vendor'], { sub: `vendor-${licence}`, preferred_username: licence, vendor: licence });

  async function createVendor(licenseId: string, fields: Record<string, unknown> = {}) {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId, firstName: 'Mira', lastName: 'Statement', ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: number; licenseId: string };
  }

  before(async function () {
    this.timeout(120_000);
    office = await t.office();
    await t.db('settings').update({ use_tip_instead_of_donation: true });
    vendor = await createVendor('STM-1', { language: 'de' });
    other = await createVendor('STM-2', { language: 'en', firstName: 'Omar' });
    // April: the credit the statement opens with.
    await bookPaidOrder(t.db, vendor.id, at('2026-04-10T10:00:00Z'), { prints: 2, digital: 0, tip: 0 });
    // May: sales, a digital edition (its licence share), tips, fees with and without cover.
    await bookPaidOrder(t.db, vendor.id, at('2026-05-03T10:00:00Z'), { prints: 2, digital: 1, tip: 150 });
    await bookPaidOrder(t.db, vendor.id, at('2026-05-05T10:00:00Z'), { prints: 1, digital: 0, tip: 0 });
    await bookPaidOrder(t.db, vendor.id, at('2026-05-06T10:00:00Z'), { prints: 1, digital: 0, tip: 100 });
    // A payout on 10 May, reversed on 12 May, and one more sale.
    const { credit } = await vendorAccountSummary(t.db, vendor.id);
    await backdating(t.db, async (trx) => {
      const id = await payOut(
        trx,
        {
          vendorId: vendor.id,
          expectedAmount: credit,
          authorisedBy: 'statement test',
          timeZone: t.config.timeZone,
        },
        publishLedgerEvent,
      );
      const row = await trx('ledger_rows').where({ payout_id: id, kind: 'payout' }).first('id');
      await backdate(trx, 'payouts', [id], at('2026-05-10T09:00:00Z'));
      await backdate(trx, 'ledger_rows', [row.id], at('2026-05-10T09:00:00Z'));
      await reversePayout(
        trx,
        {
          payoutId: id,
          reason: 'Wrong vendor',
          authorisedBy: 'statement test',
          timeZone: t.config.timeZone,
        },
        publishLedgerEvent,
      );
      const reversal = await trx('ledger_rows').where({ reversal_of: row.id }).first('id');
      await backdate(trx, 'ledger_rows', [reversal.id], at('2026-05-12T09:00:00Z'));
      // Each movement's own voucher, as the cash book numbers it.
      const voucherOf = async (rowId: number) => {
        const m = await trx('cash_movements')
          .where({ ledger_row_id: rowId })
          .first('till_id', 'year', 'voucher_number');
        return `${m.till_id}-${m.year}-${String(m.voucher_number).padStart(6, '0')}`;
      };
      payoutVoucher = await voucherOf(row.id);
      reversalVoucher = await voucherOf(reversal.id);
    });
    await bookPaidOrder(t.db, vendor.id, at('2026-05-20T10:00:00Z'), { prints: 3, digital: 0, tip: 0 });
    // At the counter on 21 May: 4 papers, 2,00 € of them paid in cash, the rest from the credit.
    const open = (await vendorAccountSummary(t.db, vendor.id)).credit;
    const till = await t.db('tills').orderBy('id').first('id');
    const paper = await t.db('items').where({ name: 'Zeitung' }).first('id');
    await backdating(t.db, async (trx) => {
      const visit = await counterVisit(
        trx,
        {
          visitId: randomUUID(),
          vendorId: vendor.id,
          tillId: till.id,
          lines: [{ itemId: paper.id, quantity: 4 }],
          cash: 200,
          payOut: false,
          expectedCredit: open,
          staff: 'statement test',
          timeZone: t.config.timeZone,
        },
        publishLedgerEvent,
      );
      const rows = await trx('ledger_rows').where({ counter_visit_id: visit.id }).pluck('id');
      await backdate(trx, 'ledger_rows', rows, at('2026-05-21T09:00:00Z'));
    });
    // June: after the period, it must not count.
    await bookPaidOrder(t.db, vendor.id, at('2026-06-02T10:00:00Z'), { prints: 1, digital: 0, tip: 250 });
    await bookPaidOrder(t.db, other.id, at('2026-05-08T10:00:00Z'), { prints: 1, digital: 1, tip: 0 });
  });

  const statement = (id: number, query: Record<string, string> = {}) =>
    t.http
      .get(`/api/vendors/${id}/statement`)
      .query({ ...may, ...query })
      .set('Authorization', office);

  it('shows each figure of a month as a direct SQL sum over the ledger says', async function () {
    this.timeout(60_000);
    const zone = t.config.timeZone;
    const period = inMay(zone);
    const res = await statement(vendor.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = res.body as {
      openingCredit: number;
      closingCredit: number;
      figures: Record<string, number>;
      rows: Row[];
      language: string;
      vouchers: { voucher: string; reverses: string | null; amount: number; kind: string }[];
    };
    const opening = await sqlSum(
      t.db,
      vendor.id,
      `r.created_at < (?::timestamp at time zone ?)`,
      startOf(zone, '2026-05-01'),
    );
    const closing = await sqlSum(
      t.db,
      vendor.id,
      `r.created_at < (?::timestamp at time zone ?)`,
      startOf(zone, '2026-06-01'),
    );
    const ofKind = (kinds: string) =>
      sqlSum(t.db, vendor.id, `r.kind in (${kinds}) and ${period.sql}`, period.bindings);
    assert.ok(opening > 0, 'the April sale opens the month');
    assert.equal(body.openingCredit, opening);
    assert.equal(body.closingCredit, closing);
    assert.equal(body.figures.sales, await ofKind(`'sale'`));
    assert.equal(body.figures.tips, await ofKind(`'tip'`));
    assert.equal(body.figures.licences, await ofKind(`'licence'`));
    assert.equal(body.figures.feesBorne, await ofKind(`'fee', 'fee_cover'`));
    assert.equal(body.figures.payouts, await ofKind(`'payout'`));
    assert.equal(body.figures.reversals, await ofKind(`'payout_reversal'`));
    assert.equal(body.figures.counter, await ofKind(`'counter_sale', 'counter_cash'`));
    assert.equal(body.figures.counter, -400, 'four papers at 1,50 €, 2,00 € of them in cash');
    const counterRow = body.rows.find((row) => row.kind === 'counter_sale')!;
    assert.deepEqual([counterRow.label, counterRow.count, counterRow.amount], ['Kauf an der Theke: Zeitung', 4, -600]);
    assert.ok(body.figures.sales > 0 && body.figures.tips === 250 && body.figures.licences < 0);
    assert.ok(body.figures.feesBorne < 0, 'at least one fee was not covered');
    assert.ok(body.figures.payouts < 0 && body.figures.reversals === -body.figures.payouts);

    // Per item: count and amount of the sales, as SQL groups them.
    const { rows: perItem } = await t.db.raw<{ rows: { name: string; count: string; amount: string }[] }>(
      `select i.name, sum(r.quantity)::bigint as count, sum(r.amount)::bigint as amount
       from ledger_rows r join ledger_accounts a on a.id = r.receiver_id join items i on i.id = r.item_id
       where a.vendor_id = ? and r.kind = 'sale' and ${period.sql} group by i.name order by i.name`,
      [vendor.id, ...period.bindings],
    );
    const saleRows = body.rows.filter((row) => row.kind === 'sale');
    assert.deepEqual(
      saleRows
        .map((row) => ({ label: row.label, count: row.count, amount: row.amount }))
        .sort((a, b) => a.label.localeCompare(b.label)),
      perItem.map((item) => ({
        label: `Verkauf: ${item.name}`,
        count: Number(item.count),
        amount: Number(item.amount),
      })),
    );

    // The payout with its date and voucher, and its reversal with its own voucher, naming the payout's.
    const payoutRow = body.rows.find((row) => row.kind === 'payout')!;
    assert.equal(payoutRow.voucher, payoutVoucher);
    assert.equal(payoutRow.at, '2026-05-10T09:00:00.000Z');
    const reversalRow = body.rows.find((row) => row.kind === 'payout_reversal')!;
    assert.notEqual(reversalVoucher, payoutVoucher);
    assert.equal(reversalRow.voucher, reversalVoucher);
    assert.match(reversalRow.label, new RegExp(`\\(Storno zu ${payoutVoucher}\\)$`));
    assert.deepEqual(
      body.vouchers.map((v) => [v.kind, v.voucher, v.reverses]),
      [
        ['payout', payoutVoucher, null],
        ['payout_reversal', reversalVoucher, payoutVoucher],
      ],
    );

    // Opening plus every line in between is the closing credit.
    const lines = body.rows.filter((row) => row.kind !== 'opening' && row.kind !== 'closing');
    assert.equal(opening + lines.reduce((sum, row) => sum + row.amount, 0), closing);
    assert.equal(body.rows[0].kind, 'opening');
    assert.equal(body.rows.at(-1)!.kind, 'closing');
  });

  it('speaks the vendor’s language, or the one asked for, with tips as Trinkgeld whatever the shop says', async () => {
    const german = (await statement(vendor.id)).body as { language: string; rows: Row[] };
    assert.equal(german.language, 'de');
    const labels = german.rows.map((row) => row.label);
    assert.ok(labels.includes('Trinkgeld'), labels.join(' | '));
    assert.ok(labels.includes('Kartengebühren, selbst getragen'));
    assert.ok(labels.some((label) => label.startsWith('Lizenzanteil: ')));
    assert.ok(labels.includes('Auszahlung'));
    assert.ok(labels.some((label) => /^Auszahlung storniert \(Storno zu \d+-\d{4}-\d{6}\)$/.test(label)));
    assert.equal(labels[0], 'Guthaben am Beginn des Zeitraums');

    const english = (await statement(other.id)).body as { language: string; rows: Row[] };
    assert.equal(english.language, 'en', 'the vendor’s language is English');
    const asked = (await statement(vendor.id, { lang: 'en' })).body as { rows: Row[] };
    const englishLabels = asked.rows.map((row) => row.label);
    assert.ok(englishLabels.includes('Tip') && englishLabels.includes('Card fees borne'), englishLabels.join(' | '));
    assert.ok(englishLabels.some((label) => label.startsWith('Licence share: ')));
    assert.ok(englishLabels.includes('Payout'));
    assert.ok(englishLabels.some((label) => label.startsWith('Payout reversed (Reversal of ')));

    // A shop that says "Spende" still has tips on the statement: the job centre reads "Trinkgeld".
    await t.db('settings').update({ use_tip_instead_of_donation: false });
    try {
      const labels = (await statement(vendor.id)).body.rows.map((row: Row) => row.label);
      assert.ok(labels.includes('Trinkgeld') && !labels.includes('Spende'), labels.join(' | '));
      assert.ok((await statement(vendor.id, { lang: 'en' })).body.rows.some((row: Row) => row.label === 'Tip'));
    } finally {
      await t.db('settings').update({ use_tip_instead_of_donation: true });
    }
  });

  it('answers the CSV of our other CSVs, with German or English headers, and the same figures', async () => {
    const json = (await statement(vendor.id)).body as { rows: Row[] };
    for (const [lang, header] of [
      ['de', '"Lizenz-Nr.";"Verkäuferin oder Verkäufer";"Von";"Bis";"Datum";"Position";"Beleg";"Anzahl";"Betrag"'],
      ['en', '"Licence ID";"Vendor";"From";"To";"Date";"Item";"Voucher";"Count";"Amount"'],
    ] as const) {
      const res = await statement(vendor.id, { format: 'csv', lang })
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (chunk: string) => (text += chunk));
          r.on('end', () => done(null, text));
        });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /text\/csv/);
      assert.match(res.headers['content-disposition'], /abrechnung_STM-1_2026-05-01_2026-05-31\.csv/);
      const text = res.body as string;
      assert.ok(text.startsWith('\uFEFF'), 'a byte order mark');
      const lines = text.slice(1).trim().split('\r\n');
      assert.equal(lines[0], header);
      assert.equal(lines.length, json.rows.length + 1);
      const last = lines.at(-1)!.split(';');
      const closing = json.rows.at(-1)!.amount;
      assert.equal(last.at(-1), `"${Math.trunc(closing / 100)},${String(closing % 100).padStart(2, '0')}"`);
      assert.ok(last[2] === '"2026-05-01"' && last[3] === '"2026-05-31"');
    }
  });

  it('prints the statement as a page in the vendor’s language, texts escaped', async () => {
    await t.db('vendors').where({ id: other.id }).update({ last_name: '<b>Omarson</b>' });
    const res = await statement(other.id, { format: 'html' });
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type'], /text\/html/);
    assert.match(res.headers['content-security-policy'], /default-src 'none'/);
    assert.match(res.text, /<html lang="en">/);
    assert.match(res.text, /@page\{size:A4/);
    assert.match(res.text, /Statement/);
    assert.match(res.text, /&lt;b&gt;Omarson&lt;\/b&gt;/);
    assert.doesNotMatch(res.text, /<b>Omarson/);
    const german = await statement(vendor.id, { format: 'html' });
    assert.match(german.text, /<html lang="de">/);
    assert.match(german.text, /Abrechnung/);
    assert.match(german.text, /STM-1/);
    assert.match(german.text, /01\.05\.2026 – 31\.05\.2026/);
  });

  it('prints the statement and its CSV in the installation’s currency: francs for a German reader, yen for an English one', async () => {
    const closing = ((await statement(vendor.id)).body as { rows: Row[] }).rows.at(-1)!.amount;
    const page = async (id: number) => {
      const res = await statement(id, { format: 'html' });
      assert.equal(res.status, 200, res.text);
      assert.doesNotMatch(res.text, /€|EUR/i, 'no euro in another currency');
      return res.text.replace(/[\u00a0\u202f]/g, ' ').replace(/&#39;/g, "'");
    };
    const cents = `${Math.trunc(closing / 100)}.${String(closing % 100).padStart(2, '0')}`;
    await t.db('settings').update({ currency: 'CHF' });
    assert.ok(
      (await page(vendor.id)).includes(`<td class="num">CHF ${cents}</td></tr>`),
      `the German statement closes with CHF ${cents}`,
    );
    await t.db('settings').update({ currency: 'JPY' });
    const yen = ((await statement(other.id)).body as { rows: Row[] }).rows.at(-1)!.amount;
    const english = await page(other.id);
    assert.ok(english.includes(`<td class="num">¥${yen.toLocaleString('en-US')}</td></tr>`), `closes with ¥${yen}`);
    assert.doesNotMatch(english, /¥[\d,]+\.\d/, 'yen have no decimals');
    const csv = await statement(vendor.id, { format: 'csv' });
    assert.equal(csv.status, 200);
    assert.match(csv.text.trim().split('\r\n').at(-1)!, new RegExp(`;"${closing}"$`), 'whole yen in the CSV');
  });

  it("lets a vendor read their own statements and months, and no one else's", async () => {
    const token = await vendorToken(vendor.licenseId);
    const own = await t.http.get('/api/vendors/me/statement').query(may).set('Authorization', token);
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const asOffice = (await statement(vendor.id)).body;
    assert.equal(own.body.closingCredit, asOffice.closingCredit);
    assert.deepEqual(own.body.rows, asOffice.rows);
    const months = await t.http.get('/api/vendors/me/statements').set('Authorization', token);
    assert.deepEqual(months.body.months, ['2026-06', '2026-05', '2026-04']);
    const page = await t.http
      .get('/api/vendors/me/statement')
      .query({ ...may, format: 'html' })
      .set('Authorization', token);
    assert.equal(page.status, 200);
    assert.match(page.text, /STM-1/);

    for (const path of [
      `/api/vendors/${other.id}/statement`,
      `/api/vendors/${vendor.id}/statement`,
      '/api/statements',
    ]) {
      const refused = await t.http
        .get(path)
        .query({ ...may, year: '2026' })
        .set('Authorization', token);
      assert.equal(refused.status, 403, `${path}: ${refused.status}`);
      assert.doesNotMatch(JSON.stringify(refused.body), /closingCredit/);
    }
    const anonymous = await t.http.get('/api/vendors/me/statement').query(may);
    assert.equal(anonymous.status, 401);
  });

  it('answers the batch of a year: one statement and one page section per vendor, as each alone', async function () {
    this.timeout(60_000);
    const json = await t.http.get('/api/statements').query({ year: '2026' }).set('Authorization', office);
    assert.equal(json.status, 200, JSON.stringify(json.body));
    const all = json.body.statements as { vendor: { id: number; licenseId: string }; closingCredit: number }[];
    const { rows: moved } = await t.db.raw<{ rows: { vendor_id: number }[] }>(
      `select distinct a.vendor_id from ledger_accounts a join ledger_rows r on r.receiver_id = a.id or r.sender_id = a.id
       where a.vendor_id is not null and r.created_at >= (?::timestamp at time zone ?) and r.created_at < (?::timestamp at time zone ?)`,
      [...startOf(t.config.timeZone, '2026-01-01'), ...startOf(t.config.timeZone, '2027-01-01')],
    );
    assert.deepEqual(all.map((s) => s.vendor.id).sort(), moved.map((m) => m.vendor_id).sort());
    const mine = all.find((s) => s.vendor.id === vendor.id)!;
    const alone = await t.http
      .get(`/api/vendors/${vendor.id}/statement`)
      .query({ from: '2026-01-01', to: '2026-12-31' })
      .set('Authorization', office);
    assert.equal(mine.closingCredit, alone.body.closingCredit);

    const page = await t.http
      .get('/api/statements')
      .query({ year: '2026', format: 'html' })
      .set('Authorization', office);
    assert.equal(page.status, 200);
    assert.equal(page.text.match(/<section class="sheet"/g)?.length, all.length);
    assert.match(page.text, /\.sheet\+\.sheet\{break-before:page\}/);
    assert.match(page.text, /<section class="sheet" lang="en"/, 'the English-reading vendor’s section is in English');
    assert.match(page.text, /<section class="sheet" lang="de"/);
  });

  it('refuses bad input with a message, never a 500', async () => {
    const cases: [string, Record<string, string>][] = [
      [`/api/vendors/${vendor.id}/statement`, { from: '2026-05-01' }],
      [`/api/vendors/${vendor.id}/statement`, { from: '2026-05-31', to: '2026-05-01' }],
      [`/api/vendors/${vendor.id}/statement`, { ...may, format: 'xml' }],
      [`/api/vendors/${vendor.id}/statement`, { ...may, lang: 'fr' }],
      [`/api/vendors/${vendor.id}/statement`, { from: '2026-02-30', to: '2026-03-01' }],
      ['/api/statements', { year: 'abc' }],
      ['/api/statements', {}],
      ['/api/statements', { year: '99999' }],
    ];
    for (const [path, query] of cases) {
      const res = await t.http.get(path).query(query).set('Authorization', office);
      assert.equal(res.status, 400, `${path} ${JSON.stringify(query)}: ${res.status}`);
      assert.ok(typeof res.body.message === 'string' && res.body.message.length > 5);
    }
    const missing = await t.http.get('/api/vendors/999999/statement').query(may).set('Authorization', office);
    assert.equal(missing.status, 404);
    const junk = await t.http.get('/api/vendors/abc/statement').query(may).set('Authorization', office);
    assert.equal(junk.status, 400);
  });
});
