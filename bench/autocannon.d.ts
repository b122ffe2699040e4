// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  export interface Request {
    method?: string;
    path?: string;
    headers: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Each request made anew by setupRequest, in turn. */
    requests?: { setupRequest?: (request: Request) => Request }[];
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
