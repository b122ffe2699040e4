import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { processOutbox } from '../../api/src/mail/outbox.ts';
import { formatAmount, minorUnitExponent } from '../../api/src/money/currency.ts';
import { stripeClient } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { bookedRows, eventually, itemId, placeOrder, sandboxFee, vendorId } from '../support/orders.ts';
import { pdfPrinter } from '../support/pdf.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The whole path of a paper's money once in each currency an installation may keep its books in: a
// customer buys with a tip by card and Stripe's webhook settles it, the vendor buys a copy at the
// counter in cash (asked in the country's smallest coin), is paid out, the till's day is closed, and
// the office reads the vendor's statement, the journal and the trial balance. Outside the euro, every
// text a reader gets on that path (pages, their print, CSV files, JSON answers and refusals, the
// privacy export, the receipt mail, the shop's page) shows no sign of the euro.

/** A sign of the euro a reader could see; "Euro" as a word counts too. */
const euro = /€|\bEUR\b|\beuros?\b/i;

interface Case {
  currency: string;
  country: string;
  /** The paper's shop price, the customer's tip, and a copy's price at the counter (minor units). */
  price: number;
  tip: number;
  counterPrice: number;
  /** What the till asks in cash for that copy: rounded to the country's smallest coin. */
  asked: number;
  /** The language of the customer's receipt mail. */
  mail: 'de' | 'en';
}

const cases: Case[] = [
  { currency: 'EUR', country: 'DE', price: 300, tip: 150, counterPrice: 147, asked: 147, mail: 'de' },
  // 13.47 francs in cash are asked as 13.45: 5 Rappen is the smallest coin.
  { currency: 'CHF', country: 'CH', price: 800, tip: 50, counterPrice: 1347, asked: 1345, mail: 'de' },
  { currency: 'GBP', country: 'GB', price: 250, tip: 100, counterPrice: 123, asked: 123, mail: 'en' },
  // 49.49 kronor in cash are asked as 49: whole kronor only.
  { currency: 'SEK', country: 'SE', price: 3000, tip: 500, counterPrice: 4949, asked: 4900, mail: 'de' },
  // Yen have no minor unit: 500 is five hundred yen.
  { currency: 'JPY', country: 'JP', price: 500, tip: 100, counterPrice: 250, asked: 250, mail: 'en' },
];

/** The journal's "13.47" → 1347 in a currency of cents, "600" → 600 in yen. */
const minor = (amount: string, exponent: number) => {
  const [whole = '', part = ''] = amount.split('.');
  assert.equal(part.length, exponent, `${amount}: ${exponent} decimals`);
  return Number(whole) * 10 ** exponent + Number(part || 0);
};

/** An amount as the CSV files write it: a decimal comma, the currency's digits ("-8,50", "500"). */
const decimal = (amount: number, exponent: number) =>
  exponent === 0 ? String(amount) : (amount / 100).toFixed(2).replace('.', ',');

const spaced = (text: string) => text.replace(/&nbsp;|[\u00a0\u202f]/g, ' ');
/** A page's words as a reader sees them: no style, no tags, its few escapes read. */
const plainText = (html: string) =>
  spaced(
    html
      .replace(/<style>[^<]*<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );

/** The shop's page as Vite builds it (a stand-in): the server puts the first screen's data into it. */
function shopBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'currency-path-'));
  fs.mkdirSync(path.join(dir, 'shop-widget'));
  fs.writeFileSync(
    path.join(dir, 'shop-widget', 'index.html'),
    '<!doctype html>\n<html lang="de"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="shop"></div></body></html>',
  );
  return dir;
}

/** An answer's bytes as they came, whatever its type (CSV, ZIP). */
const bytesOf = (request: supertest.Test) =>
  request.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });

