// Bundles the server (api/src/server.ts with the migrations and seeds it imports) into one ES module,
// dist/server/server.mjs, which `npm start`, the image and the tests run with plain Node. Through
// tsx every start resolved and transformed a few hundred TypeScript files over a loader thread:
// about 40 % of a start's CPU time. The packages stay in node_modules (`packages: 'external'`), so
// the bundle holds only our code, and its source map points stack traces at the TypeScript lines
// (`node --enable-source-maps`). The CLIs (`npm run account`, backup, …) still run through tsx.
import { build } from 'esbuild';

await build({
  entryPoints: ['api/src/server.ts'],
  outfile: 'dist/server/server.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
