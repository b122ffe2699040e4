// Bundles the server and its command-line tools into ES modules in dist/server/, which `npm start`,
// `npm run account`/`backup`/…, the image and the tests run with plain Node: through tsx every start
// resolved and transformed a few hundred TypeScript files over a loader thread, about 40 % of a
// server start's CPU time and two thirds of a tool's. The entries share their code in chunks, with the
// migrations and seeds they import and the packages they use: left in node_modules, a start opened
// some 1,260 of their files and 280 package.json files on the way, and resolving, reading and
// compiling them one by one cost a server start about a fifth of its CPU time (2.1 against 1.7
// CPU-seconds). Two stay outside: PGlite, which loads its WebAssembly and data files from beside its
// own module, and the drivers of databases we never use, which knex requires only for the client it
// is given (and which are not installed). The source maps point stack traces at the TypeScript lines
// (`node --enable-source-maps`).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Each bundle (dist/server/<name>.mjs) and its entry; package.json's scripts run them by these names,
 * and scripts/ensure-build.mjs checks that each is current.
 */
export const entries = {
  server: 'api/src/server.ts',
  account: 'api/src/cli/account.ts',
  'stripe-setup': 'api/src/cli/stripe-setup.ts',
  'stripe-connect': 'api/src/cli/stripe-connect.ts',
  maintenance: 'api/src/cli/maintenance.ts',
  paper: 'api/src/cli/paper.ts',
};

async function buildServer() {
  // Imported here: the image runs ensure-build.mjs, which reads `entries`, without esbuild.
  const { build } = await import('esbuild');
  const { metafile } = await build({
    entryPoints: entries,
    outdir: 'dist/server',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [
      '@electric-sql/pglite',
      '@electric-sql/pglite/*',
      ...['better-sqlite3', 'mariadb/*', 'mysql', 'mysql2', 'oracledb', 'sqlite3', 'tedious'],
    ],
    // The packages written as CommonJS call `require`, which an ES module has not: each output file
    // makes its own from its location (no file of ours declares a `require` at the top).
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: 'warning',
    metafile: true,
  });

  // A rebuild names its chunks anew (by their content): the ones no bundle imports any more go. A
  // running process has loaded its chunks at its start (the code imports nothing later).
  const written = new Set(Object.keys(metafile.outputs).map((file) => path.resolve(file)));
  const chunks = fs.existsSync('dist/server/chunks') ? fs.readdirSync('dist/server/chunks') : [];
  for (const name of chunks) {
    const file = path.resolve('dist/server/chunks', name);
    if (!written.has(file)) fs.rmSync(file);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
