import assert from 'node:assert/strict';
import type { DomainError } from '../../api/src/foundations/errors.ts';
import { localDateTime, localDay, localMidnight, periodBound, readPeriod } from '../../api/src/foundations/period.ts';
import { wallClockFormat } from '../support/wall-clock.ts';

// The one period rule of the API (see api/src/foundations/period.ts), at the edges where it goes wrong:
// clock changes, the last day of a month, offsets, days that do not exist.

const berlin = 'Europe/Berlin';
const iso = (at: Date) => at.toISOString();

describe('periods', () => {
  it('takes a bare date as local midnight, and as `to` the end of that local day', () => {
    assert.equal(iso(periodBound('from', '2026-05-01', berlin)), '2026-04-30T22:00:00.000Z');
    assert.equal(iso(periodBound('to', '2026-05-31', berlin)), '2026-05-31T22:00:00.000Z');
    assert.equal(iso(periodBound('from', '2026-01-01', berlin)), '2025-12-31T23:00:00.000Z');
    assert.equal(iso(periodBound('to', '2026-12-31', berlin)), '2026-12-31T23:00:00.000Z');
    assert.equal(
      iso(periodBound('to', '2028-02-28', berlin)),
      '2028-02-28T23:00:00.000Z',
      'a leap year goes on to the 29th',
    );
  });

  it('knows the days of the clock changes have 23 and 25 hours', () => {
    const spring = readPeriod({ from: '2026-03-29', to: '2026-03-29' }, berlin);
    assert.deepEqual([iso(spring.from!), iso(spring.to!)], ['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const autumn = readPeriod({ from: '2026-10-25', to: '2026-10-25' }, berlin);
    assert.deepEqual([iso(autumn.from!), iso(autumn.to!)], ['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
    // Chile moves its clocks at midnight: 6 September 2026 starts at 01:00, 5 April 2026 once.
    assert.equal(iso(localMidnight('2026-09-06', 'America/Santiago')), '2026-09-06T04:00:00.000Z');
    assert.equal(iso(localMidnight('2026-04-05', 'America/Santiago')), '2026-04-05T04:00:00.000Z');
    assert.equal(iso(localMidnight('2026-03-10', 'Asia/Kolkata')), '2026-03-09T18:30:00.000Z');
    assert.equal(iso(localMidnight('2026-07-01', 'America/New_York')), '2026-07-01T04:00:00.000Z');
  });

  it('takes a time with an offset as that instant, and one without as local wall time', () => {
    assert.equal(iso(periodBound('from', '2026-05-01T00:00:00+02:00', berlin)), '2026-04-30T22:00:00.000Z');
    assert.equal(
      iso(periodBound('to', '2026-05-01T00:00:00Z', berlin)),
      '2026-05-01T00:00:00.000Z',
      'a time as `to` is that instant, not a day',
    );
    assert.equal(iso(periodBound('to', '2026-05-01T12:30:15.250-0430', berlin)), '2026-05-01T17:00:15.250Z');
    assert.equal(iso(periodBound('from', '2026-05-01T14:00', berlin)), '2026-05-01T12:00:00.000Z');
    assert.equal(iso(periodBound('from', '2026-12-01 14:00:00', berlin)), '2026-12-01T13:00:00.000Z');
    // 02:30 does not exist on the night of the spring change and comes twice in autumn; as in PostgreSQL.
    assert.equal(iso(periodBound('from', '2026-03-29T02:30', berlin)), '2026-03-29T01:30:00.000Z');
    assert.equal(iso(periodBound('from', '2026-10-25T02:30', berlin)), '2026-10-25T01:30:00.000Z');
  });

  it('names the local day of an instant', () => {
    assert.equal(localDay(new Date('2026-05-31T22:00:00Z'), berlin), '2026-06-01');
    assert.equal(localDay(new Date('2026-05-31T21:59:59.999Z'), berlin), '2026-05-31');
  });

  it('reads an instant as the wall clock of its zone to the second, as Intl formats it', () => {
    assert.equal(localDateTime('2026-11-27T13:03:00.999Z', berlin), '2026-11-27T14:03:00');
    assert.equal(localDateTime(new Date('2026-03-29T01:00:00Z'), berlin), '2026-03-29T03:00:00');
    assert.equal(localDateTime(new Date('2026-10-25T00:59:59Z'), berlin), '2026-10-25T02:59:59');
    assert.equal(localDateTime(new Date('2026-10-25T01:00:00Z'), berlin), '2026-10-25T02:00:00');
    // Against Intl itself, instant by instant, in zones with half-hour, 45-minute and half-hour-DST offsets.
    const zones = [
      berlin,
      'Europe/London',
      'America/Santiago',
      'Asia/Kolkata',
      'Pacific/Chatham',
      'Australia/Lord_Howe',
    ];
    for (const timeZone of zones) {
      const intl = wallClockFormat('sv-SE', timeZone);
      for (let at = Date.UTC(2025, 0, 1); at < Date.UTC(2027, 0, 1); at += 21_600_577)
        assert.equal(localDateTime(new Date(at), timeZone), intl.format(at).replace(' ', 'T'), `${timeZone} at ${at}`);
    }
  });

  it('refuses what is no date, with the field named', () => {
    for (const value of [
      'yesterday',
      '2026-02-30',
      '2026-13-01',
      '2026-05-01T24:00',
      '2026-5-1',
      '01.05.2026',
      '2026-05-01T10:00:00.1234Z',
      42,
      null,
    ]) {
      assert.throws(
        () => periodBound('from', value, berlin),
        (error: DomainError) => error.refusal === 'invalid' && Boolean(error.errors?.from),
        String(value),
      );
    }
    assert.throws(
      () => readPeriod({ from: '2026-05-02', to: '2026-05-01' }, berlin),
      (error: DomainError) => error.refusal === 'invalid' && Boolean(error.errors?.to),
    );
    assert.deepEqual(readPeriod({ from: '', to: undefined }, berlin), { from: undefined, to: undefined });
  });
});
