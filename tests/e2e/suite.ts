import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { leaseChromium } from './browser.ts';
import { testServer } from './host.ts';
import { removeDir, type RunningServer, type ServerOptions } from './server.ts';

export interface E2e {
  server: RunningServer;
  browser: Browser;
}

/**
 * The server (a fresh data directory, a copy of the seeded template unless `dataDir` is given) and
 * Chromium (the process's one, with contexts of this describe's own) for the enclosing describe. The
 * server is the process's host serving this describe's paper (host.ts), or, with `ownProcess` or
 * settings of the process of its own (a port, PostgreSQL), a server started for it. After it, the
 * server stops and the contexts close, and the server must have shut down cleanly (exit code 0 on
 * SIGTERM, or the paper stopped without an error nobody caught).
 */
export function useServerAndBrowser(options: ServerOptions & { ownProcess?: boolean } = {}): E2e {
  const e2e = {} as E2e;
  before(async function () {
    this.timeout(180_000);
    [e2e.server, e2e.browser] = await Promise.all([testServer(options), leaseChromium()]);
  });
  after(async function () {
    this.timeout(30_000);
    await e2e.browser?.close();
    if (e2e.server) {
      const code = await e2e.server.stop();
      removeDir(e2e.server.dataDir);
      assert.equal(code, 0, 'the server exits with 0 on SIGTERM');
    }
  });
  return e2e;
}
