import assert from 'node:assert/strict';
import { presetPeriod } from '../../admin/src/backoffice/accounting/period.ts';

// The money screens' period presets as the calendar days the API receives (its `to` is the whole day).
describe('back-office period presets', () => {
  // Noon in the newspaper's zone (Europe/Berlin, the back office's until the settings name another).
  const at = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d, 11, 0));

  it('gives today, the month and the year around a day', () => {
    assert.deepEqual(presetPeriod('today', at(2026, 11, 21)), { from: '2026-11-21', to: '2026-11-21' });
    assert.deepEqual(presetPeriod('this_month', at(2026, 2, 10)), { from: '2026-02-01', to: '2026-02-28' });
    assert.deepEqual(
      presetPeriod('this_month', at(2028, 2, 10)),
      { from: '2028-02-01', to: '2028-02-29' },
      'a leap year',
    );
    assert.deepEqual(presetPeriod('this_year', at(2026, 11, 21)), { from: '2026-01-01', to: '2026-12-31' });
  });

  it('starts the week on Monday, also across the turn of a month and on a Sunday', () => {
    assert.deepEqual(presetPeriod('this_week', at(2026, 11, 21)), { from: '2026-11-16', to: '2026-11-22' });
    assert.deepEqual(presetPeriod('this_week', at(2026, 12, 2)), { from: '2026-11-30', to: '2026-12-06' });
    assert.deepEqual(presetPeriod('this_week', at(2026, 11, 22)), { from: '2026-11-16', to: '2026-11-22' }, 'a Sunday');
  });

  it('goes back into last year for last month in January', () => {
    assert.deepEqual(presetPeriod('last_month', at(2027, 1, 15)), { from: '2026-12-01', to: '2026-12-31' });
    assert.deepEqual(presetPeriod('last_month', at(2026, 3, 31)), { from: '2026-02-01', to: '2026-02-28' });
  });
});
