import assert from 'node:assert/strict';
import { adminFigures, adminScripts } from '../../bench/admin.ts';
import { assertMeasured } from '../support/bench.ts';
import { backofficeBudgetBytes } from './backoffice-first-screen.ts';
import { leaseChromium } from './browser.ts';

// the back office loads at most 300 KB of gzipped JavaScript before the vendor
// list shows; the other screens' code (and their libraries) loads when they are opened. It is the
// admin part of `npm run bench`, measured once for both, so a route it calls cannot change under it unseen.
describe('e2e: the back office’s first screen', function () {
  this.timeout(180_000);

  it('loads at most 300 KB of gzipped JavaScript until the vendor list shows', async () => {
    const browser = await leaseChromium();
    const scripts = await adminScripts(browser).finally(() => browser.close());
    const { files, total } = scripts.backoffice;
    const list = files.map((entry) => `${entry.file} ${entry.bytes} B`).join('\n');
    assert.ok(total <= backofficeBudgetBytes, `${(total / 1024).toFixed(1)} KB before the vendor list:\n${list}`);
    assert.ok(
      !files.some((entry) => /MapPage|Statistics|qr-code-styling|PaymentList|SettingsEdit/.test(entry.file)),
      `other screens' code loads only when they are opened:\n${list}`,
    );
    assertMeasured(adminFigures(scripts), [
      'back office until the vendor list, JavaScript gzip',
      '/me, JavaScript gzip',
    ]);
  });
});
