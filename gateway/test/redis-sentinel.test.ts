import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, createRedis, onRedisErrors, publishCounted, type Pool } from '@evidence-record/platform';
import { waitFor } from '@evidence-record/test-support/wait';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { startRedisSentinel, type RedisSentinelSet } from '@evidence-record/test-support/redis-cluster';
import { admin, call, createPlan, errorCode, gatewayConfig, startGateway, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

/**
 * The gateway and the operator CLI on a primary with a replica watched by a
 * Sentinel (REDIS_MODE=sentinel, started here on loopback): metering and
 * invalidation work, and keep working once the Sentinel has promoted the
 * replica after the primary was killed (decision 2300).
 */
let set: RedisSentinelSet;
let db: TestDatabase;
let pool: Pool;
let up: FakeUpstreams;
let gw: RunningGateway;
let env: { DATABASE_URL: string; REDIS_PREFIX: string; REDIS_URL: string; REDIS_MODE: string; REDIS_SENTINEL_NAME: string };

beforeAll(async () => {
  set = await startRedisSentinel({ replicas: 1, sentinels: 1, downAfterMs: 1000 });
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  const prefix = isolationPrefix('gw-redis-sentinel').redisPrefix;
  env = { DATABASE_URL: db.url, REDIS_PREFIX: prefix, REDIS_URL: set.url, REDIS_MODE: 'sentinel', REDIS_SENTINEL_NAME: set.name };
  up = await startFakeUpstreams();
  gw = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix: prefix, redisUrl: set.url, redisMode: 'sentinel', redisSentinelName: set.name, upstreams: up.urls }));
  await createPlan(pool, 'wide_windows', { minute: 100_000, hour: 1_000_000, day: 10_000_000, products: 10_000, signals: 10_000, ingredients: 10_000 });
}, 120_000);

afterAll(async () => {
  await gw?.close().catch(() => undefined);
  await up?.close();
  await pool?.end();
  await db?.drop();
  await set?.stop();
});

const cli = (...argv: string[]) => admin(env, ...argv);

async function issue(): Promise<{ keyId: string; key: string }> {
  const org = await cli('org', 'create', '--name', 'sentinel org', '--plan', 'wide_windows');
  const issued = await cli('key', 'issue', '--org', String(org.org_id), '--scopes', 'products:read');
  return { keyId: String(issued.key_id), key: String(issued.key) };
}

const product = (key: string) => call(`${gw.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key });

describe('Redis behind Sentinels', () => {
  it('meters and invalidates through the primary the Sentinels name, before and after a failover', async () => {
    const before = await issue();
    expect((await product(before.key)).status).toBe(200);
    expect((await cli('key', 'suspend', before.keyId)).gateways_notified).toBe(1);
    expect(errorCode(await product(before.key))).toBe('key_suspended');

    const first = await set.primary();
    await set.kill(first);
    const killedAt = Date.now();
    const promoted = await set.waitPrimary(30_000);
    expect(promoted).not.toBe(first);

    // The gateway follows the Sentinels to the new primary: it answers again, metered there.
    const after = await issue();
    let answered = 0;
    const outcomes: number[] = [];
    while (Date.now() - killedAt < 30_000) {
      const r = await product(after.key);
      outcomes.push(r.status);
      if (r.status === 200) {
        answered = Date.now();
        break;
      }
      expect(errorCode(r)).toBe('internal_error');
    }
    expect(answered, `${outcomes.length} refusals, none answered`).toBeGreaterThan(0);
    console.info(`redis sentinel failover: answering again ${answered - killedAt} ms after the primary was killed`);

    // The key-change channel followed too: once the gateway has subscribed on the new primary, a revocation reaches it.
    const probe = createRedis({ mode: 'sentinel', url: set.url, sentinelName: set.name }, { lazyConnect: true });
    onRedisErrors(probe, () => undefined);
    await probe.connect();
    try {
      await waitFor('the gateway subscribed on the new primary', async () => (await publishCounted(probe, `${env.REDIS_PREFIX}keys:changed`, 'probe')) === 1, 20_000, 100);
    } finally {
      probe.disconnect();
    }
    const revoked = await cli('key', 'revoke', after.keyId);
    expect(revoked.gateways_notified).toBe(1);
    expect((await product(after.key)).status).toBe(401);
  }, 60_000);
});
