// Mocha's settings for every test process (`npm test` runs three side by side, `npx mocha FILE` one).
//
// A test process lives for minutes and makes short-lived objects by the gigabyte (requests, rows,
// PGlite's results, Chromium's protocol messages), so it collects them as `npm run types-and-lint`
// does: a young generation of 32 MB a half instead of 16 (fewer scavenges), and on its own thread
// alone, since V8's helper threads cost more CPU than they save where the processes already share
// the machine's cores (the same seven API files, four runs each, alternated: 64.5 against 59.2
// CPU-seconds on average, each pair lower with these; 64 MB gave the same as 32).
module.exports = {
  'node-option': ['import=tsx', 'max-semi-space-size=32', 'single-threaded-gc'],
  require: ['tests/support/hooks.ts'],
  reporter: 'tests/support/reporter.cjs',
  timeout: 30000,
  exit: true,
};