describeApi('the whole path of the money in each currency', (t) => {
  let shop: ListeningShop;
  let office = '';
  let dist = '';
  const printer = pdfPrinter();
  before(async () => {
    shop = await listenShop(t, () => ({
      orderRateLimit: 10_000,
      sandboxCurrencies: cases.map((c) => c.currency.toLowerCase()),
    }));
    office = await t.office();
    dist = shopBuild();
  });
  after(async () => {
    await shop.close();
    await printer.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });
  beforeEach(() => t.reset());

  for (const { currency, country, price, tip, counterPrice, asked, mail } of cases) {
    const outsideEuro = currency !== 'EUR';
    const total = price + tip;
    const rounding = counterPrice - asked;
    const fee = sandboxFee(total);
    const exponent = minorUnitExponent(currency);

    it(`sells, takes cash, pays out, closes and books in ${currency} (${country})`, async function () {
      this.timeout(60_000);
      const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
      const money = (amount: number, lang: 'de' | 'en') => spaced(formatAmount(amount, currency, lang));

      /** Every text a reader gets on the path, with where it came from. */
      const read: { where: string; text: string }[] = [];
      const json = (where: string, res: supertest.Response) => {
        read.push({ where, text: JSON.stringify(res.body) });
        return res;
      };
      /**
       * A printable page: its HTML, and outside the euro its German print as the office prints it
       * (Chromium's PDF read back as text). The print is of the same HTML on either engine: once.
       */
      const page = async (where: string, url: string, lang: 'de' | 'en') => {
        const res = await as(shop.http.get(url));
        assert.equal(res.status, 200, `${where}: ${res.text}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        read.push({ where: `${where} (${lang})`, text: res.text });
        if (outsideEuro && lang === 'de' && t.engine === 'pglite') {
          const printed = await printer.print(res.text, `currency-path-${currency}-${where.replace(/\W+/g, '-')}`);
          read.push({ where: `${where}, printed`, text: printed.text });
        }
        return plainText(res.text);
      };
      const download = async (where: string, url: string) => {
        const res = await bytesOf(as(shop.http.get(url)));
        assert.equal(res.status, 200, `${where}: ${String(res.body)}`);
        return res.body as Buffer;
      };
      const csv = async (where: string, url: string) => {
        const text = (await download(where, url)).toString('utf8');
        read.push({ where, text });
        return text;
      };

      await t.db('settings').update({ currency, country });
      await t.db('items').where({ name: 'Zeitung' }).update({ price, counter_price: counterPrice });
      const paper = await itemId(t.db, 'Zeitung');
      const vendor = await vendorId(t.db, 'DEMO-1');
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: t.config.timeZone }).format(new Date());

      // The customer's purchase: its Checkout Session in the currency, paid on the sandbox's page,
      // settled by Stripe's webhook; the newspaper covers the card fee.
      for (const lang of ['de', 'en']) {
        const refused = json(
          `a tip in fractions, refused (${lang})`,
          await shop.http
            .post('/api/orders')
            .set('Accept-Language', lang)
            .send({ vendor: 'DEMO-1', entries: [{ item: paper, quantity: 1 }], tip: 1.5 }),
        );
        assert.equal(refused.status, 400, JSON.stringify(refused.body));
      }
      const order = await placeOrder(shop, t.db, {
        items: { Zeitung: 1 },
        tip,
        email: 'reader@example.org',
        locale: mail,
      });
      read.push({ where: 'the order', text: order.answer });
      const session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(order.sessionId);
      assert.deepEqual([session.currency, session.amount_total], [currency.toLowerCase(), total]);
      const cardPage = await fetch(new URL(new URL(order.checkoutUrl).pathname, shop.url));
      assert.equal(cardPage.status, 200);
      read.push({ where: 'the sandbox’s card page', text: await cardPage.text() });
      const back = await payInSandbox(shop.url, order.checkoutUrl);
      await eventually(
        async () => (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid',
        'the webhook settles the order',
      );
      assert.deepEqual(await bookedRows(t.db, order.id), [
        { kind: 'sale', amount: price },
        { kind: 'tip', amount: tip },
        { kind: 'fee', amount: fee },
        { kind: 'fee_cover', amount: fee },
      ]);
      json('the receipt page’s order', await shop.http.get(`/api/orders/${order.token}`));
      json('the success page’s check', await shop.http.get(`/api/orders/verify${new URL(back).search}`));
      await processOutbox(t.db, shop.config);
      const receiptMail = await t.db('outbox').where({ order_id: order.id, kind: 'receipt' }).first('subject', 'text');
      const mailText = spaced(receiptMail.text as string);
      assert.ok(mailText.split('\n').includes(`${mail === 'de' ? 'Summe' : 'Total'}: ${money(total, mail)}`), mailText);
      read.push({ where: 'the receipt mail', text: `${receiptMail.subject}\n${mailText}` });

      // The counter: one copy bought in cash, the till asking the country's smallest coin; the
      // difference is the newspaper's, on its own account, and the vendor's credit does not move.
      const counter = json('the counter', await as(shop.http.get('/api/counter/vendor').query({ vendor: 'DEMO-1' })));
      assert.equal(counter.body.credit, total);
      const till = counter.body.tills[0] as { id: number };
      const visit = json(
        'the visit',
        await as(shop.http.post('/api/counter/visits')).send({
          visitId: randomUUID(),
          vendor: 'DEMO-1',
          tillId: till.id,
          items: [{ itemId: paper, quantity: 1 }],
          cash: counterPrice,
          payOut: false,
          expectedCredit: counter.body.credit,
        }),
      );
      assert.equal(visit.status, 201, JSON.stringify(visit.body));
      assert.deepEqual(
        [visit.body.copiesAmount, visit.body.cashPaid, visit.body.cashRounding],
        [counterPrice, asked, rounding],
      );
      for (const lang of ['de', 'en'] as const) {
        const receipt = await page(
          'the counter receipt',
          `/api/counter/visits/${visit.body.id}/receipt?lang=${lang}`,
          lang,
        );
        assert.ok(receipt.includes(money(counterPrice, lang)), `the copy's price in ${receipt}`);
        assert.ok(receipt.includes(money(asked, lang)), `the cash asked in ${receipt}`);
      }

      // The payout of the whole credit, refused first for a figure above it.
      for (const lang of ['de', 'en'] as const) {
        const above = json(
          `a payout above the credit, refused (${lang})`,
          await as(shop.http.post('/api/payments/payout'))
            .set('Accept-Language', lang)
            .send({ vendor: 'DEMO-1', expectedAmount: total + 1, tillId: till.id }),
        );
        assert.equal(above.status, 409, JSON.stringify(above.body));
        assert.ok(spaced(above.body.message).includes(` ${money(total, lang)}.`), above.body.message);
      }
      const payout = json(
        'the payout',
        await as(shop.http.post('/api/payments/payout')).send({
          vendor: 'DEMO-1',
          expectedAmount: total,
          tillId: till.id,
        }),
      );
      assert.equal(payout.status, 201, JSON.stringify(payout.body));
      assert.equal(payout.body.amount, total);
      const ledger = await t
        .db('ledger_rows as r')
        .join('ledger_accounts as s', 's.id', 'r.sender_id')
        .join('ledger_accounts as d', 'd.id', 'r.receiver_id')
        .orderBy('r.id')
        .select('r.kind', 'r.amount', 's.kind as from', 'd.kind as to', 'r.payout_id as payout');
      const paidOut = payout.body.id as number;
      assert.deepEqual(
        ledger.map((row) => ({ ...row, amount: Number(row.amount) })),
        [
          { kind: 'sale', amount: price, from: 'customers', to: 'vendor', payout: paidOut },
          { kind: 'tip', amount: tip, from: 'customers', to: 'vendor', payout: paidOut },
          { kind: 'fee', amount: fee, from: 'vendor', to: 'provider', payout: paidOut },
          { kind: 'fee_cover', amount: fee, from: 'orga', to: 'vendor', payout: paidOut },
          { kind: 'counter_sale', amount: counterPrice, from: 'vendor', to: 'orga', payout: paidOut },
          ...(rounding
            ? [{ kind: 'cash_rounding', amount: rounding, from: 'orga', to: 'vendor', payout: paidOut }]
            : []),
          { kind: 'counter_cash', amount: asked, from: 'cash', to: 'vendor', payout: paidOut },
          { kind: 'payout', amount: total, from: 'vendor', to: 'cash', payout: paidOut },
        ],
      );
      for (const lang of ['de', 'en'] as const) {
        const receipt = await page('the payout receipt', `/api/payouts/${paidOut}/receipt?lang=${lang}`, lang);
        assert.ok(receipt.includes(money(total, lang)), `the payout in ${receipt}`);
      }

      // The close of the till's day: it holds what was paid in and out since its float.
      const tills = json('the tills', await as(shop.http.get('/api/tills')));
      const { balance, openingBalance } = tills.body.tills.find((x: { id: number }) => x.id === till.id);
      assert.equal(balance - openingBalance, asked - total);
      const closed = json(
        'the close',
        await as(shop.http.post(`/api/tills/${till.id}/closes`)).send({ counted: balance, expected: balance }),
      );
      assert.equal(closed.status, 201, JSON.stringify(closed.body));
      for (const lang of ['de', 'en'] as const) {
        const report = await page('the close report', `/api/closes/${closed.body.id}/report?lang=${lang}`, lang);
        assert.ok(report.includes(money(balance, lang)), `the counted cash in ${report}`);
      }

      // The vendor's statement of the day.
      const period = `from=${today}&to=${today}`;
      const statement = json('the statement', await as(shop.http.get(`/api/vendors/${vendor}/statement?${period}`)));
      assert.equal(statement.status, 200, JSON.stringify(statement.body));
      for (const lang of ['de', 'en'] as const) {
        const sheet = await page(
          'the statement',
          `/api/vendors/${vendor}/statement?${period}&format=html&lang=${lang}`,
          lang,
        );
        for (const amount of [price, tip, -total])
          assert.ok(sheet.includes(money(amount, lang)), `${amount} in ${sheet}`);
        const sheetCsv = await csv(
          `the statement CSV (${lang})`,
          `/api/vendors/${vendor}/statement?${period}&format=csv&lang=${lang}`,
        );
        // A spreadsheet's number in the currency's digits: "8,00" francs, "500" yen.
        for (const amount of [price, tip, -total])
          assert.ok(sheetCsv.includes(`;"${decimal(amount, exponent)}"`), `${amount} in ${sheetCsv}`);
      }
      await csv('the year’s statements', `/api/statements?year=${today.slice(0, 4)}&format=csv`);

      // The journal: each account's debits and credits are the trial balance's, which sums to zero.
      const journal = await csv('the journal', `/api/accounting/journal?${period}`);
      const [head, ...lines] = journal.trimEnd().split('\r\n');
      assert.equal(head, 'Date,Voucher,Debit account,Credit account,Amount,Currency,Text');
      const sums: Record<string, { debit: number; credit: number }> = {};
      const at = (account: string) => (sums[account] ??= { debit: 0, credit: 0 });
      const amounts: number[] = [];
      for (const line of lines) {
        // Only the text can hold a quoted comma: the six fields before it are plain.
        const [date = '', , debit = '', credit = '', amount = '', code] = line.split(',');
        assert.deepEqual([date, code], [today, currency], line);
        const value = minor(amount, exponent);
        amounts.push(value);
        at(debit).debit += value;
        at(credit).credit += value;
      }
      for (const amount of [price, tip, fee, counterPrice, asked, total, ...(rounding ? [rounding] : [])])
        assert.ok(amounts.includes(amount), `${amount} in ${journal}`);
      const trial = json('the trial balance', await as(shop.http.get(`/api/accounting/trial-balance?${period}`)));
      assert.equal(trial.status, 200, JSON.stringify(trial.body));
      const accounts = trial.body.lines as {
        account: string;
        role: string;
        debit: number;
        credit: number;
        difference: number | null;
      }[];
      assert.deepEqual(
        Object.fromEntries(Object.entries(sums).sort()),
        Object.fromEntries(
          accounts
            .filter((line) => line.debit || line.credit)
            .map((line) => [line.account, { debit: line.debit, credit: line.credit }])
            .sort(),
        ),
      );
      assert.equal(
        accounts.reduce((sum, line) => sum + line.debit - line.credit, 0),
        0,
      );
      const cash = accounts.find((line) => line.role === 'cash');
      assert.deepEqual([cash?.debit, cash?.credit, cash?.difference], [asked, total, 0], 'Kasse agrees with the till');
      const roundingLine = accounts.find((line) => line.role === 'rounding');
      assert.deepEqual(roundingLine && [roundingLine.debit, roundingLine.credit], rounding ? [rounding, 0] : undefined);
      await csv('the trial balance CSV', `/api/accounting/trial-balance?${period}&format=csv`);
      if (!outsideEuro) return;

      // What else a reader of a paper outside the euro gets on the path.
      const vendorLogin = await t.auth(['vendor'], {
        sub: 'vendor-DEMO-1',
        preferred_username: 'DEMO-1',
        vendor: 'DEMO-1',
      });
      for (const [where, url] of [
        ['the shop’s settings', '/api/settings'],
        ['the shop’s items', '/api/items'],
        ['the vendor’s page', '/api/vendors/me'],
        ['the vendor’s payments', '/api/vendors/me/payments'],
        ['the vendor’s statement', `/api/vendors/me/statement?${period}`],
      ]) {
        const res = json(where, await shop.http.get(url).set('Authorization', vendorLogin));
        assert.equal(res.status, 200, `${where}: ${res.text}`);
      }
      const shopPage = await supertest(buildApp({ db: t.db, config: shop.config, distDir: dist }).callback()).get(
        '/v/DEMO-1',
      );
      assert.equal(shopPage.status, 200);
      assert.ok(shopPage.text.includes(`"currency":"${currency}"`), 'the shop page names the currency');
      read.push({ where: 'the shop page', text: shopPage.text });
      await csv('the payouts CSV', '/api/payouts?format=csv');
      await csv('the visits CSV', '/api/counter/visits?format=csv');
      await csv('the bookings CSV', `/api/payments?format=csv`);
      await csv('the accounts CSV', `/api/payments/accounts?${period}&format=csv`);
      for (const [where, url] of [
        ['the accounts', `/api/payments/accounts?${period}`],
        ['the payouts', '/api/payouts'],
        ['the cash book', `/api/tills/${till.id}/book`],
        ['the office’s day', '/api/office/today'],
        ['the protocol', '/api/protocol'],
        ['the outbox', '/api/outbox'],
        ['the statistics', `/api/payments/statistics?${period}`],
      ]) {
        const res = json(where, await as(shop.http.get(url)));
        assert.equal(res.status, 200, `${where}: ${res.text}`);
      }
      await csv('the cash book CSV', `/api/tills/${till.id}/book?format=csv`);
      await csv('the closes CSV', `/api/tills/${till.id}/closes?format=csv`);
      const exported = unzipSync(new Uint8Array(await download('the privacy export', `/api/vendors/${vendor}/export`)));
      for (const [name, bytes] of Object.entries(exported))
        read.push({ where: `the privacy export’s ${name}`, text: strFromU8(bytes) });

      const seen = read.flatMap(({ where, text }) => {
        const found = euro.exec(text);
        return found ? [`${where}: …${text.slice(Math.max(0, found.index - 60), found.index + 20)}…`] : [];
      });
      assert.deepEqual(seen, [], 'no sign of the euro');
    });
  }
});
