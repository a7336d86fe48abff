import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { requestIdPattern, selfServiceScopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures, round } from './support/figures';
import { send, steadyStream, type Reply } from './support/http';
import { customer, query, type Customer } from './support/operator';
import { privateRedis, type PrivateServer } from './support/processes';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * Redis goes away under a steady stream of requests: the gateway fails
 * closed (500 internal_error with a request id, never an unmetered 200) and
 * serves again within seconds of Redis returning. The Redis here is a
 * private redis-server this test starts and kills; the machine's is never
 * touched.
 */
let redis: PrivateServer & { url: string };
let stack: RunningStack;
let caller: Customer;
let productIds: string[];

beforeAll(async () => {
  redis = await privateRedis();
  stack = await startStack('res-redis', { redisUrl: redis.url, services: ['record', 'signals', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes: selfServiceScopes });
  productIds = (await query<{ product_id: string }>(stack, 'SELECT product_id FROM products ORDER BY product_id LIMIT 8')).map((r) => r.product_id);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await redis?.dispose();
});

function nextRequest(i: number): Promise<Reply> {
  const opts = { key: caller.key, timeoutMs: 15_000 };
  switch (i % 4) {
    case 0:
      return send(stack.baseUrl, 'GET', '/api/v1/record/version', opts);
    case 1:
      return send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[i % productIds.length]}`, opts);
    case 2:
      return send(stack.baseUrl, 'GET', '/api/v1/signals?limit=2', opts);
    default:
      return send(stack.baseUrl, 'POST', '/api/v1/products/resolve', { ...opts, body: { identifier: 'IV Surge' } });
  }
}

describe('Redis down under a steady stream of requests', () => {
  it('fails closed with 500 internal_error and a request id, never a 200, and serves again within seconds of Redis returning', async () => {
    const stream = steadyStream(nextRequest, { concurrency: 3, pauseMs: 20 });
    await waitFor('a warm stream', () => stream.samples.filter((s) => s.status === 200).length >= 20, 30_000);

    await redis.stop();
    const downAt = Date.now();
    await waitFor('requests during the outage', () => stream.since(downAt + 200).length >= 40, 30_000);
    await new Promise((r) => setTimeout(r, 2000)); // the outage lasts: time passes
    const restartAt = Date.now();
    await redis.start();
    const upAt = Date.now();

    const firstServed = await waitFor('the first answer after Redis returned', () => stream.since(upAt).find((s) => s.status === 200), 30_000);
    const recoveredAt = firstServed.endedAt;
    // Once recovered, it stays recovered.
    await waitFor('requests after recovery', () => stream.since(recoveredAt + 1000).length >= 40, 30_000);
    const samples = await stream.stop();

    // Requests wholly inside the outage: refused, promptly, with a request id; never answered.
    const during = samples.filter((s) => s.startedAt >= downAt && s.endedAt <= restartAt);
    expect(during.length).toBeGreaterThanOrEqual(40);
    for (const s of during) {
      expect([s.status, s.code], s.text.slice(0, 200)).toEqual([500, 'internal_error']);
      expect(s.requestId).toMatch(requestIdPattern);
      expect(s.headers['x-request-id']).toBe(s.requestId);
      expect(s.body.error.details).toEqual({});
    }
    // Over the whole run: only answers or internal_error, never a hang or a dropped connection.
    for (const s of samples) {
      expect(s.transportError).toBeNull();
      expect([200, 500]).toContain(s.status);
      if (s.status === 500) expect(s.code).toBe('internal_error');
    }
    const after = samples.filter((s) => s.startedAt >= recoveredAt + 1000);
    expect(after.every((s) => s.status === 200), JSON.stringify(after.filter((s) => s.status !== 200).map((s) => s.text.slice(0, 120)))).toBe(true);

    // Every answer delivered after Redis returned was counted in the new Redis:
    // the day window holds at least that many admissions, and each 200 carried
    // its own RateLimit-Remaining (one count each, none skipped).
    const probe = new Redis(redis.url);
    const dayCount = Number(await probe.get(`${stack.env.REDIS_PREFIX}{k:${caller.keyId}}:rl:day`));
    const budget = await probe.scard(`${stack.env.REDIS_PREFIX}{o:${caller.orgId}}:budget:${new Date().toISOString().slice(0, 10)}:product`);
    probe.disconnect();
    const servedAfterRestart = samples.filter((s) => s.startedAt >= restartAt && s.status === 200);
    expect(dayCount).toBeGreaterThanOrEqual(servedAfterRestart.length);
    const remaining = servedAfterRestart.map((s) => s.headers['ratelimit-remaining']);
    expect(new Set(remaining).size).toBe(remaining.length);
    // Product answers after the restart spent the (new) day's budget: metered, not waved through.
    if (servedAfterRestart.some((s) => s.body?.capability === 'get_product_record')) expect(budget).toBeGreaterThan(0);

    const latencyDuring = Math.max(...during.map((s) => s.ms));
    const recoverySeconds = (recoveredAt - upAt) / 1000;
    expect(latencyDuring).toBeLessThan(5000);
    expect(recoverySeconds).toBeLessThan(10);
    await recordFigures('redis-outage', {
      requests: samples.length,
      refused_during_outage: during.length,
      served_200_during_outage: during.filter((s) => s.status === 200).length,
      max_latency_ms_during_outage: round(latencyDuring),
      recovery_seconds_after_redis_ready: round(recoverySeconds, 2),
      served_after_recovery: after.length,
    });
  });
});
