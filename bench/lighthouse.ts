// Lighthouse, an outside judge, on three pages as a phone opens them: the landing page a badge's QR
// code leads to (/v/DEMO-1), a paid order's receipt and the vendor's /me, logged in. Lighthouse's
// mobile defaults (Moto G Power screen, simulated slow 4G, 4× slower CPU) in Debian's Chromium; its
// four scores per page, performance with a budget of 95. Categories and scoring:
// https://developer.chrome.com/docs/lighthouse/performance/performance-scoring
// Tiny (the end-to-end tests): the landing page only, its performance only, on the test's server, in
// the tests' Chromium, the headless shell (CHROMIUM_PATH), in which Lighthouse runs as well; its
// scores there are not the full browser's.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { chromiumPath as testsChromiumPath } from '../tests/e2e/browser.ts';
import { buyInShop, mainItemOrder } from '../tests/e2e/purchase.ts';
import { removeDir, startServer } from '../tests/e2e/server.ts';
import { ensureBuild } from './build.ts';
import type { BenchOptions, Figure } from './figures.ts';

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const performanceBudget = 95;
/** Lighthouse measures a page as the full browser loads it, not as the tests' headless shell does. */
const chromiumPath = process.env.LIGHTHOUSE_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Logs the demo vendor in on `page` at our identity provider's form; /me keeps its session in this tab. */
async function logInToMe(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/me`);
  await page.waitForSelector('#username');
  await page.type('#username', 'vendor');
  await page.type('#password', 'vendor');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  await page.waitForSelector('#me-credit-amount', { timeout: 60_000 });
}

export interface LighthouseOptions extends BenchOptions {
  /** The shop to judge (a running server's address), instead of a server of the bench's own. */
  origin?: string;
}

export async function benchLighthouse({ tiny = false, origin }: LighthouseOptions = {}): Promise<Figure[]> {
  ensureBuild();
  const server = origin ? undefined : await startServer({ optimised: true });
  const base = origin ?? server!.url;
  const judged: readonly (typeof categories)[number][] = tiny ? ['performance'] : categories;
  const chrome = await chromeLauncher.launch({
    chromePath: tiny ? testsChromiumPath : chromiumPath,
    chromeFlags: [tiny ? '--headless' : '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...judged],
      locale: 'de',
    };
    const pages = [{ name: '/v/DEMO-1', url: `${base}/v/DEMO-1` }];
    if (!tiny) {
      const paid = await buyInShop(base, await mainItemOrder(base, 'DEMO-1'));
      pages.push({ name: 'receipt, paid', url: `${base}/paymentconfirmation?order=${paid}` });
    }
    const results: { name: string; scores: number[]; cls: number; failing: string[] }[] = [];
    /** The audits of the four categories that did not pass in full, by Lighthouse's id. */
    const failing = (lhr: Result) =>
      judged.flatMap((c) =>
        (lhr.categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => ref.id),
      );
    for (const { name, url } of pages) {
      const result = await lighthouse(url, flags);
      if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
      // Lighthouse scores a page that answered an error (or none) too; the bench must not.
      if (result.lhr.runtimeError)
        throw new Error(`Lighthouse could not load ${url}: ${result.lhr.runtimeError.message}`);
      results.push({
        name,
        scores: judged.map((c) => Math.round((result.lhr.categories[c]?.score ?? NaN) * 100)),
        cls: Number(result.lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN),
        failing: failing(result.lhr),
      });
    }
    // /me keeps its login in the tab's sessionStorage: Lighthouse runs in the tab that logged in,
    // which it may not reset.
    const browser = tiny ? undefined : await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    if (browser)
      try {
        const page = await browser.newPage();
        await logInToMe(page, base);
        const result = await lighthouse(`${base}/me`, { ...flags, disableStorageReset: true }, undefined, page);
        if (!result) throw new Error('Lighthouse gave no result for /me');
        results.push({
          name: '/me, logged in',
          scores: judged.map((c) => Math.round((result.lhr.categories[c]?.score ?? NaN) * 100)),
          cls: Number(result.lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN),
          failing: failing(result.lhr),
        });
      } finally {
        await browser.disconnect();
      }

    console.log('\nLighthouse, mobile (simulated slow 4G, 4× slower CPU), Chromium headless');
    const heads = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'best', seo: 'seo' };
    console.log(`  ${'page'.padEnd(18)} ${judged.map((c) => heads[c].padStart(4)).join('  ')}   CLS`);
    for (const { name, scores, cls, failing } of results)
      console.log(
        `  ${name.padEnd(18)} ${scores.map((s) => String(s).padStart(4)).join('  ')}  ${cls.toFixed(3)}${failing.length ? `  below full marks: ${failing.join(', ')}` : ''}`,
      );
    return results.flatMap(({ name, scores }) =>
      judged.map((category, i) => ({
        part: 'lighthouse',
        name: `${name}: ${category}`,
        value: scores[i],
        unit: 'score',
        ...(category === 'performance' ? { minimum: performanceBudget } : {}),
      })),
    );
  } finally {
    chrome.kill();
    if (server) {
      await server.stop();
      removeDir(server.dataDir);
    }
  }
}
