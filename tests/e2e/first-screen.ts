import http from 'node:http';
import type { Page } from 'playwright-core';

// The shop's first screen as a phone loads it: which requests it makes, and how many bytes (gzip)
// the page and its scripts and styles cost. Shared by the e2e test of the budget and `npm run bench`.

export interface Loaded {
  url: string;
  /** Chromium's resource type: document, script, stylesheet, image, fetch, … */
  type: string;
}

/** Opens `url` and waits until the landing page's "Next" button shows; answers every request made. */
export async function openFirstScreen(page: Page, url: string): Promise<Loaded[]> {
  const requests: Loaded[] = [];
  page.on('request', (request) => requests.push({ url: request.url(), type: request.resourceType() }));
  await page.goto(url);
  await page.locator('#shop-next').waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
  return requests;
}

/** The size of a response as it travels when the browser accepts gzip (headers not counted). */
export function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url} answered ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

/** What the first screen costs in gzip bytes: the page and every script and style sheet it loaded. */
export async function firstScreenBytes(
  requests: Loaded[],
): Promise<{ total: number; files: { url: string; bytes: number }[] }> {
  const urls = [
    ...new Set(requests.filter((r) => ['document', 'script', 'stylesheet'].includes(r.type)).map((r) => r.url)),
  ];
  const files = await Promise.all(urls.map(async (url) => ({ url, bytes: await gzipBytes(url) })));
  return { total: files.reduce((sum, f) => sum + f.bytes, 0), files };
}
