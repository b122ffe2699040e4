import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { leaseChromium } from './browser.ts';
import { removeDir, startServer, type RunningServer, type ServerOptions } from './server.ts';

export interface E2e {
  server: RunningServer;
  browser: Browser;
}

/**
 * The real server (fresh data directory) and Chromium (the process's one, with contexts of this
 * describe's own) for the enclosing describe. After it, the server stops and the contexts close,
 * and the server must have shut down cleanly (exit code 0 on SIGTERM).
 */
export function useServerAndBrowser(options: ServerOptions = {}): E2e {
  const e2e = {} as E2e;
  before(async function () {
    this.timeout(180_000);
    [e2e.server, e2e.browser] = await Promise.all([startServer(options), leaseChromium()]);
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
