import path from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The shop widget: served by the API at / (and /v/<licenceId>), built to dist/shop-widget.
const root = path.resolve(import.meta.dirname);

export default defineConfig({
  root,
  base: '/',
  plugins: [preact()],
  build: {
    outDir: path.resolve(root, '../dist/shop-widget'),
    emptyOutDir: true,
    target: 'es2020',
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
