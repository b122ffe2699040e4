// `npm run bench`: every part below, one after the other, bounded (each stops by itself), on this
// machine and on loopback only; then one table of every figure measured, with the budgets the issues
// gave and whether they hold. `npm run bench -- <part>` runs one part and ends with its figures.
// - load (bench/load.ts): the bare-Koa ceiling, whole purchases end to end and the hot single
//   routes, on PGlite and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL);
// - purchases (bench/purchases.ts): whole purchases with the app, the Stripe sandbox and the load
//   generator in three processes: the app's purchases per second and CPU ms per purchase;
// - papers (bench/papers.ts): 50 demo papers served by one process on PostgreSQL, against one
//   paper's installation in the same run: memory and connections per paper, the hot paths' rates;
// - books (bench/books.ts): the back office's money queries under a long history;
// - migrate (bench/migrate.ts): that history brought from the migration before the counter's to the
//   latest (after books, whose history it copies);
// - shop (bench/shop.ts): the shop's first screen in a throttled Chromium;
// - admin (bench/admin.ts): the JavaScript of the back office's first screen and of /me;
// - lighthouse (bench/lighthouse.ts): Lighthouse's four scores on the landing page, a receipt and /me.
import { benchAdmin } from './admin.ts';
import { benchBooks } from './books.ts';
import { passes, printFigures, type BenchPart, type Figure } from './figures.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchLoad } from './load.ts';
import { benchMigrate } from './migrate.ts';
import { benchPapers } from './papers.ts';
import { benchPurchases } from './purchases.ts';
import { benchShop } from './shop.ts';

const parts: Record<string, BenchPart> = {
  load: benchLoad,
  purchases: benchPurchases,
  papers: benchPapers,
  books: benchBooks,
  migrate: benchMigrate,
  shop: benchShop,
  admin: benchAdmin,
  lighthouse: benchLighthouse,
};

const only = process.argv[2];
if (only && !parts[only]) {
  console.error(`There is no bench part "${only}"; choose one of ${Object.keys(parts).join(', ')}.`);
  process.exit(2);
}

const figures: Figure[] = [];
for (const [name, part] of Object.entries(parts)) {
  if (only && name !== only) continue;
  console.log(`\n=== ${name} ===\n`);
  figures.push(...(await part()));
}

console.log(`\n=== every figure${only ? ` of ${only}` : ''} ===\n`);
printFigures(figures);
const failed = figures.filter((figure) => passes(figure) === false);
if (failed.length)
  console.error(
    `\n${failed.length} figure(s) outside their budget: ${failed.map((f) => `${f.part}: ${f.name}`).join('; ')}`,
  );
// Background work of the parts (webhook retries, pools) must not keep the bench running.
process.exit(failed.length ? 1 : 0);
