import http from 'node:http';
import type { RequestTemplate } from './load';
import { percentile } from './load';

export interface ShapeProbe {
  shape: string;
  requests: number;
  /** Unloaded latency: one request at a time, client to gateway and back. */
  p50: number;
  p90: number;
  /** Answer `status` (or refusal code) → count: says whether both Records were asked comparable questions. */
  answers: Record<string, number>;
}

/**
 * One request at a time over each distinct request of a run (up to
 * `perShape` per shape). It primes what a running service would have warm
 * for its popular items, and says, per request shape, how long one request
 * takes with nothing else running and what kind of answer it got.
 */
export async function probeShapes(url: string, requests: RequestTemplate[], perShape = 150): Promise<ShapeProbe[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const byShape = new Map<string, { times: number[]; answers: Record<string, number> }>();
  try {
    for (const t of requests) {
      const shape = t.shape ?? t.path.split('?')[0]!;
      const entry = byShape.get(shape) ?? { times: [], answers: {} };
      byShape.set(shape, entry);
      if (entry.times.length >= perShape) continue;
      const started = process.hrtime.bigint();
      const { status, body } = await send(url, t, agent);
      entry.times.push(Number(process.hrtime.bigint() - started) / 1e6);
      entry.answers[answerKind(status, body)] = (entry.answers[answerKind(status, body)] ?? 0) + 1;
    }
  } finally {
    agent.destroy();
  }
  return [...byShape.entries()].map(([shape, e]) => {
    const sorted = [...e.times].sort((a, b) => a - b);
    return { shape, requests: sorted.length, p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), answers: e.answers };
  });
}

function answerKind(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { status?: unknown; error?: { code?: unknown }; result?: { isError?: unknown } };
    if (typeof parsed.status === 'string') return parsed.status;
    if (parsed.error && typeof parsed.error.code === 'string') return `${status} ${parsed.error.code}`;
  } catch {
    // not JSON
  }
  return String(status);
}

function send(base: string, t: RequestTemplate, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(t.path, base), { method: t.method, headers: { ...t.headers, ...(t.body ? { 'content-length': Buffer.byteLength(t.body) } : {}) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(t.body);
  });
}
