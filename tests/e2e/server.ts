import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The repository root, whatever the current directory of the test run. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Where e2e tests put screenshots (gitignored). */
export const outputDir = path.join(repoRoot, '.test-output');

/** The first port the system hands out by itself (to `listen(0)` and to outgoing connections). */
function ephemeralPortsStart(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A loopback port that was free a moment ago, picked at random below the system's own range: the
 * unit and API tests run beside the e2e tests (scripts/test.mjs) and open ports by the hundred, and
 * a port the system picked could go to them before the server started here has bound it.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = Math.max(ephemeralPortsStart(), low + 1_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high} after 100 tries`);
}

/** A fresh, empty temporary folder (removed by `removeDir`). */
export function tempDir(prefix = 'street-paper-e2e-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface ServerOptions {
  /** PGlite data directory; a fresh temporary one when neither this nor databaseUrl is given. */
  dataDir?: string;
  /** PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  port?: number;
  /** More environment variables (OIDC_ISSUER, …); undefined removes one (PUBLIC_URL: undefined starts without it). */
  env?: Record<string, string | undefined>;
  /** How long to wait for /readyz. */
  readyTimeoutMs?: number;
  /** The checkout whose server runs (the bench measures an earlier commit's app by it); this one unless told. */
  root?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Everything the process printed so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code (throws when the process does not exit within `timeoutMs`). */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts the real server (`api/src/server.ts`) as a child process, as `npm start` does minus the
 * build, with LOG_LEVEL=silent, and resolves once /readyz answers 200.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? tempDir();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    // every e2e test starts from an empty ledger
    SEED_HISTORY: 'false',
    OIDC_ISSUER: '',
    EMBED_ORIGINS: '',
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: options.root ?? repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const stop = async (timeoutMs = 10_000) => {
    if (!hasExited) child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the server did not exit within ${timeoutMs} ms of SIGTERM\n${out}\n${err}`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (hasExited) throw new Error(`the server exited before it was ready (code ${child.exitCode})\n${out}\n${err}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop().catch(() => undefined);
      throw new Error(`the server was not ready within ${options.readyTimeoutMs ?? 60_000} ms\n${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, dataDir, process: child, stdout: () => out, stderr: () => err, stop };
}
