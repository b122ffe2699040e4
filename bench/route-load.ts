// The load generator of `npm run bench -- load` for single routes, in a process of its own so that
// its work does not share the app's thread: autocannon against one URL, a warm-up (1 s unless the
// task says otherwise), then the measured run. Reads its tasks as a JSON array from argv[2], runs
// them one after the other and prints their figures as one JSON line, an array in the same order.
import autocannon, { type Request } from 'autocannon';

export interface RouteTask {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
  /** 0: none (a tiny bench, which checks that the route answers, not how fast). */
  warmUpSeconds?: number;
  /** Each request with the next of these as its Host, in turn (many papers behind one address). */
  hosts?: string[];
}

export interface RouteResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

function nextHost(hosts: string[]) {
  let next = 0;
  return (request: Request): Request => ({
    ...request,
    headers: { ...request.headers, host: hosts[next++ % hosts.length] },
  });
}

async function load(task: RouteTask): Promise<RouteResult> {
  const options = {
    url: task.url,
    connections: task.connections,
    method: task.method ?? 'GET',
    headers: task.headers,
    ...(task.body === undefined ? {} : { body: task.body }),
    ...(task.hosts ? { requests: [{ setupRequest: nextHost(task.hosts) }] } : {}),
  };
  const warmUp = task.warmUpSeconds ?? 1;
  if (warmUp > 0) await autocannon({ ...options, duration: warmUp });
  const result = await autocannon({ ...options, duration: task.seconds });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

const tasks = JSON.parse(process.argv[2] ?? '[]') as RouteTask[];
const measured: RouteResult[] = [];
for (const task of tasks) measured.push(await load(task));
console.log(JSON.stringify(measured));
