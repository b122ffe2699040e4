import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { phone } from './browser.ts';
import { buyInShop, mainItemOrder, placeOrder } from './purchase.ts';
import { useServerAndBrowser } from './suite.ts';

// Every page of the shop as a phone on a slow link sees it: styled from its first frame (the styles
// come with the HTML; no script writes a <style> element, which a strict Content-Security-Policy would
// block and a slow link would show late) and nothing moving once drawn: the layout shifts add up to
// less than 0.1, web.dev's "good" cumulative layout shift (https://web.dev/articles/cls). Each page
// also describes itself for search engines and link previews (meta description) and fetches the
// logo once.

/** A phone on a weak link: every request waits this long for its answer. */
const latencyMs = 400;
const goodLayoutShift = 0.1;

/** Runs in every page before its own scripts: records layout shifts and style elements made by script. */
function watchPage() {
  const w = window as unknown as { shifts: number[]; scriptStyles: number };
  w.shifts = [];
  w.scriptStyles = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
      if (!entry.hadRecentInput) w.shifts.push(entry.value);
  }).observe({ type: 'layout-shift', buffered: true });
  const createElement = document.createElement.bind(document);
  document.createElement = (name: string, options?: ElementCreationOptions) => {
    if (name.toLowerCase() === 'style') w.scriptStyles++;
    return createElement(name, options);
  };
  // Markup a script inserts (innerHTML) creates elements without createElement; the parser's own
  // elements arrive while the document is still loading.
  new MutationObserver((records) => {
    if (document.readyState === 'loading') return;
    for (const record of records)
      for (const node of record.addedNodes)
        if (node instanceof HTMLStyleElement || (node instanceof Element && node.querySelector('style')))
          w.scriptStyles++;
  }).observe(document, { childList: true, subtree: true });
}

describe('e2e: shop pages on a slow link never shift and are styled by the HTML', function () {
  this.timeout(300_000);
  const e2e = useServerAndBrowser();
  let pages: { name: string; path: string }[];
  let logoPath: string;

  before(async function () {
    this.timeout(120_000);
    const { url } = e2e.server;
    const settings = (await (await fetch(`${url}/api/settings`)).json()) as { logo: string };
    logoPath = new URL(settings.logo, `${url}/`).pathname;
    const order = await mainItemOrder(url, 'DEMO-1');
    const pending = await placeOrder(url, order);
    const items = (await (await fetch(`${url}/api/items/`)).json()) as { id: number; name: string }[];
    const digital = items.find((item) => item.name === 'Digitale Ausgabe')!.id;
    const paid = await buyInShop(url, {
      ...order,
      entries: [...order.entries, { item: digital, quantity: 1 }],
      email: 'reader@example.org',
    });
    const receipt = (await (await fetch(`${url}/api/orders/${paid}/`)).json()) as { downloads: { id: string }[] };
    const sessionId = new URL(pending.checkoutUrl).pathname.split('/').pop()!;
    pages = [
      { name: 'go-to-vendor', path: '/' },
      { name: 'landing', path: '/v/DEMO-1' },
      { name: 'shop', path: '/v/DEMO-1/shop' },
      { name: 'tipping', path: '/v/DEMO-1/tipping' },
      { name: 'confirmation', path: '/v/DEMO-1/confirmation' },
      { name: 'receipt paid', path: `/paymentconfirmation?order=${paid}` },
      { name: 'success waiting', path: `/success?order=${pending.token}&session_id=${sessionId}` },
      { name: 'failure', path: `/failure?order=${pending.token}` },
      { name: 'pdf', path: `/pdf/${receipt.downloads[0].id}` },
    ];
  });

  /** The page opened cold over the slow link, settled: its shifts, script-made styles and logo requests. */
  async function visit(page: Page, path: string) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // Cold, as a phone that never saw the shop: the cache starts empty, and fills as a browser's does.
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: latencyMs,
      downloadThroughput: (1600 * 1000) / 8,
      uploadThroughput: (750 * 1000) / 8,
    });
    // The logo's fetches over the network; the tab's icon, when it is the logo, comes from the cache.
    const logo = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', ({ requestId, request, type }) => {
      if (new URL(request.url).pathname === logoPath) logo.set(requestId, `${type ?? 'other'} ${request.url}`);
    });
    cdp.on('Network.requestServedFromCache', ({ requestId }) => logo.delete(requestId));
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      if (response.fromDiskCache) logo.delete(requestId);
    });
    const response = await page.goto(`${e2e.server.url}${path}`);
    const html = (await response?.text()) ?? '';
    await page.locator('h1').waitFor();
    await page.waitForLoadState('networkidle');
    const { shifts, scriptStyles } = await page.evaluate(() => {
      const w = window as unknown as { shifts: number[]; scriptStyles: number };
      return { shifts: w.shifts, scriptStyles: w.scriptStyles };
    });
    return { shift: shifts.reduce((sum, value) => sum + value, 0), scriptStyles, logo: [...logo.values()], html };
  }

  it('shifts less than 0.1 on every page, makes no <style> by script, names a description and fetches the logo once', async () => {
    const context = await e2e.browser.newContext({ viewport: phone, locale: 'de-AT' });
    await context.addInitScript(watchPage);
    const problems: string[] = [];
    for (const { name, path } of pages) {
      const page = await context.newPage();
      try {
        const { shift, scriptStyles, logo, html } = await visit(page, path);
        // The sum of every shift: at least the cumulative layout shift, which counts the worst burst.
        if (!(shift < goodLayoutShift)) problems.push(`${name}: layout shifts add up to ${shift.toFixed(3)}`);
        if (scriptStyles) problems.push(`${name}: ${scriptStyles} <style> element(s) made by script`);
        if (!/<meta name="description" content="[^"]{20,}">/.test(html))
          problems.push(`${name}: the HTML holds no meta description`);
        if (logo.length !== 1)
          problems.push(`${name}: the logo crossed the network ${logo.length} times: ${logo.join(', ')}`);
      } finally {
        await page.close();
      }
    }
    await context.close();
    assert.deepEqual(problems, []);
  });
});
