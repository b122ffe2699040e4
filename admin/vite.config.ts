import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

// Two pages built to dist/admin: index.html, the react-admin back office served at /backoffice, and
// me.html, the vendors' page served at /me. Both load their scripts from /backoffice/assets/ and
// share the login code.
const root = path.resolve(import.meta.dirname);

/**
 * /me is written against React's API but rendered by preact/compat: React 19's DOM renderer alone is
 * about 69 KB gzip, and with the OpenID client /me would miss its 80 KB budget before its first line
 * of code. Only modules below src/me/ get the alias; the back office keeps React (react-admin needs it).
 */
function preactForVendorPage(): Plugin {
  const meDir = path.join(root, 'src', 'me') + path.sep;
  const compat: Record<string, string> = {
    react: 'preact/compat',
    'react-dom': 'preact/compat',
    'react-dom/client': 'preact/compat/client',
    'react/jsx-runtime': 'preact/jsx-runtime',
    'react/jsx-dev-runtime': 'preact/jsx-runtime',
  };
  return {
    name: 'preact-for-vendor-page',
    enforce: 'pre',
    resolveId(source, importer, options) {
      if (!importer?.startsWith(meDir) || !(source in compat)) return null;
      return this.resolve(compat[source], importer, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  root,
  base: '/backoffice/',
  plugins: [preactForVendorPage()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: path.resolve(root, '../dist/admin'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: { index: path.resolve(root, 'index.html'), me: path.resolve(root, 'me.html') },
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
