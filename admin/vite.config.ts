import path from 'node:path';
import { defineConfig } from 'vite';

// The back office and the vendor area: served by the API at /backoffice and /me, built to dist/admin.
const root = path.resolve(import.meta.dirname);

export default defineConfig({
  root,
  base: '/backoffice/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: path.resolve(root, '../dist/admin'),
    emptyOutDir: true,
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
