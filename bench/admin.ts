// The back office's first screen and the vendors' /me page: the gzip bytes of the JavaScript their
// HTML loads before anything else (module scripts and module preloads of the built pages; chunks
// loaded later, such as the map, charts or QR codes, are not counted). /me has a budget of 80 KB.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../tests/e2e/server.ts';
import { ensureBuild } from './build.ts';
import type { Figure } from './figures.ts';

const distAdmin = path.join(repoRoot, 'dist', 'admin');

export interface PageScripts {
  page: string;
  files: { file: string; bytes: number }[];
  total: number;
}

/** The scripts an HTML page of dist/admin loads at once, each with its size gzipped. */
export function pageScriptBytes(htmlFile: string): PageScripts {
  const html = fs.readFileSync(path.join(distAdmin, htmlFile), 'utf8');
  const tags = [
    ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ];
  const urls = [...new Set(tags.map((match) => match[1] ?? match[2]))];
  const files = urls.map((url) => {
    // Built with base /backoffice/: /backoffice/assets/x.js is dist/admin/assets/x.js.
    const file = path.join(distAdmin, url.replace(/^\/backoffice\//, ''));
    return { file: url, bytes: gzipSync(fs.readFileSync(file), { level: 9 }).length };
  });
  return { page: htmlFile, files, total: files.reduce((sum, entry) => sum + entry.bytes, 0) };
}

/** Both pages: the back office (index.html) and /me (me.html). */
export function adminScriptBytes(): { backoffice: PageScripts; me: PageScripts } {
  return { backoffice: pageScriptBytes('index.html'), me: pageScriptBytes('me.html') };
}

/** The specification's budget for /me. */
const meBudgetBytes = 80 * 1024;

export function benchAdmin(): Figure[] {
  ensureBuild();
  const { backoffice, me } = adminScriptBytes();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const [title, result, budget] of [
    ['Back office first screen (/backoffice)', backoffice, ''],
    ['Vendor page (/me)', me, `; budget ${kb(meBudgetBytes)}`],
  ] as const) {
    console.log(`\n${title}: JavaScript loaded at once, gzip`);
    for (const entry of result.files) console.log(`  ${entry.file.padEnd(50)} ${String(entry.bytes).padStart(7)} B`);
    console.log(`  ${'total'.padEnd(50)} ${String(result.total).padStart(7)} B  (${kb(result.total)}${budget})`);
  }
  return [
    {
      part: 'admin',
      name: 'back office first screen, JavaScript gzip',
      value: backoffice.total / 1024,
      unit: 'KB',
      digits: 1,
    },
    {
      part: 'admin',
      name: '/me, JavaScript gzip',
      value: me.total / 1024,
      unit: 'KB',
      digits: 1,
      budget: meBudgetBytes / 1024,
    },
  ];
}
