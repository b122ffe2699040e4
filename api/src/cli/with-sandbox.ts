import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../foundations/config.ts';
import { createDb, migrate, type Db } from '../db/connection.ts';

/**
 * For a command without STRIPE_SECRET_KEY: runs `run` against this installation's own sandbox, on
 * its database, with the SDK's requests answered in this process.
 */
export async function withSandbox<T>(run: (config: Config, db: Db) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    return await onSandboxOf(db, config, (local) => run(local, db));
  } finally {
    await db.destroy();
  }
}

/**
 * Runs `run` with `config` pointed at the sandbox of `db` (an installation's, or a paper's of a
 * platform), answered in this process on a loopback port of its own; PUBLIC_URL stays the address it
 * registers, as the running server's sandbox would.
 */
export async function onSandboxOf<T>(db: Db, config: Config, run: (config: Config) => Promise<T>): Promise<T> {
  const server = http.createServer();
  try {
    const handle = buildApp({ db, config }).callback();
    server.on('request', (req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return await run({ ...config, stripe: { ...config.stripe, apiUrl } });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
