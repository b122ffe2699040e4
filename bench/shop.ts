// The shop's first screen on a phone: the bytes (gzip) of /v/DEMO-1 with every script and style
// sheet it loads, the HTML before "Weiter", and when "Weiter" shows in Chromium with a 4× slower
// CPU, median of cold loads (a fresh browser profile each, so nothing comes from the cache).
// Measured at a weak phone's profile (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) beside the
// floor: a static page with the same first screen (our own HTML without its scripts) served by a
// bare node:http server in the same run; and at the harsher profile measured before (400 ms,
// 400/200 kbit/s). BENCH_LOADS (default 7) loads each.
// "Shows" is when Chromium painted the button (Element Timing), reported by the page itself.
// Tiny (the end-to-end tests): one load each, on the test's server and Chromium when it gives them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/foundations/config.ts';
import { createDb, migrate } from '../api/src/db/connection.ts';
import { setLogSilent } from '../api/src/foundations/log.ts';
import { seedOnFirstStart } from '../seeds/index.ts';
import { launchChromium } from '../tests/e2e/browser.ts';
import { firstScreenBytes, openFirstScreen } from '../tests/e2e/first-screen.ts';
import { repoRoot } from '../tests/e2e/server.ts';
import { ensureBuild } from './build.ts';
import { median, type BenchOptions, type Figure } from './figures.ts';

interface Profile {
  name: string;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

const kbits = (n: number) => (n * 1000) / 8;
const mobile: Profile = { name: 'mobile', latency: 150, downloadThroughput: kbits(1600), uploadThroughput: kbits(750) };
const slowMobile: Profile = {
  name: 'slow mobile',
  latency: 400,
  downloadThroughput: kbits(400),
  uploadThroughput: kbits(200),
};
const describeProfile = (p: Profile) =>
  `${p.latency} ms RTT, ${(p.downloadThroughput * 8) / 1000} kbit/s down, ${(p.uploadThroughput * 8) / 1000} kbit/s up, CPU ${cpuSlowdown}× slower`;
const cpuSlowdown = 4;
const phone = { width: 375, height: 740 };
/** The first screen's bytes (HTML, scripts, styles; gzip) may not exceed this. */
const budgetBytes = 25 * 1024;
/** the HTML before "Weiter", gzip. */
const beforeNextBudget = 14 * 1024;
/** "Weiter" within this multiple of the floor page's time. */
const floorRatioBudget = 1.1;

/**
 * Marks "Weiter" for Element Timing as soon as the parser inserts it, before its first paint, and
 * tells the bench when Chromium painted it. The same script runs in both pages, so the floor pays for
 * it too. Nothing polls the page while it loads: a check running in the page (Playwright's
 * locator.waitFor) took its turns on the same throttled main thread and delayed both pages by about
 * 200 ms, ours more, since it ran beside our hydration.
 */
function reportNextPainted() {
  const w = window as unknown as { nextPainted(renderTime: number): void };
  let reported = false;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (reported) return;
      reported = true;
      w.nextPainted((entry as PerformanceEntry & { renderTime: number }).renderTime);
    }
  }).observe({ type: 'element', buffered: true });
  const watch = new MutationObserver(() => {
    const next = document.getElementById('shop-next');
    if (!next) return;
    next.setAttribute('elementtiming', 'shop-next');
    watch.disconnect();
  });
  watch.observe(document, { childList: true, subtree: true });
}

/** One cold load of `url` in a fresh, throttled context: when "Weiter" was painted, from the navigation's start. */
async function throttledLoad(browser: Browser, url: string, profile: Profile): Promise<number> {
  const context = await browser.newContext({ viewport: phone, deviceScaleFactor: 2, locale: 'de-AT' });
  let timeout: NodeJS.Timeout | undefined;
  try {
    const page = await context.newPage();
    let report!: (renderTime: number) => void;
    const painted = new Promise<number>((resolve) => (report = resolve));
    await page.exposeFunction('nextPainted', report);
    await page.addInitScript(reportNextPainted);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const { latency, downloadThroughput, uploadThroughput } = profile;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency,
      downloadThroughput,
      uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    return await Promise.race([
      painted,
      new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(new Error(`"Weiter" was not painted within a minute on ${url}`)), 60_000);
      }),
    ]);
  } finally {
    clearTimeout(timeout);
    await context.close();
  }
}

/**
 * The floor: our own page for `url` with its scripts taken out, its other files still loaded from
 * our server, answered gzip-compressed by a bare node:http server.
 */
