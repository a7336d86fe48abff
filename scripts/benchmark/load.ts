import autocannon from 'autocannon';

export interface RequestTemplate {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What kind of question this is (e.g. "brand filter"), for per-shape figures. */
  shape?: string;
}

export interface LoadOptions {
  url: string;
  requests: RequestTemplate[];
  connections: number;
  /** Seconds of measured load; ignored when `amount` is set. */
  seconds?: number;
  /** Exactly this many requests (for counting per request). */
  amount?: number;
  /** Fixed arrival rate over all connections (requests per second); closed loop when absent. */
  rate?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The first non-2xx answer, for the report when a run is spoiled by refusals. */
  firstRefusal: string | null;
}

/**
 * One autocannon run cycling through `requests`. Latencies are taken from
 * autocannon's per-response event in fractional milliseconds (its histogram
 * rounds to whole ones, too coarse at single-digit latencies), 2xx only.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  let firstRefusal: string | null = null;
  const options: autocannon.Options = {
    url: opts.url,
    connections: opts.connections,
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.seconds ?? 10 }),
    ...(opts.rate !== undefined ? { overallRate: opts.rate } : {}),
    timeout: 10,
    requests: [
      {
        setupRequest: (req) => {
          const t = opts.requests[next++ % opts.requests.length]!;
          return { ...req, method: t.method, path: t.path, headers: t.headers, body: t.body ?? '' };
        },
        onResponse: (status, body) => {
          if ((status < 200 || status > 299) && firstRefusal === null) firstRefusal = `${status} ${body.slice(0, 300)}`;
        },
      },
    ],
  };
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await finished;
  latencies.sort((a, b) => a - b);
  const total = result.requests.total;
  return {
    requests: total,
    seconds: result.duration,
    rps: total / result.duration,
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    firstRefusal,
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}
