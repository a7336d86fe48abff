import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, createRedis, groupByHashTag, onRedisErrors, publishCounted, type Pool, type RedisClient } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { startRedisCluster, type RedisCluster } from '@evidence-record/test-support/redis-cluster';
import { waitFor } from '@evidence-record/test-support/wait';
import { budgetKey, coolDownKey, defaultScoringPolicy, keyChangesChannel, protocolWindowKey, rateWindowKeys, scoreKeys, utcDay } from '@evidence-record/access';
import { gatewayScripts, installScripts } from '../src/limits/scripts';
import { checkRateWindows } from '../src/limits/rate-windows';
import { countProtocolMessages } from '../src/limits/protocol-window';
import { settleAnswer } from '../src/limits/settle';
import type { PlanLimits } from '../src/access/key-record';
import { admin, call, createPlan, errorCode, gatewayConfig, startGateway, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

/**
 * The gateway and the operator CLI on a real Redis Cluster (three masters,
 * one replica each, started here on loopback): every Lua script of the
 * gateway and every CLI verb that touches Redis, then a master killed and
 * the node holding the gateways' subscriptions killed (decision 2300).
 */
let cluster: RedisCluster;
let db: TestDatabase;
let pool: Pool;
let up: FakeUpstreams;
let redis: RedisClient;
let prefix: string;
let env: { DATABASE_URL: string; REDIS_PREFIX: string; REDIS_URL: string; REDIS_MODE: string };
const gateways: RunningGateway[] = [];

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1, nodeTimeoutMs: 1000 });
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  prefix = isolationPrefix('gw-redis-cluster').redisPrefix;
  env = { DATABASE_URL: db.url, REDIS_PREFIX: prefix, REDIS_URL: cluster.url, REDIS_MODE: 'cluster' };
  redis = createRedis({ mode: 'cluster', url: cluster.url }, { lazyConnect: true });
  onRedisErrors(redis, () => undefined);
  await redis.connect();
  up = await startFakeUpstreams();
  // Two replicas of the gateway, as a Deployment runs them: invalidation must reach both.
  for (let i = 0; i < 2; i++) gateways.push(await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix: prefix, redisUrl: cluster.url, redisMode: 'cluster', upstreams: up.urls })));
  await createPlan(pool, 'wide_windows', { minute: 100_000, hour: 1_000_000, day: 10_000_000, products: 10_000, signals: 10_000, ingredients: 10_000 });
  await createPlan(pool, 'other_windows', { minute: 50_000, hour: 1_000_000, day: 10_000_000, products: 10_000, signals: 10_000, ingredients: 10_000 });
}, 180_000);

afterAll(async () => {
  for (const g of gateways) await g.close().catch(() => undefined);
  redis?.disconnect();
  await up?.close();
  await pool?.end();
  await db?.drop();
  await cluster?.stop();
});

const cli = (...argv: string[]) => admin(env, ...argv);

async function orgAndKey(plan = 'wide_windows'): Promise<{ orgId: string; keyId: string; key: string }> {
  const org = await cli('org', 'create', '--name', 'cluster org', '--plan', plan);
  const issued = await cli('key', 'issue', '--org', String(org.org_id), '--scopes', 'products:read');
  return { orgId: String(org.org_id), keyId: String(issued.key_id), key: String(issued.key) };
}

const product = (g: RunningGateway, key: string, id = 'prd_aaaaaaaaaaaa') => call(`${g.url}/api/v1/products/${id}`, { key });

/**
 * Every gateway answers as `expected` says within a second of a change (a message on a cluster crosses the
 * cluster bus to the node each gateway listens on, so it lands a moment after PUBLISH returns).
 */
async function everyGateway(key: string, what: string, expected: (r: Awaited<ReturnType<typeof call>>) => boolean): Promise<void> {
  for (const g of gateways) await waitFor(`${what} on ${g.url}`, async () => expected(await product(g, key)), 1000, 20);
}

