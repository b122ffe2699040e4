import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

// Two pages built to dist/admin: index.html, the react-admin back office served at /backoffice, and
// me.html, the vendors' page served at /me. Both load their scripts from /backoffice/assets/ and
// share the login code.
const root = path.resolve(import.meta.dirname);

/**
 * Both pages are written against React's API and rendered by preact/compat: React 19's DOM renderer
 * alone is about 64 KB gzip. With it, /me would miss its 80 KB budget before its first line of code
 * and the back office would load about 350 KB of JavaScript before its vendor list instead of under
 * 300 KB. react-admin, MUI and react-router run unchanged on it (the e2e suite drives
 * every screen).
 */
const reactOnPreact: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-runtime',
};

function preactForReact(): Plugin {
  return {
    name: 'preact-for-react',
    enforce: 'pre',
    resolveId(source, importer, options) {
      const target = reactOnPreact[source];
      if (!importer || !target) return null;
      return this.resolve(target, importer, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  root,
  base: '/backoffice/',
  plugins: [preactForReact()],
  resolve: { alias: { 'object.entries': path.resolve(root, 'src/shims/object-entries.cjs') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: path.resolve(root, '../dist/admin'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: { index: path.resolve(root, 'index.html'), me: path.resolve(root, 'me.html') },
      // The libraries of the back office's first screen travel as one file: gzip compresses one large
      // file far better than the forty small ones automatic splitting makes of them (about 25 KB less
      // before the vendor list). What /me shares with it (Preact, the OpenID client, Vite's preload
      // helper) is a file of its own, so /me never loads the back office's libraries.
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'libraries-shared',
              test: /node_modules[\\/](preact|oidc-client-ts|jwt-decode|vite)[\\/]/,
              priority: 2,
            },
            { name: 'backoffice-libraries', test: /node_modules/, tags: ['$initial'], priority: 1 },
          ],
        },
      },
      // MUI marks its modules 'use client' for React Server Components; meaningless in this bundle.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/oidc': 'http://localhost:3000', '/files': 'http://localhost:3000' },
  },
});
