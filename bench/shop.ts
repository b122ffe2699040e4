// The shop's first screen on a phone: the bytes (gzip) of /v/DEMO-1 with every script and style
// sheet it loads, and the time until the "Next" button shows in Chromium on a slow mobile network
// (400 ms round trip, 400 kbit/s down, 200 kbit/s up) with a 4× slower CPU, median of cold loads
// (a fresh browser profile each, so nothing comes from the cache). BENCH_LOADS (default 5).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/config.ts';
import { createDb, migrate } from '../api/src/db.ts';
import { setLogSilent } from '../api/src/log.ts';
import { seedOnFirstStart } from '../seeds/index.ts';
import { launchChromium } from '../tests/e2e/browser.ts';
import { firstScreenBytes, openFirstScreen } from '../tests/e2e/first-screen.ts';
import { repoRoot } from '../tests/e2e/server.ts';
import { ensureBuild } from './build.ts';
import { median, type Figure } from './figures.ts';

const slowMobile = {
  offline: false,
  latency: 400,
  downloadThroughput: (400 * 1000) / 8,
  uploadThroughput: (200 * 1000) / 8,
};
const cpuSlowdown = 4;
const phone = { width: 375, height: 740 };
/** The first screen's bytes (HTML, scripts, styles; gzip) may not exceed this. */
const budgetBytes = 25 * 1024;

/** Milliseconds from navigation start until "Next" is visible, in a fresh, throttled context. */
async function throttledLoad(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: phone, deviceScaleFactor: 2, locale: 'de-AT' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', slowMobile);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    const started = performance.now();
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    await page.locator('#shop-next').waitFor({ state: 'visible', timeout: 60_000 });
    return performance.now() - started;
  } finally {
    await context.close();
  }
}

export async function benchShop(): Promise<Figure[]> {
  const loads = Math.min(Math.max(Number(process.env.BENCH_LOADS ?? 5) || 5, 1), 25);
  ensureBuild();
  setLogSilent(true);
  const db = createDb({ dataDir: 'memory://' });
  await migrate(db);
  await seedOnFirstStart(db);
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({ PORT: '0', PUBLIC_URL: origin, DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
  const handle = buildApp({ db, config, distDir: `${repoRoot}/dist` }).callback();
  server.on('request', (req, res) => void handle(req, res));
  const browser = await launchChromium();
  try {
    const url = `${origin}/v/DEMO-1`;
    const context = await browser.newContext({ viewport: phone });
    const requests = await openFirstScreen(await context.newPage(), url);
    await context.close();
    const { total, files } = await firstScreenBytes(requests);

    const times: number[] = [];
    for (let i = 0; i < loads; i++) times.push(await throttledLoad(browser, url));

    console.log(`\nShop first screen (/v/DEMO-1, Chromium at ${phone.width} px)`);
    for (const file of files)
      console.log(`  ${new URL(file.url).pathname.padEnd(40)} ${String(file.bytes).padStart(7)} B gzip`);
    console.log(
      `  ${'total (HTML + JS + CSS, without images)'.padEnd(40)} ${String(total).padStart(7)} B gzip  (${(total / 1024).toFixed(1)} KB; budget ${budgetBytes / 1024} KB)`,
    );
    console.log(
      `  time to "Next" visible, ${slowMobile.latency} ms RTT, ${(slowMobile.downloadThroughput * 8) / 1000} kbit/s down, CPU ${cpuSlowdown}× slower:`,
    );
    console.log(
      `    median ${median(times).toFixed(0)} ms of ${loads} cold loads (${times.map((t) => t.toFixed(0)).join(', ')} ms)`,
    );
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
        name: `time to "Next", slow mobile, median of ${loads} cold loads`,
        value: median(times),
        unit: 'ms',
      },
    ];
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await db.destroy();
  }
}
