// Takes the README's screenshots with Chromium (CHROMIUM_PATH, default /usr/bin/chromium): starts the
// real server on a throw-away database with the demo newspaper and photographs the shop at phone width.
// Run: npx tsx scripts/screenshots.ts   (after `npm run build`)
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, phone } from '../tests/e2e/browser.ts';
import { removeDir, repoRoot, startServer } from '../tests/e2e/server.ts';

const target = path.join(repoRoot, 'docs/screenshots');
fs.mkdirSync(target, { recursive: true });
const server = await startServer();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: phone, deviceScaleFactor: 1, locale: 'de-AT' });
  await page.goto(`${server.url}/v/DEMO-1`);
  await page.locator('#shop-landing-title').waitFor();
  await page.waitForFunction(() => document.querySelector<HTMLImageElement>('#shop-logo')?.complete);
  await page.screenshot({ path: path.join(target, 'shop-landing.png') });
  console.log(`wrote ${path.relative(repoRoot, path.join(target, 'shop-landing.png'))}`);
} finally {
  await browser.close();
  const code = await server.stop();
  removeDir(server.dataDir);
  if (code !== 0) process.exitCode = 1;
}
