import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { atRunEnd } from '../support/run-end.ts';
import type { HostAnswer, HostCall, HostRequest } from './paper-host.ts';
import {
  ensureBuild,
  freePort,
  keptDirs,
  prepareDataDir,
  repoRoot,
  seededCopy,
  serverEnv,
  startServer,
  startsLikeTemplate,
  tempDir,
  type RunningServer,
  type ServerOptions,
} from './server.ts';

// The test process's one server process (paper-host.ts), lent to one suite at a time: each lease
// serves a paper of its own on the host's port, and ends with the paper's jobs stopped. A paper as the
// seeded template holds it is served from the host's one kept copy of it, the demo loaded back into
// it for each lease; any other from a copy of a template (server.ts prepareDataDir) or the suite's
// own data directory, closed at the lease's end.

/**
 * Settings of the process rather than of a paper: a suite that needs others than the host's gets a
 * server of its own. The currency, country, demo and history are the paper's (its data directory).
 */
const processSettings = [
  'PORT',
  'HOST',
  'BIND',
  'PUBLIC_URL',
  'DATABASE_URL',
  'TRUST_PROXY',
  'RATE_LIMIT_IPV6_PREFIX',
  'MAX_CONNECTIONS',
  'MAX_CONNECTIONS_PER_ADDRESS',
  'LOG_LEVEL',
  'PLATFORM_DOMAIN',
  'PLATFORM_SECRET',
  'PLATFORM_STRIPE_WEBHOOK_SECRET',
];

interface Host {
  child: ChildProcess;
  port: number;
  url: string;
  env: NodeJS.ProcessEnv;
  out: string;
  err: string;
  exited: Promise<number | null>;
  /** Who waits for the answer to each request, by its id. */
  answers: Map<number, (answer: HostAnswer) => void>;
  /** The host's copy of the seeded template, once a lease has asked for one. */
  keptDir?: string;
}

/** The test process's garbage-collection flags, which its host process takes over. */
const garbageFlags = /^--(max-semi-space-size|single-threaded-gc)\b/;

let running: Promise<Host> | undefined;
let lent = false;
let lastRequest = 0;

async function startHost(): Promise<Host> {
  ensureBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = serverEnv({}, { port, url, dataDir: '' });
  const child = fork(path.join(repoRoot, 'tests/e2e/paper-host.ts'), {
    cwd: repoRoot,
    env,
    // It lives as long as its test process, so it collects its garbage as that process does (.mocharc.cjs).
    execArgv: ['--import', 'tsx', ...process.execArgv.filter((flag) => garbageFlags.test(flag))],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const host: Host = {
    child,
    port,
    url,
    env,
    out: '',
    err: '',
    answers: new Map(),
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (host.out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (host.err += chunk));
  child.on('message', (answer: HostAnswer) => host.answers.get(answer.id)?.(answer));
  const listening = new Promise<boolean>((resolve) => {
    const check = () => host.out.includes('Listening:') && resolve(true);
    child.stdout!.on('data', check);
    void host.exited.then(() => resolve(false));
  });
  if (!(await listening)) {
    // Another process took the port between freePort and listen: a new port.
    if (host.err.includes('EADDRINUSE')) return startHost();
    throw new Error(`the tests' server process ended before it listened\n${host.out}\n${host.err}`);
  }
  void host.exited.then(() => {
    running = undefined;
    for (const [id, answer] of host.answers) answer({ id, refused: `the server process ended\n${host.err}` });
  });
  return host;
}

/** The host's answer to `request`; one that comes after `timeoutMs` is no one's. */
function ask(host: Host, request: HostCall, timeoutMs: number): Promise<HostAnswer> {
  const id = ++lastRequest;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      host.answers.delete(id);
      reject(new Error(`the server did not answer within ${timeoutMs} ms\n${host.out}\n${host.err}`));
    }, timeoutMs);
    host.answers.set(id, (answer) => {
      host.answers.delete(id);
      clearTimeout(timer);
      resolve(answer);
    });
    host.child.send({ id, ...request } satisfies HostRequest);
  });
}

/**
 * The process's server, serving a paper for the caller, when the options ask for nothing the host
 * cannot give (a port, PostgreSQL, another checkout, settings of the process) and no other suite holds
 * it; otherwise undefined, and the caller starts a server of its own. `stop()` ends the lease: 0 when
 * the paper stopped without an error nobody caught (the real server's exit code on SIGTERM).
 */
export async function leaseServer(options: ServerOptions): Promise<RunningServer | undefined> {
  if (lent || options.port || options.databaseUrl || options.root || options.readyAt) return undefined;
  lent = true;
  let host: Host;
  try {
    running ??= startHost();
    host = await running;
  } catch (error) {
    lent = false;
    throw error;
  }
  const where = { port: host.port, url: host.url };
  const kept = startsLikeTemplate(options, serverEnv(options, { ...where, dataDir: '' }));
  const dataDir = kept ? (host.keptDir ?? tempDir()) : (options.dataDir ?? tempDir());
  const env = serverEnv(options, { ...where, dataDir });
  if (processSettings.some((name) => (env[name] ?? '') !== (host.env[name] ?? ''))) {
    lent = false;
    return undefined;
  }
  const outFrom = host.out.length;
  const errFrom = host.err.length;
  try {
    if (kept && !host.keptDir) {
      await seededCopy(dataDir);
      host.keptDir = dataDir;
      keptDirs.add(dataDir);
    } else if (!kept) await prepareDataDir(options, env, dataDir);
    const answer = await ask(host, { serve: { dataDir, env, kept } }, options.readyTimeoutMs ?? 60_000);
    if (!('served' in answer))
      throw new Error(`the server did not start: ${'refused' in answer ? answer.refused : ''}`);
  } catch (error) {
    // The next lease begins by stopping whatever this one left served.
    lent = false;
    throw error;
  }
  let released: Promise<number> | undefined;
  const stop = (timeoutMs = 10_000) =>
    (released ??= ask(host, { release: true }, timeoutMs).then((end) => {
      lent = false;
      if ('released' in end && end.problems.length === 0) return 0;
      host.err += `\n${'released' in end ? end.problems.join('\n') : 'refused' in end ? end.refused : ''}`;
      return 1;
    }));
  return {
    url: host.url,
    port: host.port,
    dataDir,
    process: host.child,
    stdout: () => host.out.slice(outFrom),
    stderr: () => host.err.slice(errFrom),
    stop,
  };
}

/**
 * A server for a suite: the process's host serving the suite's paper, or, with `ownProcess` (the
 * suite looks at the process itself: its banner, its exit) or options the host cannot serve, a
 * server started for it.
 */
export async function testServer(options: ServerOptions & { ownProcess?: boolean } = {}): Promise<RunningServer> {
  return (!options.ownProcess && (await leaseServer(options))) || startServer(options);
}

/** At the run's end the host stops as the real server does on SIGTERM: with exit code 0. */
atRunEnd(async () => {
  const host = await running?.catch(() => undefined);
  if (!host) return;
  host.child.kill('SIGTERM');
  const code = await host.exited;
  if (host.keptDir) fs.rmSync(host.keptDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the tests' server process exited with ${code}\n${host.out}\n${host.err}`);
});
