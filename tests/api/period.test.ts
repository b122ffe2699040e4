import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';
import { localMidnight } from '../../api/src/period.ts';

// The API turns local days into instants in JavaScript; the database must agree to the second, or
// a statistics day and a list period would disagree about a row at midnight.
describeApi('periods agree with the database', (t) => {
  it('has every local midnight of 2025 to 2027 where PostgreSQL has it, in zones with and without clock changes', async () => {
    for (const zone of ['Europe/Berlin', 'America/Santiago', 'Australia/Sydney', 'Asia/Kolkata', 'UTC']) {
      const { rows } = await t.db.raw(
        `select to_char(day, 'YYYY-MM-DD') as day, (day::timestamp at time zone ?) as at from generate_series('2025-01-01'::date, '2027-12-31'::date, interval '1 day') as day`,
        [zone],
      );
      const differing = (rows as { day: string; at: Date }[]).filter(
        (row) => localMidnight(row.day, zone).getTime() !== new Date(row.at).getTime(),
      );
      assert.deepEqual(
        differing.map((row) => row.day),
        [],
        zone,
      );
    }
  });
});
