import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { coolDownKey, scoreKeys, utcDay, type ScoringPolicy } from '@evidence-record/access';
import { admin, call, createPlan, dropPrefix, errorCode, gatewayConfig, orgWithKey, redisClient, startGateway, type Call, type IssuedKey, type RunningGateway } from './support/harness';
import { waitFor } from '@evidence-record/test-support/wait';
import { adminQuery } from '@evidence-record/test-support/infra';
import { feedSignals, startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

/**
 * Extraction scoring: iterating over ids, aliases or date windows is
 * refused, then suspends the key; following the feed as documented and
 * ordinary repeated lookups never score.
 */
let db: TestDatabase;
let pool: Pool;
let redis: Redis;
let up: FakeUpstreams;
let prefix: string;
let env: { DATABASE_URL: string; REDIS_PREFIX: string };
const gateways: RunningGateway[] = [];

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url);
  redis = redisClient();
  prefix = isolationPrefix('gw-scoring').redisPrefix;
  env = { DATABASE_URL: db.url, REDIS_PREFIX: prefix };
  up = await startFakeUpstreams();
  await createPlan(pool, 'roomy', { minute: 100_000, hour: 1_000_000, day: 10_000_000, products: 1000, signals: 1000, ingredients: 1000 });
  await createPlan(pool, 'one_product', { minute: 100_000, hour: 1_000_000, day: 10_000_000, products: 1 });
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await up?.close();
  await dropPrefix(redis, prefix);
  redis?.disconnect();
  await pool?.end();
  await db?.drop();
});

async function gatewayWith(scoring: Partial<ScoringPolicy>, clock?: () => number): Promise<RunningGateway> {
  const g = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix: prefix, upstreams: up.urls }), { scoring, ...(clock ? { clock } : {}) });
  gateways.push(g);
  return g;
}

async function storedScore(k: IssuedKey, now = Date.now()): Promise<number> {
  return Number((await redis.hget(scoreKeys(prefix, k.orgId, k.keyId, utcDay(now)).state, 'score')) ?? 0);
}

const code = (r: Call) => [r.status, errorCode(r)];

/** What Postgres holds of a key's suspension. */
const suspensionOf = async (k: IssuedKey) =>
  (await pool.query<{ suspended_at: Date | null; suspended_reason: string | null }>('SELECT suspended_at, suspended_reason FROM api_keys WHERE key_id = $1', [k.keyId])).rows[0]!;

