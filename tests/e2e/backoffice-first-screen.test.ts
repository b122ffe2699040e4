import assert from 'node:assert/strict';
import { backofficeBudgetBytes, scriptsBeforeVendorList } from './backoffice-first-screen.ts';
import { leaseChromium } from './browser.ts';

// the back office loads at most 300 KB of gzipped JavaScript before the vendor
// list shows; the other screens' code (and their libraries) loads when they are opened.
describe('e2e: the back office’s first screen', function () {
  this.timeout(180_000);

  it('loads at most 300 KB of gzipped JavaScript until the vendor list shows', async () => {
    const browser = await leaseChromium();
    const { files, total } = await scriptsBeforeVendorList(browser).finally(() => browser.close());
    const list = files.map((entry) => `${entry.file} ${entry.bytes} B`).join('\n');
    assert.ok(total <= backofficeBudgetBytes, `${(total / 1024).toFixed(1)} KB before the vendor list:\n${list}`);
    assert.ok(
      !files.some((entry) => /MapPage|Statistics|qr-code-styling|PaymentList|SettingsEdit/.test(entry.file)),
      `other screens' code loads only when they are opened:\n${list}`,
    );
  });
});
