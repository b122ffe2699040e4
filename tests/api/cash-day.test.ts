import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import type supertest from 'supertest';
import { backdatePayout } from '../../api/src/ledger/backdate.ts';
import { payOut } from '../../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { bookMovement, closeDay, type ManualKind } from '../../api/src/ledger/till.ts';
import { backdating, bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { vendorId } from '../support/orders.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// The cash day as offices run it: a close covers the till's movements since the previous close, cash
// keeps moving after it (into the next close), the Kassenbericht lists every calendar day it covers,
// and the database still refuses a movement inside a closed period. Earlier days are made as the demo
// history makes them: booked by the real functions, then dated back in the same transaction.

interface OpenDay {
  day: string;
  movements: number;
}
interface TillAnswer {
  id: number;
  balance: number;
  closedUntil: string | null;
  closedToday: boolean;
  openDays: OpenDay[];
}

const directions: Record<ManualKind, 1 | -1> = { bank_deposit: -1, bank_withdrawal: 1, expense: -1, income: 1 };
const isCashBookRefusal = (error: { code?: string }) => error.code === 'CB001';

describeApi('the cash day: closes cover what moved since the last one', (t) => {
  let office = '';
  before(async () => {
    office = await t.office();
  });
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const tills = async () => (await as(t.http.get('/api/tills'))).body.tills as TillAnswer[];
  const till = async (id: number) => (await tills()).find((x) => x.id === id)!;
  const today = async () =>
    (await as(t.http.get('/api/office/today'))).body.tills as (TillAnswer & { unclosedDays: OpenDay[] })[];
  const closeAll = async (tillId: number, language = 'en') => {
    const { balance } = await till(tillId);
    return as(t.http.post(`/api/tills/${tillId}/closes`))
      .set('Accept-Language', language)
      .send({ counted: balance, expected: balance });
  };
  const report = async (closeId: number, lang = 'de') =>
    (await as(t.http.get(`/api/closes/${closeId}/report`).query({ lang }))).text.replace(/\u00a0/g, ' ');
  /** The report's rows of one day: its kinds and its total, each as its five cells. */
  const dayRows = (html: string, day: string) => {
    const block = /<tbody class="day" id="report-day-([^"]+)">([\s\S]*?)<\/tbody>/g;
    for (const [, found, rows] of html.matchAll(block)) {
      if (found === day)
        return [...rows.matchAll(/<tr[^>]*>((?:<td[^>]*>[^<]*<\/td>){5})<\/tr>/g)].map((row) =>
          [...row[1].matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]),
        );
    }
    return undefined;
  };
  const listedDays = (html: string) => [...html.matchAll(/id="report-day-([^"]+)"/g)].map((m) => m[1]);

  /** The local day `offset` days from today, and an instant on it, in the newspaper's time zone. */
  const localDay = async (offset: number) =>
    (
      await t.db.raw<{ rows: { day: string }[] }>(
        `select to_char((now() at time zone ?)::date + ?::integer, 'YYYY-MM-DD') as day`,
        [t.config.timeZone, offset],
      )
    ).rows[0].day;
  const localAt = async (offset: number, time: string) =>
    (
      await t.db.raw<{ rows: { at: Date }[] }>(
        `select (((now() at time zone ?)::date + ?::integer) + ?::time) at time zone ? as at`,
        [t.config.timeZone, offset, time, t.config.timeZone],
      )
    ).rows[0].at;

  /** Books a manual movement now with the till's own function, then dates it to `at` (its local day with it). */
  async function movedAt(trx: Knex.Transaction, tillId: number, kind: ManualKind, cents: number, at: Date) {
    const { id } = await bookMovement(trx, {
      tillId,
      kind,
      amount: directions[kind] * cents,
      reason: kind,
      staff: 'office',
      timeZone: t.config.timeZone,
    });
    await trx('cash_movements')
      .where({ id })
      .update({ created_at: at, day: trx.raw(`(?::timestamptz at time zone ?)::date`, [at, t.config.timeZone]) });
    return id;
  }

  /** Pays out the vendor's whole credit from the till now, then dates the payout to `at`. */
  async function paidAt(trx: Knex.Transaction, tillId: number, vendor: number, at: Date) {
    const { credit } = await vendorAccountSummary(trx, vendor);
    const id = await payOut(
      trx,
      {
        vendorId: vendor,
        expectedAmount: credit,
        authorisedBy: 'office',
        timeZone: t.config.timeZone,
        tillId,
      },
      publishLedgerEvent,
    );
    await backdatePayout(trx, id, at, t.config.timeZone);
    return credit;
  }

  const giveCredit = async (licenseId: string, daysAgo: number) =>
    bookPaidOrder(t.db, await vendorId(t.db, licenseId), new Date(Date.now() - daysAgo * 864e5), {
      prints: 2,
      digital: 0,
      tip: 150,
    });

  it('pays a vendor after the close: the payout counts in the next close, and a second close the same day is refused', async () => {
    const tillId = (await tills())[0].id;
    const yesterday = await localDay(-1);
    const [donation, evening, lateVendor] = [
      await localAt(-1, '17:00'),
      await localAt(-1, '19:00'),
      await localAt(-1, '19:30'),
    ];
    await giveCredit('DEMO-4', 3);
    await giveCredit('DEMO-5', 3);
    const demo4 = await vendorId(t.db, 'DEMO-4');
    // Yesterday: a donation, the evening's close at 19:00, and a vendor who came at 19:30.
    // (In the transaction, only its own connection: PGlite has one.)
    const paidYesterday = await backdating(t.db, async (trx) => {
      await movedAt(trx, tillId, 'income', 1000, donation);
      const closeId = await closeDay(
        trx,
        {
          tillId,
          counted: 201000,
          expected: 201000,
          staff: 'office',
          timeZone: t.config.timeZone,
        },
        publishLedgerEvent,
      );
      // The close as it was made yesterday evening: closes are final, so their guard is off for the dating.
      await trx.raw(`alter table till_closes disable trigger till_closes_guard`);
      await trx('till_closes').where({ id: closeId }).update({ day: yesterday, created_at: evening });
      await trx.raw(`alter table till_closes enable trigger till_closes_guard`);
      return paidAt(trx, tillId, demo4, lateVendor);
    });
    assert.ok(paidYesterday > 0);

    // This morning the start screen names yesterday: the payout after its close is not counted yet.
    const morning = (await today()).find((x) => x.id === tillId)!;
    assert.deepEqual(morning.unclosedDays, [{ day: yesterday, movements: 1 }]);
    assert.equal(morning.closedUntil, yesterday);
    assert.equal(morning.closedToday, false);

    const closed = await closeAll(tillId);
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    assert.equal(closed.body.openingBalance, 201000, 'what yesterday’s close counted');
    assert.equal(closed.body.expected, 201000 - paidYesterday);
    const html = await report(closed.body.id);
    assert.deepEqual(listedDays(html), [yesterday], 'the payout after yesterday’s close, on its own day');
    const euros = (cents: number) =>
      new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })
        .format(cents / 100)
        .replace(/\u00a0/g, ' ');
    assert.deepEqual(dayRows(html, yesterday), [
      ['Auszahlungen', '1', '', euros(paidYesterday), ''],
      ['Summe des Tages', '1', '', euros(paidYesterday), euros(201000 - paidYesterday)],
    ]);

    // After today's close a vendor still comes: paid, and the screens say where it goes.
    const credit = (await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-5' }))).body.credit as number;
    const late = await as(t.http.post('/api/payments/payout')).send({
      vendor: 'DEMO-5',
      expectedAmount: credit,
      tillId,
    });
    assert.equal(late.status, 201, JSON.stringify(late.body));
    const after = await till(tillId);
    assert.equal(after.closedToday, true);
    assert.equal(after.balance, 201000 - paidYesterday - credit);
    assert.deepEqual(after.openDays, [{ day: closed.body.day, movements: 1 }], 'the payout waits for the next close');
    assert.deepEqual((await today()).find((x) => x.id === tillId)!.unclosedDays, [], 'today is no earlier day');
    const income = await as(t.http.post(`/api/tills/${tillId}/movements`)).send({
      kind: 'income',
      amount: 500,
      reason: 'Spende am Abend',
    });
    assert.equal(income.status, 201, JSON.stringify(income.body));

    // One close per till and day: the second is refused, saying where the later cash goes.
    const again = await closeAll(tillId);
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.match(again.body.message, /already closed .*next close, on the next day/);
    const german = await closeAll(tillId, 'de');
    assert.match(german.body.message, /bereits abgeschlossen\. Was seitdem bewegt wurde, zählt zum nächsten Abschluss/);
  });

  it('lists each day of a till closed for the first time, with its own totals; the opening balance apart from the expenses', async () => {
    const created = await as(t.http.post('/api/tills')).send({ name: 'Kasse 2', openingBalance: 10000 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const tillId = created.body.id as number;
    const [threeDaysAgo, twoDaysAgo] = [await localDay(-3), await localDay(-2)];
    await giveCredit('DEMO-3', 5);
    const demo3 = await vendorId(t.db, 'DEMO-3');
    const at = [
      await localAt(-3, '10:00'),
      await localAt(-3, '11:30'),
      await localAt(-2, '09:00'),
      await localAt(-2, '15:00'),
    ] as const;
    const paid = await backdating(t.db, async (trx) => {
      await movedAt(trx, tillId, 'income', 5000, at[0]);
      await movedAt(trx, tillId, 'expense', 1200, at[1]);
      await movedAt(trx, tillId, 'bank_withdrawal', 20000, at[2]);
      return paidAt(trx, tillId, demo3, at[3]);
    });
    const moved = await as(t.http.post(`/api/tills/${tillId}/movements`)).send({
      kind: 'income',
      amount: 300,
      reason: 'heute',
    });
    assert.equal(moved.status, 201, JSON.stringify(moved.body));
    const todayDay = await localDay(0);

    // Before the close: the earlier days are named as never closed, not "yesterday is closed".
    const before = (await today()).find((x) => x.id === tillId)!;
    assert.deepEqual(before.unclosedDays, [
      { day: threeDaysAgo, movements: 2 },
      { day: twoDaysAgo, movements: 2 },
    ]);
    assert.deepEqual(
      (await till(tillId)).openDays.map((d) => d.day),
      [threeDaysAgo, twoDaysAgo, todayDay],
    );

    const closed = await closeAll(tillId);
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    assert.equal(closed.body.openingBalance, 10000);
    const afterThird = 10000 + 5000 - 1200;
    const afterSecond = afterThird + 20000 - paid;
    assert.equal(closed.body.expected, afterSecond + 300);

    const html = await report(closed.body.id);
    const euros = (cents: number) =>
      new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })
        .format(cents / 100)
        .replace(/\u00a0/g, ' ');
    assert.deepEqual(listedDays(html), [threeDaysAgo, twoDaysAgo, todayDay]);
    assert.deepEqual(dayRows(html, threeDaysAgo), [
      ['Sonstige Einnahmen', '1', euros(5000), '', ''],
      ['Sonstige Ausgaben', '1', '', euros(1200), ''],
      ['Summe des Tages', '2', euros(5000), euros(1200), euros(afterThird)],
    ]);
    assert.deepEqual(dayRows(html, twoDaysAgo), [
      ['Abhebungen von der Bank', '1', euros(20000), '', ''],
      ['Auszahlungen', '1', '', euros(paid), ''],
      ['Summe des Tages', '2', euros(20000), euros(paid), euros(afterSecond)],
    ]);
    assert.deepEqual(dayRows(html, todayDay), [
      ['Sonstige Einnahmen', '1', euros(300), '', ''],
      ['Summe des Tages', '1', euros(300), '', euros(afterSecond + 300)],
    ]);
    // The opening balance in the balance column: the Ausgaben (expenses) cell of its row is empty.
    assert.match(
      html,
      /<tr id="report-opening"><td>Anfangsbestand<\/td><td class="num"><\/td><td class="num"><\/td><td class="num"><\/td><td class="num">100,00 €<\/td><\/tr>/,
    );
    assert.match(html, /<th class="num">Ausgaben<\/th><th class="num">Bestand<\/th>/);
    assert.match(html, /id="report-total"><td>Summe aller Tage<\/td><td class="num">5<\/td>/);
    assert.match(html, /id="report-period">[^<]*\(3 Tage mit Bewegungen\)/);
    // The report's title names the close's day as German readers write it.
    const [y, m, d] = (closed.body.day as string).split('-');
    assert.match(html, new RegExp(`<title>Kassenbericht ${d}\\.${m}\\.${y} · `));
    assert.match(await report(closed.body.id, 'en'), /id="report-period">[^<]*\(3 days with movements\)/);

    const after = (await today()).find((x) => x.id === tillId)!;
    assert.deepEqual(after.unclosedDays, []);
    assert.deepEqual(after.openDays, []);
  });

  it('refuses a movement inside a closed period in SQL (CB001) and takes one after the close', async () => {
    const tillId = (await tills())[0].id;
    assert.equal(
      (await as(t.http.post(`/api/tills/${tillId}/movements`)).send({ kind: 'income', amount: 1000, reason: 'x' }))
        .status,
      201,
    );
    const closed = await closeAll(tillId);
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    const day = closed.body.day as string;
    const year = Number(day.slice(0, 4));
    const insert = (voucher: number, values: { day: string; createdAt?: string }) =>
      t.db.raw(
        `insert into cash_movements (till_id, year, voucher_number, day, kind, counterpart, amount, balance, reason, staff, created_at)
         values (?, ?, ?, ?, 'income', 'other', 100, 201100, 'script', 'script', coalesce(?::timestamptz, now()))`,
        [tillId, year, voucher, values.day, values.createdAt ?? null],
      );
    // Dated on a day before the close, or on its day before its time: inside the closed period.
    await assert.rejects(insert(97, { day: await localDay(-1) }), isCashBookRefusal);
    await assert.rejects(
      insert(98, { day, createdAt: new Date(Date.parse(closed.body.createdAt) - 60_000).toISOString() }),
      isCashBookRefusal,
    );
    // What the close covered stays as booked; the close too.
    await assert.rejects(
      t.db.raw(`update cash_movements set reason = 'changed' where till_id = ?`, [tillId]),
      isCashBookRefusal,
    );
    await assert.rejects(t.db.raw(`delete from cash_movements where till_id = ?`, [tillId]), isCashBookRefusal);
    await assert.rejects(
      t.db.raw(`update till_closes set last_movement_id = null where id = ?`, [closed.body.id]),
      isCashBookRefusal,
    );
    // Booked now and dated back into the closed period, as the demo history dates its rows: refused too.
    await assert.rejects(
      backdating(t.db, (trx) =>
        movedAt(trx, tillId, 'income', 100, new Date(Date.parse(closed.body.createdAt) - 60_000)),
      ),
      isCashBookRefusal,
    );
    // Now, after the close: the cash day goes on, into the next close.
    await insert(99, { day });
    assert.deepEqual((await till(tillId)).openDays, [{ day, movements: 1 }]);
  });
});
