import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdPattern, scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures, round } from './support/figures';
import { send, steadyStream, type Reply } from './support/http';
import { customer, query, type Customer } from './support/operator';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * A backend service killed outright (SIGKILL, as a crashed or evicted pod)
 * under a steady stream of requests: the gateway answers its routes with
 * 500 internal_error and a request id, at once, and every other route keeps
 * working; when the service is back, its routes serve again.
 */
let stack: RunningStack;
let caller: Customer;
let productId: string;

beforeAll(async () => {
  stack = await startStack('res-backend', { services: ['record', 'signals', 'ledger', 'watch', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  productId = (await query<{ product_id: string }>(stack, `SELECT product_id FROM products WHERE depth_class = 'TRACKED' ORDER BY product_id LIMIT 1`))[0]!.product_id;
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

type Sample = Reply & { service: string };

const routes = [
  { service: 'record', method: 'GET', path: () => `/api/v1/products/${productId}` },
  { service: 'record', method: 'POST', path: () => '/api/v1/products/resolve', body: { identifier: 'IV Surge' } },
  { service: 'signals', method: 'GET', path: () => '/api/v1/signals?limit=3' },
  { service: 'ledger', method: 'GET', path: () => '/api/v1/ledger' },
  { service: 'watch', method: 'GET', path: () => '/api/v1/watch' },
] as const;

function nextRequest(i: number): Promise<Sample> {
  const r = routes[i % routes.length]!;
  return send(stack.baseUrl, r.method, r.path(), { key: caller.key, timeoutMs: 30_000, ...('body' in r ? { body: r.body } : {}) }).then((reply) => ({ ...reply, service: r.service }));
}

describe('a backend service killed under load', () => {
  it('answers its routes with 500 internal_error and a request id while the other routes keep working, and recovers when it is back', async () => {
    const stream = steadyStream(nextRequest, { concurrency: 3, pauseMs: 10 });
    await waitFor('a warm stream', () => stream.samples.filter((s) => s.status === 200).length >= 25, 60_000);

    await stack.stopService('record', 'SIGKILL');
    const killedAt = Date.now();
    await waitFor('requests while record is gone', () => stream.since(killedAt + 300).length >= 60, 60_000);
    const restartAt = Date.now();
    await stack.startService('record');
    const readyAt = Date.now();
    const first = await waitFor('record routes serving again', () => (stream.since(readyAt) as Sample[]).find((s) => s.service === 'record' && s.status === 200), 30_000);
    await waitFor('requests after recovery', () => stream.since(first.endedAt + 500).length >= 30, 30_000);
    const samples = (await stream.stop()) as Sample[];

    const during = samples.filter((s) => s.startedAt >= killedAt && s.endedAt <= restartAt);
    const recordDuring = during.filter((s) => s.service === 'record');
    const othersDuring = during.filter((s) => s.service !== 'record');
    expect(recordDuring.length).toBeGreaterThan(10);
    expect(othersDuring.length).toBeGreaterThan(20);
    for (const s of recordDuring) {
      expect([s.status, s.code], s.text.slice(0, 200)).toEqual([500, 'internal_error']);
      expect(s.requestId).toMatch(requestIdPattern);
      expect(s.headers['x-request-id']).toBe(s.requestId);
      expect(s.ms).toBeLessThan(3000);
    }
    expect(othersDuring.filter((s) => s.status !== 200).map((s) => `${s.service} ${s.status} ${s.text.slice(0, 120)}`)).toEqual([]);
    expect(samples.every((s) => s.transportError === null)).toBe(true);
    const after = samples.filter((s) => s.startedAt >= first.endedAt + 500);
    expect(after.filter((s) => s.status !== 200).map((s) => s.text.slice(0, 120))).toEqual([]);

    await recordFigures('backend-killed', {
      requests: samples.length,
      record_routes_refused_while_down: recordDuring.length,
      other_routes_served_while_down: othersDuring.length,
      max_latency_ms_of_refusals: round(Math.max(...recordDuring.map((s) => s.ms))),
      seconds_to_serve_after_record_ready: round((first.endedAt - readyAt) / 1000, 2),
    });
  });
});
