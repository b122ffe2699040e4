import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { bookHistory, type History } from '../support/books.ts';
import { describeApi, type ApiTest } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { parseDatev, type DatevFile } from '../support/datev.ts';

// the DATEV file of a period parses back (EXTF header, column heading, one
// line per booking or per day and kind, Windows-1252) and its amounts sum per account to the
// ledger's movements of the period, computed here by direct SQL. The parser below is the test's
// own: it knows nothing of the export's code.

const zone = 'Europe/Berlin';

/** "12,34" → 1234 cents. */
const cents = (amount: string) => {
  assert.match(amount, /^\d+,\d{2}$/, 'a decimal comma, no thousands separator, no sign');
  const [euros, rest] = amount.split(',');
  return Number(euros) * 100 + Number(rest);
};

const settings = {
  adviserNumber: '29098',
  clientNumber: '55003',
  fiscalYearMonth: 1,
  fiscalYearDay: 1,
  chart: 'SKR03',
  accountLength: 4,
  vendorAccounts: 'collective',
  accounts: {
    customers: '1360',
    orga: '8300',
    cash: '1000',
    bank: '1200',
    provider: '4970',
    disputes: '2400',
    vendors: '1600',
    otherIncome: '2700',
    otherExpense: '4980',
    shortfall: '4900',
    surplus: '2705',
  },
  vendorBase: '70000',
};

/**
 * The ledger's account each DATEV account belongs to: the transit account holds the card money and
 * what Stripe keeps of it (customers, provider), the newspaper's revenue, fees and chargebacks are all
 * its own account (orga).
 */
type Group = 'customers' | 'orga' | 'cash' | 'bank' | 'vendor';
const groupOf: Record<string, Group> = {
  '1360': 'customers',
  '8300': 'orga',
  '4970': 'orga',
  '2400': 'orga',
  '1000': 'cash',
  '1200': 'bank',
  '1600': 'vendor',
};

const nonZero = (sums: Record<string, number>) => Object.fromEntries(Object.entries(sums).filter(([, n]) => n !== 0));

