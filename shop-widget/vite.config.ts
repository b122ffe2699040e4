import path from 'node:path';
import preact from '@preact/preset-vite';
import { build, defineConfig, type Plugin } from 'vite';

// The shop widget, built to dist/shop-widget:
// - index.html with its hashed scripts below assets/: the shop's own pages (/, /v/<licenceId>, …),
//   where the server inlines the first screen's data;
// - widget.js: the embed script for the newspaper's own website. The snippet there is a classic
//   `<script async>` (a module script has no document.currentScript to find its shop and vendor),
//   so it is one self-contained script under a stable name. The shop page's hashed chunks would not
//   help it anyway: browsers keep a separate cache for every site a page belongs to;
// - dist/shop-widget-server/server.js: the same components for the API, which renders the first
//   screen into the page (outside dist/shop-widget, so it is no file the shop serves).
const root = path.resolve(import.meta.dirname);
const outDir = path.resolve(root, '../dist/shop-widget');
const serverOutDir = path.resolve(root, '../dist/shop-widget-server');

function embedScript(): Plugin {
  return {
    name: 'shop-embed-script',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [preact()],
        define: { 'process.env.NODE_ENV': '"production"' },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          target: 'es2020',
          lib: {
            entry: path.resolve(root, 'src/widget.ts'),
            formats: ['iife'],
            name: 'streetPaperShop',
            fileName: () => 'widget.js',
          },
        },
      });
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [preact()],
        build: {
          outDir: serverOutDir,
          emptyOutDir: true,
          copyPublicDir: false,
          target: 'node20',
          ssr: path.resolve(root, 'src/server.tsx'),
        },
      });
    },
  };
}

export default defineConfig({
  root,
  base: '/',
  plugins: [preact(), embedScript()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2020',
    // Every browser the shop supports preloads modules itself; the polyfill would only cost bytes.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/files': 'http://localhost:3000', '/img': 'http://localhost:3000' },
  },
});
