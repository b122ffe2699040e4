import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { logInAtProvider } from './admin-login.ts';
import { launchChromium } from './browser.ts';
import { removeDir, repoRoot, startServer } from './server.ts';

// The back office's first screen as office staff reach it: the JavaScript Chromium fetches from
// opening /backoffice, through the login, until the vendor list shows its rows. Shared by the e2e
// test of the budget and `npm run bench`.

const distAdmin = path.join(repoRoot, 'dist', 'admin');

export interface PageScripts {
  page: string;
  files: { file: string; bytes: number }[];
  total: number;
}

/** Scripts by their URL under /backoffice/, each with its built file's size gzipped at level 9. */
export function scriptBytes(page: string, urls: Iterable<string>): PageScripts {
  const files = [...new Set(urls)].map((url) => ({
    file: url,
    bytes: gzipSync(fs.readFileSync(path.join(distAdmin, url.replace(/^\/backoffice\//, ''))), { level: 9 }).length,
  }));
  return { page, files, total: files.reduce((sum, entry) => sum + entry.bytes, 0) };
}

/** The scripts an HTML page of dist/admin loads at once (module scripts and module preloads). */
export function pageScriptBytes(htmlFile: string): PageScripts {
  const html = fs.readFileSync(path.join(distAdmin, htmlFile), 'utf8');
  const tags = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ];
  return scriptBytes(
    htmlFile,
    tags.map((match) => match[1] ?? match[2] ?? ''),
  );
}

/**
 * Every script fetched from /backoffice until the logged-in office staff see the vendor list's rows,
 * in `chromium` when given (a test's, which it closes itself), else in a Chromium of its own.
 */
export async function scriptsBeforeVendorList(chromium?: Browser): Promise<PageScripts> {
  const server = await startServer();
  const browser = chromium ?? (await launchChromium());
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: 'de-AT' });
    const urls: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') urls.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/backoffice/vendorsummary`);
    await logInAtProvider(page, 'office', 'office');
    await page.locator('table tbody tr').first().waitFor({ timeout: 60_000 });
    return scriptBytes('/backoffice until the vendor list', urls);
  } finally {
    if (!chromium) await browser.close();
    await server.stop();
    removeDir(server.dataDir);
  }
}

/** at most this much gzipped JavaScript before the vendor list. */
export const backofficeBudgetBytes = 300 * 1024;