describe('a key probing for ids', () => {
  it('is refused past the first threshold, suspended past the second, and an operator sees why and lifts it', async () => {
    const g = await gatewayWith({ cool_down_ms: 300 });
    const k = await orgWithKey(env, { plan: 'roomy' });
    const probe = (i: number) => call(`${g.url}/api/v1/products/prd_nf${String(i).padStart(10, '0')}`, { key: k.key });

    // Patterned misses: 0, 6, 12, 18, 24, 34 points: still plain not_found answers.
    for (let i = 0; i < 6; i++) expect(code(await probe(i))).toEqual([404, 'not_found']);
    // (The score decays with a six-hour half-life: a few milliseconds shave a hair off.)
    expect(await storedScore(k)).toBeCloseTo(34, 2);
    // The seventh crosses 40: refused, with a cool-down.
    const refused = await probe(6);
    expect(code(refused)).toEqual([429, 'extraction_pattern_refused']);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('ratelimit-policy')).toBeTruthy();
    // During the cool-down even an ordinary request is refused, and nothing reaches the service.
    const during = await call(`${g.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key: k.key });
    expect(code(during)).toEqual([429, 'extraction_pattern_refused']);
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Continuing the pattern after each cool-down: 54, 64, ... 124 crosses 120.
    let last: Call | null = null;
    for (let i = 7; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 320)); // time passes: the cool-down runs out on the clock
      last = await probe(i);
      if (last.status === 403) break;
      expect(code(last)).toEqual([429, 'extraction_pattern_refused']);
    }
    expect(code(last!)).toEqual([403, 'key_suspended']);
    // Suspended for good: Postgres says so by the time the client has its refusal, and every later request says so.
    const suspended = await suspensionOf(k);
    expect(suspended.suspended_at).toBeInstanceOf(Date);
    expect(suspended.suspended_reason).toMatch(/extraction pattern: .*patterned_ids/);
    expect(code(await call(`${g.url}/api/v1/record/version`, { key: k.key }))).toEqual([403, 'key_suspended']);

    // The operator sees why.
    const shown = await admin(env, 'key', 'show', k.keyId);
    expect((shown.key as { status: string; suspended_reason: string }).status).toBe('suspended');
    const events = (await admin(env, 'key', 'events', k.keyId)).events as Array<{ kind: string; detail: Record<string, unknown> }>;
    const suspension = events.find((e) => e.kind === 'suspended')!;
    expect(suspension.detail.reasons).toContain('patterned_ids');
    expect(suspension.detail.evidence).toMatchObject({ distinct_not_found_today: expect.any(Number) });
    expect(suspension.detail.capability).toBe('get_product_record');
    expect(events.filter((e) => e.kind === 'extraction_refused').length).toBeGreaterThan(0);

    // And lifts it: the key answers again, with its score cleared.
    await admin(env, 'key', 'unsuspend', k.keyId);
    await waitFor('the key to answer again', async () => (await call(`${g.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key: k.key })).status === 200, 200, 20);
    expect(await storedScore(k)).toBe(0);
  });
});

describe('a suspension while Postgres refuses connections', () => {
  /**
   * A new key on a gateway that suspends straight past the threshold (no cool-down first), after six patterned
   * misses: `probe(6)`, the next miss, is the one request that suspends it. Ids start at `from`, apart per test.
   */
  async function keyAtTheThreshold(from: number): Promise<{ k: IssuedKey; probe: (i: number) => Promise<Call> }> {
    const g = await gatewayWith({ suspend_at: 40, refuse_at: 1000 });
    const k = await orgWithKey(env, { plan: 'roomy' });
    const probe = (i: number) => call(`${g.url}/api/v1/products/prd_nf${String(from + i).padStart(10, '0')}`, { key: k.key });
    for (let i = 0; i < 6; i++) expect(code(await probe(i))).toEqual([404, 'not_found']);
    return { k, probe };
  }

  /** This file's own database refuses connections and the open ones are cut (what a Postgres restart does) while `during` runs, and for `holdMs` after. */
  async function withPostgresRefusing(holdMs: number, during: () => Promise<void>): Promise<void> {
    await adminQuery(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS false`);
    try {
      await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}'`);
      await during();
      await new Promise((r) => setTimeout(r, holdMs));
    } finally {
      await adminQuery(`ALTER DATABASE "${db.name}" ALLOW_CONNECTIONS true`);
    }
  }

  it("is announced within the pool's deadlines, held by the Redis flag, and saved by a later attempt once Postgres is back", async () => {
    const { k, probe } = await keyAtTheThreshold(50);

    // Refused for three seconds: longer than the first four attempts behind the refusal take.
    await withPostgresRefusing(3_000, async () => {
      const started = Date.now();
      expect(code(await probe(6))).toEqual([403, 'key_suspended']);
      // The first attempt to save it failed at once; the refusal did not wait for the attempts behind it.
      expect(Date.now() - started).toBeLessThan(5_000);
      // Meanwhile the Redis flag refuses the key on every request.
      expect(code(await probe(7))).toEqual([403, 'key_suspended']);
    });
    const saved = await waitFor('the suspension saved by a later attempt', async () => {
      const s = await suspensionOf(k);
      return s.suspended_at ? s : null;
    }, 20_000, 200);
    expect(saved.suspended_reason).toMatch(/extraction pattern: .*patterned_ids/);
    await admin(env, 'key', 'unsuspend', k.keyId);
  });

  it('is not saved once its flag is lifted or has expired before Postgres is back', async () => {
    const { k, probe } = await keyAtTheThreshold(70);
    await withPostgresRefusing(1_000, async () => {
      expect(code(await probe(6))).toEqual([403, 'key_suspended']);
      // What an operator's unsuspend clears, and what the flag's expiry does.
      await redis.del(coolDownKey(prefix, k.keyId));
    });
    // Longer than the attempts that would have followed (at 0.2, 0.6, 1.4 and 3 s): none saves it.
    await new Promise((r) => setTimeout(r, 3_500));
    expect((await suspensionOf(k)).suspended_at).toBeNull();
  });
});

