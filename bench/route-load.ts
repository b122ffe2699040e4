// The load generator of `npm run bench -- load` for single routes, in a process of its own so that
// its work does not share the app's thread: autocannon against one URL, a 1 s warm-up,
// then the measured run. Reads its task as JSON from argv[2] and prints the figures as one JSON line.
import autocannon from 'autocannon';

export interface RouteTask {
  url: string;
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
}

export interface RouteResult {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

const task = JSON.parse(process.argv[2] ?? '{}') as RouteTask;
const options = {
  url: task.url,
  connections: task.connections,
  method: task.method ?? 'GET',
  headers: task.headers,
  ...(task.body === undefined ? {} : { body: task.body }),
};
await autocannon({ ...options, duration: 1 });
const result = await autocannon({ ...options, duration: task.seconds });
const measured: RouteResult = {
  rps: result.requests.total / result.duration,
  p50: result.latency.p50,
  p99: result.latency.p99,
  failures: result.errors + result.timeouts + result.non2xx,
};
console.log(JSON.stringify(measured));