describeApi('DATEV export', (t: ApiTest) => {
  let history: History;
  let http: supertest.Agent;
  let office: string;
  let may: { from: Date; to: Date };
  let year: { from: Date; to: Date };

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const saveSettings = (body: unknown) => as(http.put('/api/accounting/datev/settings')).send(body as object);
  /** The export as bytes, as the browser receives it. */
  const download = (query: Record<string, string>) =>
    as(http.get('/api/accounting/datev').query(query))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const datev = async (query: Record<string, string>) => {
    const res = await download(query);
    assert.equal(res.status, 200, String(res.body));
    return { res, file: parseDatev(res.body as Buffer) };
  };

  async function midnight(day: string): Promise<Date> {
    const { rows } = await t.db.raw('select (?::date)::timestamp at time zone ? as at', [day, zone]);
    return rows[0].at;
  }

  /**
   * The ledger's movements of the period per account kind (S − H: sent minus received), what Stripe
   * keeps (provider) with the card money in transit (customers).
   */
  async function ledgerMovements(period: { from: Date; to: Date }): Promise<Partial<Record<Group, number>>> {
    const { rows } = await t.db.raw(
      `with p as (select * from ledger_rows where created_at >= ? and created_at < ?),
       sides as (
         select a.kind, p.amount as delta from p join ledger_accounts a on a.id = p.sender_id
         union all
         select a.kind, -p.amount from p join ledger_accounts a on a.id = p.receiver_id)
       select case kind when 'provider' then 'customers' else kind end as kind, sum(delta)::bigint as amount
       from sides group by 1`,
      [period.from, period.to],
    );
    return Object.fromEntries(
      (rows as { kind: Group; amount: number }[])
        .filter((row) => Number(row.amount) !== 0)
        .map((row) => [row.kind, Number(row.amount)]),
    );
  }

  /** The file's amounts per account: S adds to the account and takes from the contra account, H the other way. */
  function fileMovements(file: DatevFile, role: (account: string) => string): Record<string, number> {
    const sums: Record<string, number> = {};
    for (const line of file.lines) {
      const amount = cents(file.get(line, 'Umsatz (ohne Soll/Haben-Kz)'));
      const side = file.get(line, 'Soll/Haben-Kennzeichen');
      assert.ok(side === 'S' || side === 'H', side);
      const signed = side === 'S' ? amount : -amount;
      const account = role(file.get(line, 'Konto'));
      const contra = role(file.get(line, 'Gegenkonto (ohne BU-Schlüssel)'));
      sums[account] = (sums[account] ?? 0) + signed;
      sums[contra] = (sums[contra] ?? 0) - signed;
    }
    return sums;
  }

  const rowsIn = async (period: { from: Date; to: Date }) =>
    Number(
      (
        await t
          .db('ledger_rows')
          .where('created_at', '>=', period.from)
          .where('created_at', '<', period.to)
          .count({ n: '*' })
      )[0].n,
    );

  before(async function () {
    this.timeout(180_000);
    history = await bookHistory(t.db, { orders: 60 });
    http = supertest
      .agent(buildApp({ db: t.db, config: { ...t.config, timeZone: zone } }).callback())
      .set('Accept-Language', 'en');
    office = await t.office();
    // A name with umlauts, on the vendor of the first orders in May.
    const mayVendor = (await t.db('orders').where({ id: history.edgeOrders.mayStart }).first('vendor_id')).vendor_id;
    await t.db('vendors').where({ id: mayVendor }).update({ first_name: 'Jürgen', last_name: 'Öztürk' });
    // A counter visit paid in cash (today, outside May, inside the fiscal year of today).
    const shown = await as(http.get('/api/counter/vendor').query({ vendor: 'DEMO-3' }));
    const visit = await as(http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-3',
      tillId: shown.body.tills[0].id,
      items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 4 }],
      cash: 600,
      payOut: false,
      expectedCredit: shown.body.credit,
    });
    assert.equal(visit.status, 201, JSON.stringify(visit.body));
    may = { from: await midnight('2026-05-01'), to: await midnight('2026-06-01') };
  });

  it('refuses an export before the adviser and client numbers are set', async () => {
    const res = await download({ from: '2026-05-01', to: '2026-05-31' });
    assert.equal(res.status, 400);
    assert.match(JSON.parse(String(res.body)).message, /adviser number/);
  });

  it('checks the settings: digits only, lengths that fit, no unknown or prototype keys', async () => {
    const refused = async (body: object, field: string) => {
      const res = await saveSettings(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.ok(res.body.errors?.[field], `${field}: ${JSON.stringify(res.body)}`);
      return res.body.errors[field];
    };
    await refused({ ...settings, adviserNumber: '12ab' }, 'adviserNumber');
    await refused({ ...settings, clientNumber: '123456' }, 'clientNumber');
    await refused({ ...settings, accountLength: 9 }, 'accountLength');
    assert.equal(
      await refused({ ...settings, accounts: { ...settings.accounts, orga: '83000' } }, 'accounts.orga'),
      'Please give at most 4 digits, as the account length says.',
    );
    await refused({ ...settings, accounts: { ...settings.accounts, orga: '1360' } }, 'accounts.orga');
    assert.equal(
      await refused({ ...settings, vendorBase: '700000' }, 'vendorBase'),
      'Personal accounts have 5 digits: one more than the account length.',
    );
    await refused({ ...settings, fiscalYearMonth: 2, fiscalYearDay: 29 }, 'fiscalYearDay');
    await refused({ ...settings, chart: 'SKR49' }, 'chart');
    const polluted = await as(http.put('/api/accounting/datev/settings'))
      .set('Content-Type', 'application/json')
      .send(`{"__proto__": {"admin": true}, ${JSON.stringify(settings).slice(1)}`);
    assert.equal(polluted.status, 400, JSON.stringify(polluted.body));
    const vendor = await t.auth(['vendor'], { preferred_username: 'vendor' });
    assert.equal(
      (await http.put('/api/accounting/datev/settings').set('Authorization', vendor).send(settings)).status,
      403,
    );

    // What is not stored (or no longer passes its check) takes the chart's default.
    await t.db('settings').update({ datev: JSON.stringify({ chart: 'SKR04', accountLength: 'five' }) });
    const partial = await as(http.get('/api/accounting/datev/settings/'));
    assert.deepEqual(
      [partial.body.chart, partial.body.accountLength, partial.body.accounts.cash],
      ['SKR04', 4, '1600'],
    );
    await t.db('settings').update({ datev: '{}' });
    const defaults = await as(http.get('/api/accounting/datev/settings'));
    assert.equal(defaults.status, 200);
    assert.equal(defaults.body.chart, 'SKR03');
    assert.equal(defaults.body.accounts.cash, '1000');
    assert.equal(defaults.body.chartDefaults.SKR04.cash, '1600');
    const saved = await saveSettings(settings);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.adviserNumber, '29098');
    // The cash rounding's account, not sent, takes the chart's default.
    assert.deepEqual(saved.body.accounts, { ...settings.accounts, rounding: '4901' });
    // Settings saved before the export knew every kind of account: the new ones take the chart's
    // default, an account of a kind it no longer books is left out, the others stay.
    await t.db('settings').update({
      datev: JSON.stringify({ ...settings, accounts: { customers: '1361', orga: '8300', donations: '1590' } }),
    });
    const older = await as(http.get('/api/accounting/datev/settings'));
    assert.equal(older.body.accounts.customers, '1361');
    assert.equal(older.body.accounts.shortfall, '4900');
    assert.equal(older.body.accounts.donations, undefined);
    assert.equal((await saveSettings(settings)).status, 200);
  });

  it('writes May as an EXTF Buchungsstapel: header, column heading, one line per ledger row, Windows-1252', async () => {
    const { res, file } = await datev({ from: '2026-05-01', to: '2026-05-31' });
    assert.equal(res.headers['content-type'], 'text/csv; charset=windows-1252');
    assert.match(res.headers['content-disposition'], /filename="EXTF_Buchungsstapel_2026-05-01_2026-05-31\.csv"/);

    const h = file.header;
    assert.equal(h.length, 31);
    assert.deepEqual(h.slice(0, 5), ['EXTF', '700', '21', 'Buchungsstapel', '13']);
    assert.match(h[5], /^\d{17}$/, 'created yyyymmddHHMMSSfff');
    assert.deepEqual(h.slice(10, 16), ['29098', '55003', '20260101', '4', '20260501', '20260531']);
    assert.ok(h[16].length <= 30 && h[16].length > 0, 'a name of the batch');
    assert.equal(h[21], 'EUR');
    assert.equal(h[26], '03', 'SKR03');

    assert.equal(file.columns.length, 125);
    assert.deepEqual(file.columns.slice(0, 14), [
      'Umsatz (ohne Soll/Haben-Kz)',
      'Soll/Haben-Kennzeichen',
      'WKZ Umsatz',
      'Kurs',
      'Basis-Umsatz',
      'WKZ Basis-Umsatz',
      'Konto',
      'Gegenkonto (ohne BU-Schlüssel)',
      'BU-Schlüssel',
      'Belegdatum',
      'Belegfeld 1',
      'Belegfeld 2',
      'Skonto',
      'Buchungstext',
    ]);
    for (const [n, line] of file.lines.entries()) assert.equal(line.length, 125, `fields of booking line ${n + 1}`);
    assert.equal(file.lines.length, await rowsIn(may), 'one line per ledger row of May');

    // Only May: every voucher date is in May, the orders at the edges fall in or out as the period says.
    for (const line of file.lines) assert.match(file.get(line, 'Belegdatum'), /^(0[1-9]|[12]\d|3[01])05$/);
    const vouchers = new Set(file.lines.map((line) => file.get(line, 'Belegfeld 1')));
    assert.ok(
      vouchers.has(String(history.edgeOrders.mayStart)) && vouchers.has(String(history.edgeOrders.mayLast)),
      JSON.stringify([history.edgeOrders, [...vouchers].slice(0, 30)]),
    );
    assert.ok(
      !vouchers.has(String(history.edgeOrders.beforeMay)) && !vouchers.has(String(history.edgeOrders.juneStart)),
    );
    // The payouts of May carry their cash book vouchers (the history's oldest, from before the till, their receipts).
    const { rows: payoutRows } = await t.db.raw(
      `select coalesce(c.till_id || '-' || c.year || '-' || lpad(c.voucher_number::text, 6, '0'), p.receipt_number) as voucher
       from ledger_rows r join payouts p on p.id = r.payout_id left join cash_movements c on c.ledger_row_id = r.id
       where r.kind = 'payout' and r.created_at >= ? and r.created_at < ?`,
      [may.from, may.to],
    );
    const payoutVouchers = (payoutRows as { voucher: string }[]).map((row) => row.voucher);
    assert.ok(payoutVouchers.length > 0);
    for (const voucher of payoutVouchers) assert.ok(vouchers.has(voucher), `payout voucher ${voucher}`);
    for (const line of file.lines) assert.ok(file.get(line, 'Buchungstext').length <= 60);

    // "Jürgen Öztürk" and "Kartengebühr" as single Windows-1252 bytes (ü = FC, Ö = D6), not UTF-8.
    const texts = file.lines.map((line) => file.get(line, 'Buchungstext'));
    assert.ok(texts.some((text) => text.includes('Jürgen Öztürk')));
    assert.ok(texts.some((text) => text.startsWith('Kartengebühr')));
    assert.ok(file.bytes.includes(Buffer.from([0x4a, 0xfc, 0x72, 0x67, 0x65, 0x6e]))); // "Jürgen"
    assert.ok(file.bytes.includes(Buffer.from([0xd6, 0x7a, 0x74, 0xfc, 0x72, 0x6b]))); // "Öztürk"
    assert.ok(!file.bytes.includes(Buffer.from([0xc3, 0xbc])), 'no UTF-8 ü');

    const sums = fileMovements(file, (account) => groupOf[account] ?? `unknown ${account}`);
    const ledger = await ledgerMovements(may);
    assert.deepEqual(nonZero(sums), ledger);
    assert.ok(ledger.customers && ledger.orga && ledger.cash && ledger.vendor);
  });

  it('sums per day and kind in daily mode, to the same movements', async () => {
    const { file } = await datev({ from: '2026-05-01', to: '2026-05-31', mode: 'daily' });
    const days = new Set(file.lines.map((line) => file.get(line, 'Belegdatum')));
    const lineKeys = file.lines.map((line) =>
      ['Belegdatum', 'Konto', 'Gegenkonto (ohne BU-Schlüssel)', 'Buchungstext']
        .map((column) => (column === 'Buchungstext' ? file.get(line, column).split(',')[0] : file.get(line, column)))
        .join(' '),
    );
    assert.equal(new Set(lineKeys).size, lineKeys.length, 'one line per day, kind and pair of accounts');
    assert.ok(days.size > 1, 'the days of May');
    assert.ok(file.lines.length < (await rowsIn(may)));
    for (const line of file.lines) assert.equal(line.length, 125);
    const sums = fileMovements(file, (account) => groupOf[account] ?? `unknown ${account}`);
    assert.deepEqual(nonZero(sums), await ledgerMovements(may));
  });

  it('books each vendor on a personal account, and covers the counter, in a whole fiscal year', async () => {
    const saved = await saveSettings({
      ...settings,
      chart: 'SKR04',
      vendorAccounts: 'personal',
      accounts: { ...settings.accounts },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    // Today where the newspaper is: an hour after midnight there, UTC still has yesterday.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    const yearStart = `${today.slice(0, 4)}-01-01`;
    year = { from: await midnight(yearStart), to: await midnight(`${today.slice(0, 4)}-12-31`) };
    const { file } = await datev({ from: yearStart, to: today });
    assert.equal(file.header[26], '04', 'SKR04');
    const fileSums = fileMovements(file, (account) => account);
    // Each vendor's personal account (base 70000 + vendor number) against its ledger account.
    const { rows } = await t.db.raw(
      `select a.vendor_id, coalesce(sum(case when r.sender_id = a.id then r.amount else -r.amount end), 0)::bigint as amount
       from ledger_accounts a join ledger_rows r on (r.sender_id = a.id or r.receiver_id = a.id)
       where a.kind = 'vendor' and r.created_at >= ? and r.created_at < ?
       group by a.vendor_id`,
      [year.from, new Date()],
    );
    assert.ok(rows.length >= 3);
    for (const row of rows as { vendor_id: number; amount: number }[])
      assert.equal(fileSums[String(70000 + row.vendor_id)] ?? 0, Number(row.amount), `vendor ${row.vendor_id}`);
    // The counter visit: the copies on the newspaper's revenue, the cash with the cash book's voucher.
    const cash = await t.db('cash_movements').where({ kind: 'counter_cash' }).orderBy('id', 'desc').first();
    const voucher = `${cash.till_id}-${cash.year}-${String(cash.voucher_number).padStart(6, '0')}`;
    const counterLines = file.lines.filter((line) => file.get(line, 'Belegfeld 1') === voucher);
    assert.deepEqual(
      counterLines.map((line) => [file.get(line, 'Konto'), file.get(line, 'Umsatz (ohne Soll/Haben-Kz)')]).sort(),
      [
        ['1000', '6,00'],
        [String(70000 + cash.vendor_id), '6,00'],
      ],
    );
  });

  it('refuses a period that is open, crosses a fiscal year or names an unknown mode', async () => {
    const refused = async (query: Record<string, string>, pattern: RegExp) => {
      const res = await download(query);
      assert.equal(res.status, 400, String(res.body));
      const body = JSON.parse(String(res.body));
      assert.match(body.message, pattern);
      return body;
    };
    await refused({ from: '2026-05-01' }, /first and the last day/);
    // The last day the export may reach, in the reader's format.
    const across = { from: '2025-12-01', to: '2026-01-31' };
    assert.match((await refused(across, /one fiscal year/)).errors.to, /up to 31\/12\/2025\./);
    const german = JSON.parse(String((await download(across).set('Accept-Language', 'de')).body));
    assert.match(german.message, /bitte spätestens am 31\.12\.2025 enden lassen/);
    assert.equal(german.errors.to, 'Bitte einen Tag bis zum 31.12.2025 wählen.');
    await refused({ from: '2026-05-01', to: '2026-05-31', mode: 'monthly' }, /"rows"/);
    await refused({ from: '2026-13-01', to: '2026-05-31' }, /date like/);
    const vendor = await t.auth(['vendor'], { preferred_username: 'vendor' });
    const res = await http
      .get('/api/accounting/datev')
      .query({ from: '2026-05-01', to: '2026-05-31' })
      .set('Authorization', vendor);
    assert.equal(res.status, 403);
  });
});
