import assert from 'node:assert/strict';
import { presetPeriod } from '../../admin/src/backoffice/accounting/period.ts';
import { presetDays } from '../../admin/src/backoffice/statistics/period.ts';
import {
  addDays,
  formatDate,
  formatDateTime,
  formatDay,
  formatMonth,
  localDay,
  parseDay,
  setTimeZone,
  timeZone,
} from '../../admin/src/shared/dates.ts';

// days are typed and shown as the back office's language writes them, not the browser's.
describe('day inputs of the back office', () => {
  it('shows a day as 21.11.2026 in German and 21/11/2026 in English', () => {
    assert.equal(formatDay('2026-11-21', 'de'), '21.11.2026');
    assert.equal(formatDay('2026-11-21', 'en'), '21/11/2026');
    assert.equal(formatDay('', 'de'), '');
  });

  it('reads dd.mm.yyyy in German, dd/mm/yyyy in English and yyyy-mm-dd in both', () => {
    assert.equal(parseDay('21.11.2026', 'de'), '2026-11-21');
    assert.equal(parseDay(' 1.2.2026 ', 'de'), '2026-02-01');
    assert.equal(parseDay('01.02.26', 'de'), '2026-02-01');
    assert.equal(parseDay('21/11/2026', 'en'), '2026-11-21');
    assert.equal(parseDay('2026-11-21', 'de'), '2026-11-21');
    assert.equal(parseDay('2026-11-21', 'en'), '2026-11-21');
  });

  it('refuses what is no day: the other language’s form, days no calendar has, half-typed text', () => {
    for (const [text, locale] of [
      ['21/11/2026', 'de'],
      ['21.11.2026', 'en'],
      ['31.02.2026', 'de'],
      ['29.02.2025', 'de'],
      ['21.11.', 'de'],
      ['11/25/2021', 'en'],
      ['', 'de'],
      ['heute', 'de'],
    ] as const)
      assert.equal(parseDay(text, locale), undefined, `${text} (${locale})`);
    assert.equal(parseDay('29.02.2028', 'de'), '2028-02-29');
  });
});

// Every date and time of the back office and /me is the newspaper's (TIME_ZONE), not the computer's:
// the screen, the receipt and the CSV then agree.
describe('dates and times of the back office in the newspaper’s time zone', () => {
  const machineZone = process.env.TZ;
  before(() => {
    // The office computer is in New York; the newspaper in Berlin.
    process.env.TZ = 'America/New_York';
    setTimeZone('Europe/Berlin');
  });
  after(() => {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
    setTimeZone('Europe/Berlin');
  });

  it('shows an instant at the newspaper’s hour and day', () => {
    assert.equal(formatDateTime('2026-11-21T05:04:00.000Z', 'de'), '21.11.26, 06:04');
    assert.equal(formatDateTime('2026-11-21T05:04:00.000Z', 'en'), '21/11/2026, 06:04');
    assert.equal(formatDateTime('2026-07-01T22:30:00.000Z', 'de'), '02.07.26, 00:30', 'summer time, after midnight');
    assert.equal(formatDate('2026-07-01T22:30:00.000Z', 'de'), '2.7.2026', 'the day in Berlin, not in New York');
  });

  it('follows the zone the server names', () => {
    setTimeZone('Asia/Tokyo');
    assert.equal(timeZone(), 'Asia/Tokyo');
    assert.equal(formatDateTime('2026-11-21T05:04:00.000Z', 'de'), '21.11.26, 14:04');
    setTimeZone('Europe/Berlin');
  });

  it('shows a calendar day as itself in every zone', () => {
    assert.equal(formatDate('2026-11-21', 'de'), '21.11.2026');
    assert.equal(formatDate('2026-11-21', 'en'), '21/11/2026');
    assert.equal(formatMonth('2026-05', 'de'), 'Mai 2026');
    assert.equal(formatMonth('2026-05', 'en'), 'May 2026');
  });

  it('knows the newspaper’s today, a day ahead of New York’s evening', () => {
    const newYorkEvening = new Date('2026-11-21T23:30:00.000Z'); // 18:30 in New York, 00:30 in Berlin
    assert.equal(localDay(newYorkEvening), '2026-11-22');
    assert.deepEqual(presetPeriod('today', newYorkEvening), { from: '2026-11-22', to: '2026-11-22' });
    assert.deepEqual(presetDays('last30', newYorkEvening), { from: '2026-10-24', to: '2026-11-22' });
    assert.deepEqual(
      presetPeriod('this_month', new Date('2026-11-30T23:30:00.000Z')),
      { from: '2026-12-01', to: '2026-12-31' },
      'December in Berlin while November in New York',
    );
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  });
});