async function floorServer(url: string): Promise<{ url: string; close: () => Promise<void> }> {
  const origin = new URL(url).origin;
  const ours = await germanPage(url);
  const html = ours
    .replace(/<script(?![^>]*type="application\/json")[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(/(src|href)="\/(?!\/)/g, `$1="${origin}/`);
  const gzipped = zlib.gzipSync(html);
  const server = http.createServer((req, res) => {
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(gzip ? gzipped : html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v/DEMO-1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The shop's page in German; a page the shop does not answer ends the bench. */
async function germanPage(url: string): Promise<string> {
  const response = await fetch(url, { headers: { 'Accept-Language': 'de' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

/** The HTML of `url` up to and with the "Weiter" button, gzip. */
async function bytesBeforeNext(url: string): Promise<number> {
  const html = await germanPage(url);
  const next = html.indexOf('id="shop-next"');
  if (next < 0) throw new Error('The page holds no server-rendered "Weiter" button');
  return zlib.gzipSync(html.slice(0, html.indexOf('</button>', next) + '</button>'.length)).length;
}

const list = (times: number[]) => times.map((t) => t.toFixed(0)).join(', ');

/** The shop this bench loads: the app in this process on a fresh database, listening on loopback. */
async function startShop(): Promise<{ origin: string; close: () => Promise<void> }> {
  const db = createDb({ dataDir: 'memory://' });
  await migrate(db);
  await seedOnFirstStart(db);
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    PORT: '0',
    PUBLIC_URL: origin,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    // Every load of the bench is a look-up of the same client: the bench measures the page, not the limit.
    VENDOR_CHECK_RATE_LIMIT: '1000000',
  });
  const handle = buildApp({ db, config, distDir: `${repoRoot}/dist` }).callback();
  server.on('request', (req, res) => void handle(req, res));
  return {
    origin,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await db.destroy();
    },
  };
}

export interface ShopOptions extends BenchOptions {
  /** The shop to load (a running server's address), instead of one of the bench's own. */
  origin?: string;
  /** The Chromium to load it in, left open afterwards, instead of one of the bench's own. */
  browser?: Browser;
}

export async function benchShop({ tiny = false, origin: given, browser: lent }: ShopOptions = {}): Promise<Figure[]> {
  const loads = tiny ? 1 : Math.min(Math.max(Number(process.env.BENCH_LOADS ?? 7) || 7, 1), 25);
  ensureBuild();
  if (!given) setLogSilent(true);
  const shop = given ? { origin: given, close: () => Promise.resolve() } : await startShop();
  const url = `${shop.origin}/v/DEMO-1`;
  const floor = await floorServer(url);
  const browser = lent ?? (await launchChromium());
  try {
    const context = await browser.newContext({ viewport: phone });
    const requests = await openFirstScreen(await context.newPage(), url);
    await context.close();
    const { total, files } = await firstScreenBytes(requests);
    const beforeNext = await bytesBeforeNext(url);

    // Ours and the floor in turns, so a busy moment of the machine falls on both alike.
    const ours: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < loads; i++) {
      ours.push(await throttledLoad(browser, url, mobile));
      floors.push(await throttledLoad(browser, floor.url, mobile));
    }
    const harsh: number[] = [];
    for (let i = 0; i < loads; i++) harsh.push(await throttledLoad(browser, url, slowMobile));
    const ratio = median(ours) / median(floors);

    console.log(`\nShop first screen (/v/DEMO-1, Chromium at ${phone.width} px)`);
    for (const file of files)
      console.log(`  ${new URL(file.url).pathname.padEnd(40)} ${String(file.bytes).padStart(7)} B gzip`);
    console.log(
      `  ${'total (HTML + JS + CSS, without images)'.padEnd(40)} ${String(total).padStart(7)} B gzip  (${(total / 1024).toFixed(1)} KB; budget ${budgetBytes / 1024} KB)`,
    );
    console.log(
      `  ${'HTML before "Weiter"'.padEnd(40)} ${String(beforeNext).padStart(7)} B gzip  (budget ${beforeNextBudget / 1024} KB)`,
    );
    console.log(
      `  "Weiter" painted (Element Timing, from navigation start), ${mobile.name}: ${describeProfile(mobile)}, median of ${loads} cold loads:`,
    );
    console.log(`    ours  ${median(ours).toFixed(0)} ms (${list(ours)} ms)`);
    console.log(`    floor ${median(floors).toFixed(0)} ms (${list(floors)} ms), static page, bare node:http`);
    console.log(`    ratio ${ratio.toFixed(2)}× (budget ${floorRatioBudget}×)`);
    console.log(`  "Weiter" painted, ${slowMobile.name}: ${describeProfile(slowMobile)}:`);
    console.log(`    ours  ${median(harsh).toFixed(0)} ms (${list(harsh)} ms)`);
    return [
      {
        part: 'shop',
        name: 'first screen /v/DEMO-1, HTML + JS + CSS gzip',
        value: total / 1024,
        unit: 'KB',
        digits: 1,
        budget: budgetBytes / 1024,
      },
      {
        part: 'shop',
        name: 'HTML before "Weiter", gzip',
        value: beforeNext / 1024,
        unit: 'KB',
        digits: 1,
        budget: beforeNextBudget / 1024,
      },
      { part: 'shop', name: `"Weiter" painted, mobile, median of ${loads}`, value: median(ours), unit: 'ms' },
      { part: 'shop', name: `floor page, mobile, median of ${loads}`, value: median(floors), unit: 'ms' },
      {
        part: 'shop',
        name: '"Weiter" painted / floor page, mobile',
        value: ratio,
        unit: '×',
        digits: 2,
        budget: floorRatioBudget,
      },
      {
        part: 'shop',
        name: `"Weiter" painted, slow mobile, median of ${loads}`,
        value: median(harsh),
        unit: 'ms',
      },
    ];
  } finally {
    if (!lent) await browser.close();
    await floor.close();
    await shop.close();
  }
}
