import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { Pool } from '@evidence-record/platform';
import { budgetKey, rateWindowKeys, utcDay } from '@evidence-record/access';
import { gatewayBed, type GatewayBed } from './support/bed';
import { anotherKey, call, createPlan, errorCode, orgWithKey, type Call, type RunningGateway } from './support/harness';
import { waitFor } from '@evidence-record/test-support/wait';
import { feedSignals } from './support/upstreams';

/**
 * Rate windows per key and daily distinct-entity budgets per organisation,
 * against the real Redis scripts, under real concurrency.
 */
let bed: GatewayBed;
let pool: Pool;
let redis: Redis;
let gw: RunningGateway;
let env: { DATABASE_URL: string; REDIS_PREFIX: string };
let prefix: string;

beforeAll(async () => {
  bed = await gatewayBed('gw-limits');
  ({ pool, redis, gw, env, prefix } = bed);
  // Generous windows, the free plan's budgets: only the budget can refuse.
  await createPlan(pool, 'wide_windows', { minute: 10_000, hour: 100_000, day: 1_000_000, products: 15, signals: 15, ingredients: 25 });
});
afterAll(() => bed?.close());

const pid = (i: number) => `prd_${String(i).padStart(12, '0')}`;
const get = (path: string, key: string, init: RequestInit = {}) => call(`${gw.url}${path}`, { ...init, key });

/** Waits until the current minute has at least `seconds` left, so a burst lands in one minute whatever windows a reader assumes. */
async function clearOfMinuteBoundary(seconds = 5): Promise<void> {
  const left = 60 - (Date.now() / 1000) % 60;
  // Time has to pass here: the fixed minute window rolls over on the clock, not on an event.
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 100));
}

