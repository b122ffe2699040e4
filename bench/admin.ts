// The back office's first screen and the vendors' /me page: the gzip bytes of the JavaScript each
// loads. For the back office, what Chromium fetches from opening /backoffice, through the login, until
// the vendor list shows its rows (budget 300 KB); for /me, the scripts its HTML loads at once
// (budget 80 KB, the specification). Chunks loaded later (map, charts, QR codes, other screens) are
// not counted. The end-to-end test of the back office's first screen measures the same (adminScripts,
// adminFigures) in its Chromium and holds the budget; the part itself is the same at any size.
import type { Browser } from 'playwright-core';
import {
  backofficeBudgetBytes,
  pageScriptBytes,
  scriptsBeforeVendorList,
  type PageScripts,
} from '../tests/e2e/backoffice-first-screen.ts';
import { ensureBuild } from './build.ts';
import type { Figure } from './figures.ts';

/** The specification's budget for /me. */
const meBudgetBytes = 80 * 1024;

interface AdminScripts {
  backoffice: PageScripts;
  me: PageScripts;
}

/** The scripts both pages load, the back office's in `browser` when given (left open), else in a Chromium of its own. */
export async function adminScripts(browser?: Browser): Promise<AdminScripts> {
  return { backoffice: await scriptsBeforeVendorList(browser), me: pageScriptBytes('me.html') };
}

export async function benchAdmin(): Promise<Figure[]> {
  ensureBuild();
  const scripts = await adminScripts();
  const { backoffice, me } = scripts;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const [title, result, budget] of [
    ['Back office until the vendor list shows (/backoffice)', backoffice, backofficeBudgetBytes],
    ['Vendor page (/me)', me, meBudgetBytes],
  ] as const) {
    console.log(`\n${title}: JavaScript loaded, gzip`);
    for (const entry of result.files) console.log(`  ${entry.file.padEnd(50)} ${String(entry.bytes).padStart(7)} B`);
    console.log(
      `  ${'total'.padEnd(50)} ${String(result.total).padStart(7)} B  (${kb(result.total)}; budget ${kb(budget)})`,
    );
  }
  return adminFigures(scripts);
}

export function adminFigures({ backoffice, me }: AdminScripts): Figure[] {
  return [
    {
      part: 'admin',
      name: 'back office until the vendor list, JavaScript gzip',
      value: backoffice.total / 1024,
      unit: 'KB',
      digits: 1,
      budget: backofficeBudgetBytes / 1024,
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
