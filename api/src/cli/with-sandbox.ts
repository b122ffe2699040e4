import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../app.ts';
import { loadConfig } from '../foundations/config.ts';
import { createDb, migrate } from '../db/connection.ts';

/**
 * For a command without STRIPE_SECRET_KEY: runs `run` against this installation's own sandbox, on
 * its database, with the SDK's requests answered in this process.
 */
export async function withSandbox<T>(
  run: (config: ReturnType<typeof loadConfig>, db: ReturnType<typeof createDb>) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const db = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // The sandbox answers in this process, on a loopback port of its own; PUBLIC_URL stays the
  // address it registers, as the running server's sandbox would.
  const server = http.createServer();
  try {
    await migrate(db);
    const handle = buildApp({ db, config }).callback();
    server.on('request', (req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return await run({ ...config, stripe: { ...config.stripe, apiUrl } }, db);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.destroy();
  }
}
