import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseInUseError, lockDataDir, lockFileName } from '../../api/src/db/lock.ts';

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

/**
 * Data directories a process serves from for the whole run (the e2e host's copy of the seeded
 * template, host.ts): `removeDir` leaves them to the run's end, which removes them.
 */
export const keptDirs = new Set<string>();

export function removeDir(dir: string): void {
  if (keptDirs.has(dir)) return;
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Data directories as a first start leaves them, made once and copied for each start that would make
 * the same: migrating is most of a first start (about four CPU-seconds on PGlite), and the tests start
 * about 40 servers. `migrated` holds the schema alone, for a start that seeds its own demo (another
 * currency, country or history, a public address) or none; `seeded` adds the demo newspaper without
 * history, as the e2e servers' first start seeds it. A copy's server finds the schema current (and
 * the demo's marker row) and skips what is done, as on any later start; everything a start does
 * besides (its keys, the sandbox, the workers) it does itself.
 *
 * `npm test` names a folder of its own in TEST_TEMPLATES_DIR, which it removes at its end: its test
 * processes share the templates there, the first to need one making it and the others waiting for it
 * (`sharedTemplate`). A test file run alone makes its own, removed when its process exits.
 */
const templates: { migrated?: Promise<string>; seeded?: Promise<string> } = {};

/** `dir` holding what `template` holds, without its lock file (the template maker's, long released). */
function copyOf(template: string, dir: string): string {
  fs.cpSync(template, dir, { recursive: true, filter: (source) => path.basename(source) !== lockFileName });
  return dir;
}

/** Makes a template in `dir`, which exists and is empty. */
async function makeTemplate(kind: 'migrated' | 'seeded', dir: string): Promise<void> {
  // Loaded here, not at the top: the bench imports this module and never needs PGlite in its process.
  const [{ openDb }, { seedOnFirstStart }, { demoLoginsAtTestCost }] = await Promise.all([
    import('../../api/src/db/open.ts'),
    import('../../seeds/index.ts'),
    import('../support/demo-logins.ts'),
  ]);
  if (kind === 'seeded') copyOf(await templateDir('migrated'), dir);
  const db = await openDb({ dataDir: dir });
  try {
    if (kind === 'seeded') {
      await seedOnFirstStart(db);
      await demoLoginsAtTestCost(db);
    }
  } finally {
    await db.destroy();
  }
}

/**
 * The template `kind` in the run's shared folder: made by one process at a time, which holds the
 * product's own lock of a data directory (`lockDataDir`) on a folder beside it, and waited for by the
 * others until it is in place. It is made in a folder of its own and renamed into place once
 * complete, so no process ever copies half of one; a maker that died leaves its lock to the next,
 * as a killed server does.
 */
async function sharedTemplate(kind: 'migrated' | 'seeded', root: string): Promise<string> {
  const dir = path.join(root, kind);
  for (;;) {
    if (fs.existsSync(dir)) return dir;
    let release: () => void;
    try {
      release = lockDataDir(`${dir}-maker`);
    } catch (error) {
      if (!(error instanceof DatabaseInUseError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      // Another maker may have put it in place between the look above and the lock.
      if (!fs.existsSync(dir)) {
        const making = fs.mkdtempSync(`${dir}-making-`);
        try {
          await makeTemplate(kind, making);
          fs.renameSync(making, dir);
        } catch (error) {
          removeDir(making);
          throw error;
        }
      }
    } finally {
      release();
    }
    return dir;
  }
}

function templateDir(kind: 'migrated' | 'seeded'): Promise<string> {
  templates[kind] ??= (async () => {
    const shared = process.env.TEST_TEMPLATES_DIR;
    if (shared) return sharedTemplate(kind, shared);
    const dir = tempDir(`street-paper-e2e-${kind}-`);
    process.once('exit', () => removeDir(dir));
    await makeTemplate(kind, dir);
    return dir;
  })();
  return templates[kind];
}

/**
 * Whether a start with this environment would write what the template holds: the demo seeded
 * (SEED_DEMO=true) in the default country and currency, no sales history, and its demo passwords kept,
 * which a start that is local (no HOST, a loopback PUBLIC_URL) does. A start on its own data directory or database, or of another
 * checkout, starts as it is asked to.
 */
export function startsLikeTemplate(options: ServerOptions, env: NodeJS.ProcessEnv): boolean {
  if (options.dataDir !== undefined || options.databaseUrl || options.root) return false;
  if (env.SEED_DEMO !== 'true' || env.SEED_HISTORY !== 'false' || env.HOST || env.BIND) return false;
  // Another country's or currency's demo is seeded by its own first start.
  if (env.CURRENCY || env.COUNTRY) return false;
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(env.PUBLIC_URL ?? '').hostname);
  } catch {
    return false;
  }
}

/**
 * `dir` (a new temporary directory unless given; it must be empty) holding the demo as the e2e
 * servers' first start leaves it, for a test that needs to know its data directory but not to watch
 * a first start migrate and seed it.
 */
export async function seededCopy(dir = tempDir()): Promise<string> {
  return copyOf(await templateDir('seeded'), dir);
}

/**
 * `dir` (a new temporary directory unless given; it must be empty) holding an empty schema as the
 * first start's migrations leave it, for a test that seeds what it needs itself.
 */
export async function migratedCopy(dir = tempDir()): Promise<string> {
  return copyOf(await templateDir('migrated'), dir);
}

/**
 * Readies the data directory of a start on PGlite that brings none of its own: the seeded template
 * where the start would seed the same, else the migrated one, whose start then seeds (or not) as its
 * settings say. A directory the caller brings is its own first start, untouched.
 */
export async function prepareDataDir(options: ServerOptions, env: NodeJS.ProcessEnv, dataDir: string): Promise<void> {
  if (startsLikeTemplate(options, env)) await seededCopy(dataDir);
  else if (options.dataDir === undefined && !options.databaseUrl && !options.root) await migratedCopy(dataDir);
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
  /**
   * The origin whose /readyz says the server is ready, when not the server's own: a platform
   * (PLATFORM_DOMAIN) answers at its papers' hosts only, and 127.0.0.1 with 404.
   */
  readyAt?: string;
  /** The checkout whose server runs (the bench measures an earlier commit's app by it); this one unless told. */
  root?: string;
  /**
   * V8 as `npm start` runs it, compiling PGlite's hot WebAssembly with its optimising compiler too: for
   * the benchmarks, which measure the server. A test's server runs on `testEngine`.
   */
  optimised?: boolean;
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
 * The environment of a test's server at `where`: this process's, quiet, with the demo seeded and no
 * history (every e2e test starts from an empty ledger), no outside login provider, and the
 * options' own; an option's undefined removes a variable.
 */
export function serverEnv(
  options: ServerOptions,
  where: { port: number; url: string; dataDir: string },
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(where.port),
    PUBLIC_URL: where.url,
    DATA_DIR: where.dataDir,
    DATABASE_URL: options.databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    SEED_HISTORY: 'false',
    OIDC_ISSUER: '',
    EMBED_ORIGINS: '',
    ...options.env,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

/** Node's arguments for the server as `npm start` runs it: the bundle scripts/ensure-build.mjs keeps current. */
export const serverStart = ['--enable-source-maps', 'dist/server/server.mjs'];

/**
 * V8's arguments for a process of the product that a test starts (a server, a command-line tool): its
 * baseline WebAssembly compiler alone (`--liftoff-only`). Such a process lives for seconds, in which
 * recompiling PGlite's hot WebAssembly with the optimising compiler never pays off: the same
 * behaviour for about half the CPU (a start on the seeded demo and a look at /readyz: 1.9 against
 * 3.6 CPU-seconds; `npm run check`: 1.0 against 2.4). The benchmarks run V8 as `npm start` does.
 */
export const testEngine = ['--liftoff-only'];

let built = false;

/**
 * Builds what `npm start` builds (the interfaces and the server's bundle) when it is missing or older
 * than its sources, once per process: `npm test` builds first, and this covers a test file run alone.
 */
export function ensureBuild(root = repoRoot): void {
  if (root === repoRoot && built) return;
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: root, stdio: 'ignore' });
  if (root === repoRoot) built = true;
}

/**
 * How another checkout (the bench's baseline) starts: as `npm start` runs it there, bundled once its
 * build is current, or, from before the bundle, its TypeScript through tsx.
 */
function startIn(root: string): string[] {
  if (!fs.existsSync(path.join(root, 'scripts/build-server.mjs'))) return ['--import', 'tsx', 'api/src/server.ts'];
  ensureBuild(root);
  return serverStart;
}

/**
 * Starts the real server (`api/src/server.ts`, bundled) as a child process, as `npm start` does minus
 * the build, with LOG_LEVEL=silent, and resolves once /readyz answers 200.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? tempDir();
  const url = `http://127.0.0.1:${port}`;
  const env = serverEnv(options, { port, url, dataDir });
  await prepareDataDir(options, env, dataDir);
  if (!options.root) ensureBuild();
  const engine = options.optimised || options.root ? [] : testEngine;
  const child = spawn(process.execPath, [...engine, ...(options.root ? startIn(options.root) : serverStart)], {
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
    if (hasExited) {
      // Another process took the port between freePort and listen: a new port, unless the test chose it.
      if (!options.port && err.includes('EADDRINUSE')) return startServer({ ...options, dataDir });
      throw new Error(`the server exited before it was ready (code ${child.exitCode})\n${out}\n${err}`);
    }
    // Ready is our child's banner (printed once it listens) and /readyz: a server of another test
    // process on the same port would answer /readyz too. An earlier checkout (the bench's) may print less.
    const ready =
      (options.root !== undefined || out.includes('Listening:')) &&
      (await fetch(`${options.readyAt ?? url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ));
    if (ready) break;
    if (Date.now() > deadline) {
      await stop().catch(() => undefined);
      throw new Error(`the server was not ready within ${options.readyTimeoutMs ?? 60_000} ms\n${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, dataDir, process: child, stdout: () => out, stderr: () => err, stop };
}
