// ESLint (flat config): typescript-eslint's type-checked recommended rules for every TypeScript file,
// and the React hook rules for the two front ends (the widget's hooks come from preact/compat).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * A digest of every file a type-aware rule may read (the TypeScript sources, the tsconfigs, the
 * installed versions), carried in the settings. `npm run lint` keeps ESLint's cache, which reuses a
 * file's result while the file and its configuration stay the same; but a type-aware rule's result
 * also depends on the files that file imports, which the cache does not see
 * (https://github.com/typescript-eslint/typescript-eslint/issues/4694). With the digest in the
 * configuration, a cached result is reused only for the very tree it was found in: a second run
 * costs next to nothing, and any change lints everything again, so no finding is ever missed.
 * Outside a git checkout there is no digest to trust, and nothing is reused.
 */
function typesDigest() {
  const root = import.meta.dirname;
  let files;
  try {
    files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).split('\0');
  } catch {
    return `not a checkout ${Date.now()}`;
  }
  const hash = createHash('sha256');
  for (const file of files.filter((name) => /\.(ts|tsx|mts|cts|json)$/.test(name)).sort()) {
    // A file deleted but not yet staged is still listed: it adds its name alone.
    hash.update(`${file}\0`);
    if (fs.existsSync(path.join(root, file))) hash.update(fs.readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/.test-output/', 'data/', 'package-lock.json'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Each file is checked with the tsconfig that owns it (api/, admin/, shop-widget/ or the root).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    settings: { typesDigest: typesDigest() },
  },
  {
    rules: {
      // The code base drops properties by destructuring them into `_name` or beside a `...rest`
      // (`const { secret: _secret, ...shown } = endpoint`): those names are unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  // The layers of api/src point one way (docs/architecture.md): routes → domain → db, with http/ at
  // the bottom of the request side. http/ knows Koa, errors and auth and imports no domain folder
  // (vendors, orders, ledger, counter, payouts, shop, identity, protocol, stripe, webhooks-out, items,
  // settings, files, pdf, mail, …): only what every layer may use: foundations/ (config, log, the
  // domain errors it answers, the period rule, CSV lines, lists, form fields, the event loop's slices),
  // db/ and language/. What it needs of a domain, app.ts hands it.
  {
    files: ['api/src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!foundations/|language/|db/)',
              message:
                'http/ imports no domain folder, only foundations/, db/ and language/; let app.ts hand it what it needs.',
            },
          ],
        },
      ],
    },
  },
  // Domains throw the domain errors of api/src/foundations/errors.ts and import nothing from http/. The route
  // layer may: app.ts, routes.ts and server.ts, every routes.ts and *-routes.ts, and the few files
  // that answer requests themselves (web/, the shop's page and its forms, the protocol around audited routes, the
  // Stripe sandbox's and the login provider's own HTTP surfaces). A command-line tool is no route.
  {
    files: ['api/src/**/*.ts'],
    ignores: [
      'api/src/http/**',
      'api/src/{app,routes,server}.ts',
      'api/src/**/routes.ts',
      'api/src/**/*-routes.ts',
      'api/src/web/**',
      'api/src/shop/{page,forms}.ts',
      'api/src/protocol/middleware.ts',
      'api/src/stripe/sandbox/{api,page}.ts',
      'api/src/identity/provider/interactions.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.{1,2}/)+http/',
              message:
                'A domain imports nothing from http/: throw the domain errors of api/src/foundations/errors.ts (invalidError, notFoundError, conflictError, …), and leave requests to the routes.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['admin/src/**/*.{ts,tsx}', 'shop-widget/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    // The tests read answers as JSON (supertest's `res.body`, `JSON.parse`, page.evaluate), which is
    // `any` by design: the assertions that follow are what check its shape. The no-unsafe-* rules would
    // demand a cast before each of some 1,500 such reads that adds no check, so they are off here and
    // only here; every other type-checked rule applies to the tests as to the code.
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Migrations are forward only: knex wants `down` to return a promise, and ours only throws. The
    // existing migrations are never edited, so `async` without `await` stays there.
    files: ['migrations/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // Mocha loads its reporter with require(): tests/support/reporter.cjs is CommonJS.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Plain JavaScript (scripts/*.mjs, this file) belongs to no tsconfig: no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