function expectLimitHeaders(r: Call): void {
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(r.headers.get(h), h).toMatch(/^\d+$/);
  expect(['minute', 'hour', 'day']).toContain(r.headers.get('ratelimit-policy'));
  expect(r.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
  expect(r.headers.get('cache-control')).toBe('private, no-store, max-age=0, must-revalidate');
}

describe('rate windows', () => {
  it('200 parallel requests on one free key admit exactly 30 in the minute', async () => {
    const k = await orgWithKey(env);
    await clearOfMinuteBoundary();
    const results = await Promise.all(Array.from({ length: 200 }, () => get('/api/v1/record/version', k.key)));
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted.length).toBe(30);
    expect(refused.length).toBe(170);
    for (const r of refused) {
      expect(errorCode(r)).toBe('rate_limited');
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      expect(r.headers.get('ratelimit-policy')).toBe('minute');
      expect(r.headers.get('ratelimit-limit')).toBe('30');
      expectLimitHeaders(r);
    }
    for (const r of admitted) expectLimitHeaders(r);
    const remaining = admitted.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => i));
    // A refused request consumes nothing: the hour and day windows counted 30, not 200.
    const [, hour, day] = rateWindowKeys(prefix, k.keyId);
    expect(await redis.get(hour)).toBe('30');
    expect(await redis.get(day)).toBe('30');
  });

  it('reports the window closest to exhaustion by name (hour), and Retry-After from the window that refused', async () => {
    await createPlan(pool, 'tight_hour', { minute: 100, hour: 3, day: 1000 });
    const k = await orgWithKey(env, { plan: 'tight_hour' });
    const first = await get('/api/v1/record/version', k.key);
    expect([first.headers.get('ratelimit-policy'), first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual(['hour', '3', '2']);
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(3500);
    await get('/api/v1/record/version', k.key);
    await get('/api/v1/record/version', k.key);
    const refused = await get('/api/v1/record/version', k.key);
    expect([refused.status, errorCode(refused), refused.headers.get('ratelimit-policy')]).toEqual([429, 'rate_limited', 'hour']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((refused.body.error as { details: unknown }).details).toEqual({ window: 'hour' });
  });

  it('windows are per key: another key of the same organisation has its own', async () => {
    await createPlan(pool, 'two_per_minute', { minute: 2, hour: 100, day: 100 });
    const a = await orgWithKey(env, { plan: 'two_per_minute' });
    const b = await anotherKey(env, a.orgId, 'framework:read');
    await get('/api/v1/record/version', a.key);
    await get('/api/v1/record/version', a.key);
    expect((await get('/api/v1/record/version', a.key)).status).toBe(429);
    expect((await get('/api/v1/record/version', b.key)).status).toBe(200);
  });
});

describe('daily distinct-entity budgets', () => {
  it('50 parallel requests naming 50 distinct products spend exactly 15 and refuse the rest', async () => {
    const k = await orgWithKey(env, { plan: 'wide_windows' });
    const before = Date.now();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => get(`/api/v1/products/${pid(i)}`, k.key)));
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted.length).toBe(15);
    expect(refused.length).toBe(35);
    const toMidnight = (Date.UTC(new Date(before).getUTCFullYear(), new Date(before).getUTCMonth(), new Date(before).getUTCDate() + 1) - before) / 1000;
    for (const r of refused) {
      expect(errorCode(r)).toBe('extraction_limit_reached');
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(Math.abs(retryAfter - toMidnight)).toBeLessThanOrEqual(3);
      expectLimitHeaders(r);
      // The upstream's entities header never reaches a client.
      expect(r.headers.get('x-budget-entities')).toBeNull();
    }
    for (const r of admitted) expect(r.headers.get('x-budget-entities')).toBeNull();
    const spent = await redis.smembers(budgetKey(prefix, k.orgId, utcDay(Date.now()), 'product'));
    expect(spent.sort()).toEqual(admitted.map((r) => (r.body.coverage as { entities: string[] }).entities[0]!).sort());

    // Naming an admitted product again costs nothing, and still answers.
    const again = await get(`/api/v1/products/${spent[0]}/history`, k.key);
    expect(again.status).toBe(200);
    // get_record_version spends nothing.
    expect((await get('/api/v1/record/version', k.key)).status).toBe(200);
    // Other kinds have their own budget: Signals are still available.
    expect((await get('/api/v1/signals/sig_000000000001', k.key)).status).toBe(200);
    const usage = await waitFor('53 usage rows', async () => {
      const { rows } = await pool.query<{ charged: number; n: number }>(
        'SELECT coalesce(sum(entities_charged), 0)::int AS charged, count(*)::int AS n FROM usage_log WHERE key_id = $1',
        [k.keyId],
      );
      return rows[0]!.n >= 53 ? rows[0] : null;
    }, 5000, 25);
    expect(usage.charged).toBe(16);
  });

  it('is shared by every key of an organisation, and an answer that would cross it is not delivered', async () => {
    const a = await orgWithKey(env, { plan: 'wide_windows' });
    const b = await anotherKey(env, a.orgId, 'comparisons:create,products:read');
    for (let i = 0; i < 14; i++) expect((await get(`/api/v1/products/${pid(100 + i)}`, a.key)).status).toBe(200);
    // A comparison naming 3 products of which 2 are new would cross 15: withheld whole, nothing spent.
    const crossing = await get('/api/v1/products/compare', b.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product_ids: [pid(100), pid(200), pid(201)] }),
    });
    expect([crossing.status, errorCode(crossing)]).toEqual([429, 'extraction_limit_reached']);
    expect(crossing.body.coverage).toBeUndefined();
    expect(await redis.scard(budgetKey(prefix, a.orgId, utcDay(Date.now()), 'product'))).toBe(14);
    // One new product still fits, from either key.
    expect((await get(`/api/v1/products/${pid(300)}`, b.key)).status).toBe(200);
    expect((await get(`/api/v1/products/${pid(301)}`, a.key)).status).toBe(429);
  });

  it('a page that would cross the budget is asked again, as long as what is left allows, with next_cursor to the rest', async () => {
    const k = await orgWithKey(env, { plan: 'wide_windows' });
    const day = budgetKey(prefix, k.orgId, utcDay(Date.now()), 'signal');
    const first = await get('/api/v1/signals?limit=20', k.key);
    expect(first.status, first.text.slice(0, 200)).toBe(200);
    const named = (first.body.coverage as { entities: string[] }).entities;
    expect(named).toEqual(feedSignals.slice(0, 15).map((s) => s.id));
    expect(first.body.next_cursor).toBeTruthy();
    expect(await redis.scard(day)).toBe(15);
    // The service was asked for 15: the cap travelled as x-er-page-cap.
    expect((first.body.coverage as { seen_headers: Record<string, string> }).seen_headers['x-er-page-cap']).toBe('15');
    // Nothing left: the next page is refused, with figures that are true.
    const next = await get(`/api/v1/signals?limit=20&cursor=${String(first.body.next_cursor)}`, k.key);
    expect([next.status, errorCode(next)]).toEqual([429, 'extraction_limit_reached']);
    expect((next.body.error as { details: unknown }).details).toEqual({ budget: 'signal', limit: 15, used: 15, remaining: 0, needed: 20 });
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
    // Naming the same Signals again costs nothing.
    expect((await get('/api/v1/signals?limit=15', k.key)).status).toBe(200);
  });

  it('concurrent pages never deliver more than the budget holds, and what is delivered is what is charged', async () => {
    const k = await orgWithKey(env, { plan: 'wide_windows' });
    const pages = await Promise.all(
      Array.from({ length: 10 }, (_, i) => get(`/api/v1/signals?limit=5&cursor=${Buffer.from(String(i * 5)).toString('base64url')}`, k.key)),
    );
    const delivered = new Set(pages.filter((p) => p.status === 200).flatMap((p) => (p.body.coverage as { entities: string[] }).entities));
    for (const p of pages.filter((p) => p.status !== 200)) expect(errorCode(p)).toBe('extraction_limit_reached');
    const charged = await redis.smembers(budgetKey(prefix, k.orgId, utcDay(Date.now()), 'signal'));
    expect(charged.length).toBeLessThanOrEqual(15);
    expect([...delivered].sort()).toEqual(charged.sort());
  });

  it('an answer that is not a page is refused whole, saying how much is left', async () => {
    const a = await orgWithKey(env, { plan: 'wide_windows' });
    for (let i = 0; i < 13; i++) expect((await get(`/api/v1/products/${pid(500 + i)}`, a.key)).status).toBe(200);
    const crossing = await get('/api/v1/products/compare', a.key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product_ids: [pid(600), pid(601), pid(602)] }),
    });
    expect([crossing.status, errorCode(crossing)]).toEqual([429, 'extraction_limit_reached']);
    expect((crossing.body.error as { details: unknown; message: string }).details).toEqual({ budget: 'product', limit: 15, used: 13, remaining: 2, needed: 3 });
    expect((crossing.body.error as { message: string }).message).toContain('only 2 of');
  });

  it('refusals spend nothing: a not_found answer charges no budget', async () => {
    const k = await orgWithKey(env, { plan: 'wide_windows' });
    const r = await get('/api/v1/products/prd_nf0000000001', k.key);
    expect([r.status, errorCode(r)]).toEqual([404, 'not_found']);
    expectLimitHeaders(r);
    expect(await redis.exists(budgetKey(prefix, k.orgId, utcDay(Date.now()), 'product'))).toBe(0);
  });
});