describe('every Lua script of the gateway on a Redis Cluster', () => {
  it('runs each script with its keys on one slot, and the gateway meters through them', async () => {
    const { orgId, keyId, key } = await orgAndKey();
    const scripts = installScripts(redis);
    const plan: PlanLimits = { planId: 'test', windows: { minute: 10, hour: 100, day: 1000 }, budgets: { product: 15, signal: 15, ingredient: 25 }, watchLimit: 10, capabilities: new Set() };
    const ran: Record<keyof typeof gatewayScripts, () => Promise<void>> = {
      erRateWindows: async () => {
        const r = await checkRateWindows(scripts, prefix, keyId, plan, true);
        expect(r.admitted).toBe(true);
        expect(await redis.get(rateWindowKeys(prefix, keyId)[0])).toBe('1');
      },
      erSettle: async () => {
        const s = await settleAnswer(scripts, prefix, {
          orgId,
          keyId,
          kind: 'product',
          plan,
          entities: ['prd_000000000001', 'prd_000000000002'],
          observation: { kind: 'identifier', value: 'creatine' },
          policy: defaultScoringPolicy,
          now: Date.now(),
        });
        expect(s).toMatchObject({ outcome: 'deliver', spent: 2, used: 2 });
        expect(await redis.scard(budgetKey(prefix, orgId, utcDay(Date.now()), 'product'))).toBe(2);
      },
      erProtocolWindow: async () => {
        const w = await countProtocolMessages(scripts, prefix, keyId, plan, 3, 'admit');
        expect(w.admitted).toBe(true);
        expect(await redis.get(protocolWindowKey(prefix, keyId))).toBe('3');
      },
    };
    // Every script the gateway defines has a case here: a new script cannot skip the cluster.
    expect(Object.keys(ran).sort()).toEqual(Object.keys(gatewayScripts).sort());
    for (const run of Object.values(ran)) await run();

    // Through the gateway: windows and budget (REST), the protocol window (/mcp).
    const g = gateways[0]!;
    const answered = await product(g, key, 'prd_000000000003');
    expect(answered.status).toBe(200);
    expect(answered.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    const mcp = await call(`${g.url}/mcp`, { method: 'POST', key, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(mcp.status).toBe(200);
    expect(Number(await redis.get(protocolWindowKey(prefix, keyId)))).toBe(4);
    expect(Number(await redis.get(rateWindowKeys(prefix, keyId)[0]))).toBe(2);
  });
});

describe('every CLI verb that touches Redis, on a Redis Cluster', () => {
  it('announces each change to both gateways, counted honestly (PUBLISH alone would say 0)', async () => {
    const { orgId, keyId, key } = await orgAndKey();
    for (const g of gateways) expect((await product(g, key)).status).toBe(200);
    // Two subscribers, one per gateway, wherever in the cluster they are.
    expect(await publishCounted(redis, keyChangesChannel(prefix), 'probe')).toBe(2);

    const account = await cli('account', 'create', '--org', orgId, '--email', 'cluster@example.test');
    expect(account.gateways_notified).toBe(2);
    expect((await cli('key', 'suspend', keyId, '--reason', 'test')).gateways_notified).toBe(2);
    await everyGateway(key, 'key_suspended', (r) => errorCode(r) === 'key_suspended');

    // The state scoring leaves behind a suspension: the flag under the key's hash tag, the score under the organisation's.
    const day = utcDay(Date.now());
    const score = scoreKeys(prefix, orgId, keyId, day);
    await redis.set(coolDownKey(prefix, keyId), 'suspended', 'PX', 86_400_000);
    await redis.hset(score.state, 'score', '95', 'at', String(Date.now()));
    await redis.sadd(score.identifiers, 'a', 'b');
    expect(groupByHashTag([coolDownKey(prefix, keyId), score.state]).length).toBe(2);
    const shown = await cli('key', 'show', keyId);
    expect(shown.extraction).toMatchObject({ score: expect.any(Number), cool_down: { state: 'suspended' } });

    // One DEL mixing the two hash tags was refused whole (CROSSSLOT): the flag stayed and kept refusing.
    const lifted = await cli('key', 'unsuspend', keyId);
    expect(lifted.gateways_notified).toBe(2);
    // (Each EXISTS names keys of one tag: a test on a cluster is held to the same rule.)
    expect(await redis.exists(coolDownKey(prefix, keyId))).toBe(0);
    expect(await redis.exists(score.state, score.identifiers)).toBe(0);
    await everyGateway(key, 'answers again', (r) => r.status === 200);
    expect((await cli('key', 'show', keyId)).extraction).toMatchObject({ score: 0, cool_down: null });

    const wide = await product(gateways[0]!, key);
    expect(wide.headers.get('ratelimit-limit')).toBe('100000');
    await cli('org', 'set-plan', orgId, '--plan', 'other_windows');
    await everyGateway(key, 'the new plan', (r) => r.headers.get('ratelimit-limit') === '50000');
    await cli('org', 'suspend', orgId);
    await everyGateway(key, 'organisation suspended', (r) => errorCode(r) === 'key_suspended');
    await cli('org', 'unsuspend', orgId);
    await everyGateway(key, 'organisation unsuspended', (r) => r.status === 200);

    const unbound = await cli('account', 'unbind', String(account.account_id));
    expect(unbound.gateways_notified).toBe(2);

    const rotated = await cli('key', 'rotate', keyId);
    expect(rotated.gateways_notified).toBe(2);
    await everyGateway(key, 'old key refused', (r) => r.status === 401);
    const revoked = await cli('key', 'revoke', String(rotated.key_id));
    expect(revoked.gateways_notified).toBe(2);
    await everyGateway(String(rotated.key), 'revoked', (r) => r.status === 401);
  });
});

describe('a node lost', () => {
  it('a master killed: the gateway refuses (500 internal_error, promptly) while no master holds the key\'s slot, then answers again, every answer counted', async () => {
    const { keyId, key } = await orgAndKey();
    const g = gateways[0]!;
    expect((await product(g, key)).status).toBe(200);
    const [minuteKey] = rateWindowKeys(prefix, keyId);
    const victim = await cluster.masterOf(minuteKey);
    // The replica has the count before its master goes (replication is asynchronous).
    await waitFor('the replica in step', async () => {
      const top = await cluster.topology();
      const master = top.find((n) => n.port === victim)!;
      const replica = top.find((n) => n.masterId === master.id)!;
      const r = createRedis({ mode: 'standalone', url: `redis://127.0.0.1:${replica.port}` }, { lazyConnect: true });
      try {
        await r.connect();
        await r.call('READONLY');
        return (await r.get(minuteKey)) === '1';
      } finally {
        r.disconnect();
      }
    });
    await cluster.kill(victim);
    const killedAt = Date.now();

    const outcomes: Array<{ status: number; code: string | undefined; ms: number; at: number }> = [];
    let recoveredAt = 0;
    while (Date.now() - killedAt < 30_000) {
      const t0 = Date.now();
      const r = await product(g, key);
      outcomes.push({ status: r.status, code: errorCode(r), ms: Date.now() - t0, at: t0 - killedAt });
      if (r.status === 200 && outcomes.some((o) => o.status !== 200)) {
        recoveredAt = Date.now();
        break;
      }
    }
    const refused = outcomes.filter((o) => o.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) {
      expect(o.status).toBe(500);
      expect(o.code).toBe('internal_error');
      // Refused promptly, never held for the whole failover.
      expect(o.ms).toBeLessThan(2500);
    }
    expect(recoveredAt, JSON.stringify(outcomes.slice(-5))).toBeGreaterThan(0);
    // With a one-second node timeout the promoted replica answers within seconds.
    expect(recoveredAt - killedAt).toBeLessThan(15_000);
    // Every 200 was counted in the promoted master (the one before the kill, those after); a refusal is
    // counted at most (its window counted, its settlement refused while the cluster settled down).
    const answered = 1 + outcomes.filter((o) => o.status === 200).length;
    const counted = Number(await redis.get(minuteKey));
    expect(counted).toBeGreaterThanOrEqual(answered);
    expect(counted).toBeLessThanOrEqual(1 + outcomes.length);
    console.info(`redis cluster failover: ${refused.length} refusals (slowest ${Math.max(...refused.map((o) => o.ms))} ms), answering again ${recoveredAt - killedAt} ms after the master was killed`);

    await cluster.restart(victim);
    await cluster.waitHealthy();
  }, 60_000);

  it('the node holding a gateway\'s subscription killed: the subscriber moves to another node, and a revocation still reaches every gateway', async () => {
    const { keyId, key } = await orgAndKey();
    for (const g of gateways) expect((await product(g, key)).status).toBe(200);
    // Where the gateways' subscriptions are (CLIENT LIST on each node: the connection named gateway-keys).
    const holders: number[] = [];
    for (const n of cluster.nodes.filter((x) => x.running)) {
      const r = createRedis({ mode: 'standalone', url: `redis://127.0.0.1:${n.port}` }, { lazyConnect: true });
      try {
        await r.connect();
        if (String(await r.client('LIST')).includes('name=gateway-keys')) holders.push(n.port);
      } finally {
        r.disconnect();
      }
    }
    expect(holders.length).toBeGreaterThan(0);
    // One node at a time (two could be a master and its own replica: a shard gone, not a failover); a master
    // if one holds a subscription, so that the subscriber moves while its shard fails over.
    const masters = new Set((await cluster.topology()).filter((n) => n.role === 'master').map((n) => n.port));
    const victim = holders.find((p) => masters.has(p)) ?? holders[0]!;
    await cluster.kill(victim);
    const killedAt = Date.now();
    // The gateway that was there subscribed again elsewhere (flushing its cache as it did); the other never left.
    await waitFor('both gateways subscribed', async () => (await publishCounted(redis, keyChangesChannel(prefix), 'probe').catch(() => 0)) === 2, 30_000, 200);
    console.info(`redis cluster: the ${masters.has(victim) ? 'master' : 'replica'} holding a gateway's subscription killed; subscribed elsewhere within ${Date.now() - killedAt} ms`);
    const revoked = await cli('key', 'revoke', keyId);
    expect(revoked.gateways_notified).toBe(2);
    await everyGateway(key, 'revoked', (r) => r.status === 401);

    await cluster.restart(victim);
    await cluster.waitHealthy();
  }, 60_000);
});
