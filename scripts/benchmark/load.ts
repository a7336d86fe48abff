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
  /** The headers each request is sent with, made when it is sent (e.g. an internal signature, which is valid for a short time only). */
  headersFor?: (t: RequestTemplate) => Record<string, string>;
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
  /** CPU time the measured processes used per request together, when it was measured. */
  cpuUsPerRequest?: number | null;
  /** The same, process by process (e.g. gateway and record service). */
  cpuByProcess?: Record<string, number>;
}

/** One run with its raw 2xx latencies, so runs can be combined. */
export interface LoadSample {
  result: LoadResult;
  latencies: number[];
}

/**
 * One autocannon run cycling through `requests`. Latencies are taken from
 * autocannon's per-response event in fractional milliseconds (its histogram
 * rounds to whole ones, too coarse at single-digit latencies), 2xx only.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  return (await runLoadSample(opts)).result;
}

export async function runLoadSample(opts: LoadOptions): Promise<LoadSample> {
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
          return { ...req, method: t.method, path: t.path, headers: opts.headersFor ? opts.headersFor(t) : t.headers, body: t.body ?? '' };
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
  return { result: summarize(result.requests.total, result.duration, latencies, result.non2xx, result.errors, result.timeouts, firstRefusal), latencies };
}

/** Several runs of the same load as one: requests over total time, percentiles over every latency. */
export function combine(samples: LoadSample[]): LoadResult {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const sum = (f: (r: LoadResult) => number) => samples.reduce((a, s) => a + f(s.result), 0);
  return summarize(
    sum((r) => r.requests),
    sum((r) => r.seconds),
    latencies,
    sum((r) => r.non2xx),
    sum((r) => r.errors),
    sum((r) => r.timeouts),
    samples.map((s) => s.result.firstRefusal).find((f) => f !== null) ?? null,
  );
}

/** A LoadResult from sorted 2xx latencies and the counts of everything else. */
export function summarize(requests: number, seconds: number, sorted: number[], non2xx: number, errors: number, timeouts: number, firstRefusal: string | null): LoadResult {
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
    non2xx,
    errors,
    timeouts,
    firstRefusal,
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}
