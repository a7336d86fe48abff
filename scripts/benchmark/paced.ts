import http from 'node:http';
import { summarize, type LoadResult, type RequestTemplate } from './load';

/**
 * An open-loop, paced comparison of two kinds of call: one call every
 * `intervalMs`, alternating between the sides, each timed from the moment it
 * was due (not from when it happened to be sent), so a slow answer cannot
 * hide the calls queued behind it.
 *
 * This is what a latency ratio needs. autocannon's `overallRate` is not a
 * paced rate: it hands each connection its share of the second at once, so
 * the calls of a second leave in a burst at the start of it and the figures
 * measure queueing at the burst's depth, not the latency of one call.
 */
export interface PacedSide {
  url: string;
  requests: RequestTemplate[];
}

export async function runPaced(sides: [PacedSide, PacedSide], opts: { intervalMs: number; seconds: number; warmupSeconds: number; timeoutMs?: number }): Promise<[LoadResult, LoadResult]> {
  // One keep-alive pool per side, deep enough that a slow answer never makes the next call wait for a socket.
  const agents = sides.map(() => new http.Agent({ keepAlive: true, maxSockets: 16 }));
  try {
    await pace(sides, agents, opts.intervalMs, opts.warmupSeconds, opts.timeoutMs ?? 10_000);
    const measured = await pace(sides, agents, opts.intervalMs, opts.seconds, opts.timeoutMs ?? 10_000);
    return [summarise(measured[0]!, opts.seconds), summarise(measured[1]!, opts.seconds)];
  } finally {
    for (const a of agents) a.destroy();
  }
}

interface Outcome {
  latencies: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  firstRefusal: string | null;
}

async function pace(sides: PacedSide[], agents: http.Agent[], intervalMs: number, seconds: number, timeoutMs: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = sides.map(() => ({ latencies: [], non2xx: 0, errors: 0, timeouts: 0, firstRefusal: null }));
  const next = sides.map(() => 0);
  const calls: Promise<void>[] = [];
  const total = Math.max(2, Math.round((seconds * 1000) / intervalMs));
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const s = i % sides.length;
    const template = sides[s]!.requests[next[s]!++ % sides[s]!.requests.length]!;
    calls.push(call(sides[s]!.url, template, agents[s]!, timeoutMs).then((r) => record(outcomes[s]!, r, due)));
  }
  await Promise.all(calls);
  return outcomes;
}

type CallResult = { kind: 'answer'; status: number; body: string; at: number } | { kind: 'error' | 'timeout'; at: number };

function call(base: string, t: RequestTemplate, agent: http.Agent, timeoutMs: number): Promise<CallResult> {
  return new Promise((resolve) => {
    const url = new URL(t.path, base);
    const req = http.request(url, { method: t.method, headers: { ...t.headers, ...(t.body ? { 'content-length': Buffer.byteLength(t.body) } : {}) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ kind: 'answer', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() }));
      res.on('error', () => resolve({ kind: 'error', at: performance.now() }));
    });
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ kind: 'timeout', at: performance.now() });
    });
    req.on('error', () => resolve({ kind: 'error', at: performance.now() }));
    req.end(t.body);
  });
}

function record(o: Outcome, r: CallResult, due: number): void {
  switch (r.kind) {
    case 'error':
      o.errors++;
      return;
    case 'timeout':
      o.timeouts++;
      return;
    case 'answer':
      if (r.status >= 200 && r.status <= 299) {
        o.latencies.push(r.at - due);
        return;
      }
      o.non2xx++;
      o.firstRefusal ??= `${r.status} ${r.body.slice(0, 300)}`;
  }
}

function summarise(o: Outcome, seconds: number): LoadResult {
  const requests = o.latencies.length + o.non2xx + o.errors + o.timeouts;
  return { ...summarize(requests, seconds, [...o.latencies].sort((a, b) => a - b), o.non2xx, o.errors, o.timeouts, o.firstRefusal), cpuUsPerRequest: null };
}
