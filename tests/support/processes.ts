import { createDb, type Db } from '../../api/src/db/connection.ts';
import { freePort, startServer, type RunningServer } from '../e2e/server.ts';
import { startBalancer, type Balancer } from './balancer.ts';

// Several real API processes (`api/src/server.ts`) on one PostgreSQL database of their own, behind a
// round-robin balancer whose address is their PUBLIC_URL: customers, the Stripe sandbox's webhooks
// and the processes' own Stripe calls all alternate between them, as behind a production balancer.

export interface Cluster {
  /** The balancer's address, the processes' PUBLIC_URL. */
  url: string;
  balancer: Balancer;
  servers: RunningServer[];
  /** The processes' database, for assertions. */
  db: Db;
  stop(): Promise<void>;
}

async function onServer(adminUrl: string, sql: string): Promise<void> {
  const admin = createDb({ databaseUrl: adminUrl, dataDir: '' });
  try {
    await admin.raw(sql);
  } finally {
    await admin.destroy();
  }
}

/**
 * Creates the database `name` on the server of `adminUrl` and starts `count` processes on it at the
 * same time (they migrate and seed the empty database together). `stop` drops the database.
 */
export async function startCluster(adminUrl: string, name: string, { count = 2, env = {} } = {}): Promise<Cluster> {
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).href;
  await onServer(adminUrl, `drop database if exists "${name}" with (force)`);
  await onServer(adminUrl, `create database "${name}"`);
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const balancer = await startBalancer(ports.map((port) => `http://127.0.0.1:${port}`));
  const started = await Promise.allSettled(
    ports.map((port) => startServer({ port, databaseUrl, env: { PUBLIC_URL: balancer.url, ...env } })),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const db = createDb({ databaseUrl, dataDir: '' });
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await balancer.close();
    await db.destroy();
    await onServer(adminUrl, `drop database if exists "${name}" with (force)`);
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { url: balancer.url, balancer, servers, db, stop };
}
