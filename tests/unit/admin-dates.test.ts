import assert from 'node:assert/strict';
import { formatDay, parseDay } from '../../admin/src/shared/dates.ts';

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