describe('what never scores', () => {
  // Thresholds so low that one scoring event would refuse.
  const strict: Partial<ScoringPolicy> = { refuse_at: 1, suspend_at: 1000, window_allowance: 2, identifier_allowance: 2, not_found_allowance: 2 };

  it('following the feed with since and next_cursor, as documented, day after day', async () => {
    let now = Date.now();
    const g = await gatewayWith(strict, () => now);
    const k = await orgWithKey(env, { plan: 'roomy' });
    // Release dates, oldest first: the poller's stored `since` only ever moves forward along them,
    // several times a day (more distinct values per day than the strict window allowance).
    const releaseDates = feedSignals.map((s) => s.releasedOn).reverse();
    let position = 0;
    for (let day = 0; day < 5; day++) {
      for (let poll = 0; poll < 6; poll++) {
        const since = releaseDates[position]!;
        let cursor: string | null = null;
        let pages = 0;
        do {
          const r: Call = await call(`${g.url}/api/v1/signals?since=${since}&limit=7${cursor ? `&cursor=${cursor}` : ''}`, { key: k.key });
          expect(r.status, `day ${day} poll ${poll}`).toBe(200);
          cursor = (r.body.next_cursor as string | null | undefined) ?? null;
          pages++;
        } while (cursor && pages < 20);
        // The poller stores the newest release date it processed; new releases arrive now and then.
        if (poll % 2 === 0) position = Math.min(releaseDates.length - 1, position + 2);
      }
      now += 86_400_000;
    }
    // Nothing scored on any day.
    for (let d = 0; d < 6; d++) expect(await storedScore(k, now - d * 86_400_000)).toBe(0);
  });

  it('ordinary repeated lookups: the same product, the same missing id, the same name, the default snapshot', async () => {
    const g = await gatewayWith(strict);
    const k = await orgWithKey(env, { plan: 'roomy' });
    for (let i = 0; i < 30; i++) {
      expect((await call(`${g.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key: k.key })).status).toBe(200);
      expect(code(await call(`${g.url}/api/v1/products/prd_nf0000000001`, { key: k.key }))).toEqual([404, 'not_found']);
      const resolved = await call(`${g.url}/api/v1/products/resolve`, { key: k.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: i % 2 ? 'Ignite Pre' : '  ignite   PRE ' }) });
      expect(resolved.status).toBe(200);
      expect((await call(`${g.url}/api/v1/category/snapshot`, { key: k.key })).status).toBe(200);
    }
    expect(await storedScore(k)).toBe(0);
  });
});

describe('what scores', () => {
  // Two scoring events of 5 points refuse (9, not 10: the first has decayed a hair by the second).
  const quick: Partial<ScoringPolicy> = { refuse_at: 9, suspend_at: 1000, cool_down_ms: 60_000 };

  it('an alias sweep: many distinct identifiers', async () => {
    const g = await gatewayWith({ ...quick, identifier_allowance: 3, identifier_points: 5 });
    const k = await orgWithKey(env, { plan: 'roomy' });
    const statuses: number[] = [];
    for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']) {
      const r = await call(`${g.url}/api/v1/products/resolve`, { key: k.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: name }) });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('tiled date windows on the snapshot, and a feed window sliding backwards', async () => {
    const g = await gatewayWith({ ...quick, window_allowance: 2, window_points: 5 });
    const k = await orgWithKey(env, { plan: 'roomy' });
    const tiles = ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01'];
    const statuses: number[] = [];
    for (let i = 0; i < tiles.length - 1; i++) statuses.push((await call(`${g.url}/api/v1/category/snapshot?from=${tiles[i]}&to=${tiles[i + 1]}`, { key: k.key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const k2 = await orgWithKey(env, { plan: 'roomy' });
    const feed = (since: string) => call(`${g.url}/api/v1/signals?since=${since}`, { key: k2.key });
    expect((await feed('2026-10-01')).status).toBe(200);
    expect((await feed('2026-10-20')).status).toBe(200);
    // Stepping since backwards, window after window, is sliding over the history.
    const back = [];
    for (const since of ['2026-09-01', '2026-08-01', '2026-07-01', '2026-06-01']) back.push((await feed(since)).status);
    expect(back).toEqual([200, 200, 200, 429]);
  });

  it('meeting the spent budget day after day', async () => {
    let now = Date.UTC(2026, 10, 2, 12);
    const g = await gatewayWith({ ...quick, exhaustion_days: 3, exhaustion_points: 20 }, () => now);
    const k = await orgWithKey(env, { plan: 'one_product' });
    const outcomes: string[] = [];
    for (let day = 0; day < 3; day++) {
      expect((await call(`${g.url}/api/v1/products/prd_aaaaaaaaaaa${day}`, { key: k.key })).status).toBe(200);
      const over = await call(`${g.url}/api/v1/products/prd_bbbbbbbbbbb${day}`, { key: k.key });
      outcomes.push(String(errorCode(over)));
      now += 86_400_000;
    }
    expect(outcomes).toEqual(['extraction_limit_reached', 'extraction_limit_reached', 'extraction_pattern_refused']);
  });
});

describe('repeats this replica has already settled', () => {
  const settlements = async (g: RunningGateway) => {
    const values = (await g.gateway.context.metrics.settlements.get()).values;
    const of = (path: string) => values.find((v) => v.labels.path === path)?.value ?? 0;
    return { redis: of('redis'), repeat: of('repeat') };
  };

  it('skip Redis only while nothing could change, and count again what an operator cleared', async () => {
    const g = await gatewayWith({ identifier_allowance: 2, identifier_points: 5, refuse_at: 9, suspend_at: 1000 });
    const k = await orgWithKey(env, { plan: 'roomy' });
    const identifiers = scoreKeys(prefix, k.orgId, k.keyId, utcDay(Date.now())).identifiers;
    const resolve = (name: string) => call(`${g.url}/api/v1/products/resolve`, { key: k.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: name }) });

    for (const name of ['alpha', 'bravo']) expect((await resolve(name)).status).toBe(200);
    const first = await settlements(g);
    for (let i = 0; i < 5; i++) expect((await resolve(i % 2 ? 'alpha' : 'bravo')).status).toBe(200);
    expect(await settlements(g)).toEqual({ redis: first.redis, repeat: first.repeat + 5 });
    expect(await redis.scard(identifiers)).toBe(2);

    // A new identifier goes to Redis (and is the third of an allowance of two: scored, not yet refused).
    expect((await resolve('charlie')).status).toBe(200);
    expect((await settlements(g)).redis).toBe(first.redis + 1);
    expect(await storedScore(k)).toBeGreaterThan(0);

    // The operator clears the key's extraction state: the replica forgets, so 'alpha' is counted in Redis again.
    await admin(env, 'key', 'unsuspend', k.keyId);
    expect(await redis.exists(identifiers)).toBe(0);
    await waitFor('the identifier recorded again', async () => {
      expect((await resolve('alpha')).status).toBe(200);
      return (await redis.sismember(identifiers, 'resolve:alpha')) === 1;
    }, 5000, 25);
    expect(await storedScore(k)).toBe(0);
  });
});
