import autocannon from 'autocannon';

export interface LoadResult {
  readonly requestsPerSec: number;
  /** Requests answered in the whole run. */
  readonly total: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  seconds?: number;
  /** Stop after this many requests instead of after `seconds`. */
  amount?: number;
  connections?: number;
}

/** One autocannon run; the figures every benchmark reports. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    duration: options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    amount: options.amount,
    connections: options.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 10),
  });
  return {
    requestsPerSec: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
