import http from 'node:http';

/**
 * HTTP as a client sees it, with every figure a resilience test needs: when
 * the request started and ended, its status, refusal code and request ids.
 * Connections are kept alive and reused, as a real API consumer's are.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or null when the body is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields of answers
  code: string | null;
  requestId: string | null;
  startedAt: number;
  endedAt: number;
  ms: number;
  /** Set when no HTTP answer arrived at all (connection refused, client timeout). */
  transportError: string | null;
}

export interface RequestOptions {
  key?: string | null;
  /** A value is sent as JSON; a string or Buffer is sent as given. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The client gives up after this long; the gateway's own deadline is shorter. */
  timeoutMs?: number;
  /** Send the body with chunked transfer encoding (no Content-Length), in two pieces. */
  chunked?: boolean;
}

export const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 1024, maxFreeSockets: 256 });

export async function send(baseUrl: string, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | Buffer | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  // Framing is explicit, whatever the method: Node does not frame a GET body by itself.
  if (opts.chunked && body !== undefined) headers['transfer-encoding'] = 'chunked';
  else if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const startedAt = Date.now();
  const t0 = performance.now();
  try {
    const res = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const req = http.request(`${baseUrl}${path}`, { method, headers, agent }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          clearTimeout(timer);
          resolve({ status: r.statusCode ?? 0, headers: r.headers, text: Buffer.concat(chunks).toString('utf8') });
        });
        r.on('error', reject);
        r.on('aborted', () => reject(new Error('answer aborted')));
      });
      // A deadline on the whole exchange, not just socket idleness: "no request hangs" is measured here.
      const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      if (opts.chunked && body !== undefined) {
        const bytes = Buffer.from(body);
        req.write(bytes.subarray(0, bytes.length >> 1));
        req.end(bytes.subarray(bytes.length >> 1));
      } else {
        req.end(body);
      }
    });
    const text = res.text;
    const ms = performance.now() - t0;
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const b = parsed as { error?: { code?: unknown }; request_id?: unknown } | null;
    return {
      status: res.status,
      headers: flat,
      text,
      body: parsed,
      code: typeof b?.error?.code === 'string' ? b.error.code : null,
      requestId: typeof b?.request_id === 'string' ? b.request_id : null,
      startedAt,
      endedAt: Date.now(),
      ms,
      transportError: null,
    };
  } catch (err) {
    return { status: 0, headers: {}, text: '', body: null, code: null, requestId: null, startedAt, endedAt: Date.now(), ms: performance.now() - t0, transportError: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

/**
 * A steady stream of requests: `concurrency` loops, each sending one request
 * after another with a short pause, until stopped (and never more than
 * `maxRequests`, so a test that forgets to stop it cannot run away).
 */
export function steadyStream(next: (i: number) => Promise<Reply>, opts: { concurrency?: number; pauseMs?: number; maxRequests?: number } = {}) {
  const samples: Reply[] = [];
  let stopped = false;
  let i = 0;
  const max = opts.maxRequests ?? 20_000;
  const loops = Array.from({ length: opts.concurrency ?? 2 }, async () => {
    while (!stopped && i < max) {
      samples.push(await next(i++));
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  });
  return {
    samples,
    /** Samples that started after `t`. */
    since: (t: number) => samples.filter((s) => s.startedAt >= t),
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return samples;
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}
