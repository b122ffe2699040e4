// Takes the README's screenshots with Chromium (CHROMIUM_PATH, default /usr/bin/chromium-headless-shell):
// starts the real server on a throw-away database with the demo newspaper and its history of sales, photographs
// the shop at phone width and the back office's statistics at desktop width.
// Run: npx tsx scripts/screenshots.ts   (after `npm run build`)
import fs from 'node:fs';
import path from 'node:path';
import { openLoggedIn } from '../tests/e2e/admin-login.ts';
import { launchChromium, phone } from '../tests/e2e/browser.ts';
import { removeDir, repoRoot, startServer } from '../tests/e2e/server.ts';

const target = path.join(repoRoot, 'docs/screenshots');
fs.mkdirSync(target, { recursive: true });
const wrote = (file: string) => console.log(`wrote ${path.relative(repoRoot, path.join(target, file))}`);
// The statistics show the demo's months of sales, as on a fresh `npm start`.
const server = await startServer({ env: { SEED_HISTORY: 'true' } });
const browser = await launchChromium();
try {
  const shop = await browser.newPage({ viewport: phone, deviceScaleFactor: 1, locale: 'de-AT' });
  await shop.goto(`${server.url}/v/DEMO-1`);
  await shop.locator('#shop-landing-title').waitFor();
  await shop.waitForFunction(() => document.querySelector<HTMLImageElement>('#shop-logo')?.complete);
  await shop.screenshot({ path: path.join(target, 'shop-landing.png') });
  wrote('shop-landing.png');

  const office = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'de-AT' });
  await openLoggedIn(office, `${server.url}/backoffice/statistics`, 'office', 'office');
  await office.locator('svg.chart-items rect').first().waitFor();
  await office.screenshot({ path: path.join(target, 'backoffice-statistics.png'), fullPage: true });
  wrote('backoffice-statistics.png');
} finally {
  await browser.close();
  const code = await server.stop();
  removeDir(server.dataDir);
  if (code !== 0) process.exitCode = 1;
}
