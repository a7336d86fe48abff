import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { privateRedis, type PrivateServer } from '@evidence-record/test-support/private-servers';
import { call, errorCode, gatewayConfig, orgWithKey, startGateway, type IssuedKey, type RunningGateway } from './support/harness';
import { waitFor } from '@evidence-record/test-support/wait';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

/**
 * Redis unavailable: the gateway fails closed (no answer leaves unmetered)
 * and recovers by itself. Uses a private redis-server started here, never
 * the machine's main one.
 */
let db: TestDatabase;
let pool: Pool;
let up: FakeUpstreams;
let gw: RunningGateway;
let redis: PrivateServer & { url: string };
let port: number;
let k: IssuedKey;

beforeAll(async () => {
  redis = await privateRedis();
  port = redis.port;
  db = await emptyDatabase();
  pool = createPool(db.url);
  const { redisPrefix } = isolationPrefix('gw-redis-outage');
  up = await startFakeUpstreams();
  const redisUrl = redis.url;
  gw = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix, redisUrl, upstreams: up.urls }));
  k = await orgWithKey({ DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix, REDIS_URL: redisUrl } as never);
});
afterAll(async () => {
  await gw?.close();
  await redis?.dispose();
  await up?.close();
  await pool?.end();
  await db?.drop();
});

const product = () => call(`${gw.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key: k.key });

describe('Redis use on the hot path', () => {
  it('is at most two round trips per request (one for a capability that costs nothing or a repeat already charged today), and no Postgres query once the key is cached', async () => {
    // MONITOR shows every command a client sends (commands run inside a script are tagged "lua").
    const probe = new Redis({ port, host: '127.0.0.1' });
    const monitor = await probe.monitor();
    const sent: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua') sent.push(String(args[0]).toLowerCase());
    });
    // MONITOR reports commands asynchronously and how many will come is what is measured, so there
    // is no state to wait for: a quiet moment before and after lets earlier lines and fn's own arrive.
    const roundTrips = async (fn: () => Promise<void>) => {
      await new Promise((r) => setTimeout(r, 100));
      sent.length = 0;
      await fn();
      await new Promise((r) => setTimeout(r, 100));
      return [...sent];
    };
    try {
      expect((await product()).status).toBe(200);
      const lookupsBefore = gw.gateway.context.checked!.keys.misses;
      // Five products the organisation has not been charged for today (the free plan's minute holds 30 requests in all): windows, then budget and score.
      const products = Array.from({ length: 5 }, (_, i) => `${gw.url}/api/v1/products/prd_bbbbbbbbbb${String(i).padStart(2, '0')}`);
      const charged = await roundTrips(async () => {
        for (const url of products) expect((await call(url, { key: k.key })).status).toBe(200);
      });
      expect(charged).toEqual(Array(10).fill('evalsha'));
      // The same five again: already charged today, nothing to settle, so the windows only.
      const repeated = await roundTrips(async () => {
        for (const url of products) expect((await call(url, { key: k.key })).status).toBe(200);
      });
      expect(repeated).toEqual(Array(5).fill('evalsha'));
      const free = await roundTrips(async () => {
        for (let i = 0; i < 10; i++) expect((await call(`${gw.url}/api/v1/record/version`, { key: k.key })).status).toBe(200);
      });
      expect(free).toEqual(Array(10).fill('evalsha'));
      expect(gw.gateway.context.checked!.keys.misses).toBe(lookupsBefore);
    } finally {
      monitor.disconnect();
      probe.disconnect();
    }
  });

  it('keeps answering when Redis forgets its scripts (restart, failover, SCRIPT FLUSH), also for requests sent together', async () => {
    const probe = new Redis({ port, host: '127.0.0.1' });
    // A key of its own: the other tests' keys keep their minute windows.
    const own = await orgWithKey({ DATABASE_URL: db.url, REDIS_PREFIX: gw.gateway.context.config.redisPrefix, REDIS_URL: `redis://127.0.0.1:${port}` } as never);
    const product = () => call(`${gw.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key: own.key });
    try {
      expect((await product()).status).toBe(200);
      expect(await probe.script('FLUSH')).toBe('OK');
      // Requests arriving together: each NOSCRIPT is answered by a resend with the script.
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? product() : call(`${gw.url}/api/v1/record/version`, { key: own.key }))));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    } finally {
      probe.disconnect();
    }
  });
});

describe('Redis down', () => {
  it('fails closed with 500 internal_error and the request id, at once, then recovers and forgets what it could not hear', async () => {
    expect((await product()).status).toBe(200);
    await redis.stop();

    const started = Date.now();
    const refused = await Promise.all([product(), product(), call(`${gw.url}/api/v1/record/version`, { key: k.key })]);
    expect(Date.now() - started).toBeLessThan(3000);
    for (const r of refused) {
      expect([r.status, errorCode(r)]).toEqual([500, 'internal_error']);
      expect(r.body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
      expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
      expect(r.body.coverage).toBeUndefined();
    }
    // Health says nothing about Redis; readiness does.
    expect((await call(`${gw.url}/api/v1/health`)).status).toBe(200);
    expect((await call(`${gw.url}/readyz`)).status).toBe(503);

    // While nobody could publish it, the key was revoked.
    await pool.query('UPDATE api_keys SET revoked_at = now() WHERE key_id = $1', [k.keyId]);

    await redis.start();
    await waitFor('the gateway ready again', async () => (await call(`${gw.url}/readyz`)).status === 200, 10_000, 25);
    // The revocation holds although no invalidation message was ever sent.
    const r = await waitFor('an answer that is not 500', async () => {
      const res = await product();
      return res.status === 500 ? null : res;
    }, 5000, 25);
    expect([r.status, errorCode(r)]).toEqual([401, 'invalid_credentials']);
  });
});
