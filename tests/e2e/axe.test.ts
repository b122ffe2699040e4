import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { leaseChromium } from './browser.ts';

// The check itself must be able to fail: a page with planted violations is refused, a clean one passes.
describe('accessibility check (axe-core)', function () {
  this.timeout(60_000);
  let browser: Browser;
  before(async () => (browser = await leaseChromium()));
  after(async () => browser.close());

  it('passes a clean page with one h1', async () => {
    const page = await browser.newPage();
    await page.setContent(
      '<!doctype html><html lang="de"><head><title>Test</title></head><body><main><h1>Zeitung</h1>' +
        '<button type="button">Weiter</button></main></body></html>',
    );
    await expectAccessible(page, 'a clean page');
  });

  it('fails on a planted violation, naming it', async () => {
    const page = await browser.newPage();
    await page.setContent(
      '<!doctype html><html lang="de"><head><title>Test</title></head><body><main><h1>Zeitung</h1>' +
        '<button type="button" aria-label="Deutsch">DE</button><input type="color">' +
        '<p style="color:#999;background:#fff">kaum lesbar</p></main></body></html>',
    );
    await assert.rejects(expectAccessible(page, 'a planted page'), (error: Error) => {
      assert.match(error.message, /label-content-name-mismatch/);
      assert.match(error.message, /critical label /);
      assert.match(error.message, /color-contrast/);
      return true;
    });
  });

  it('fails on a page without an h1', async () => {
    const page = await browser.newPage();
    await page.setContent(
      '<!doctype html><html lang="de"><head><title>Test</title></head><body><main><p>Text</p></main></body></html>',
    );
    await assert.rejects(expectAccessible(page, 'a page without h1'), /0 h1/);
  });
});
