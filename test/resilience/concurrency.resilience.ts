import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfServiceScopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures } from './support/figures';
import { send, type Reply } from './support/http';
import { customer, operator, query, type Customer } from './support/operator';
import { startReplica, type Replica } from './support/processes';

/**
 * Parallel requests against the limits, through one gateway and through two
 * gateway processes sharing the Redis prefix and the database (two
 * replicas): the free plan's minute window admits exactly 30 of 500, and an
 * organisation's daily product budget is spent exactly (15 distinct
 * products) by 100 parallel answers, none delivered past it.
 */
let stack: RunningStack;
let second: Replica;
let redis: Redis;
let productIds: string[];
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  stack = await startStack('res-concurrency', { services: ['record', 'gateway'] });
  second = await startReplica(stack, 'gateway');
  redis = new Redis(stack.env.REDIS_URL!);
  productIds = (await query<{ product_id: string }>(stack, 'SELECT product_id FROM products ORDER BY product_id')).map((r) => r.product_id);
}, 240_000);

afterAll(async () => {
  redis?.disconnect();
  await second?.stop();
  await stack?.stop();
});

async function windowCounts(keyId: string): Promise<number[]> {
  const tag = `${stack.env.REDIS_PREFIX}{k:${keyId}}`;
  return (await redis.mget(`${tag}:rl:minute`, `${tag}:rl:hour`, `${tag}:rl:day`)).map((v) => Number(v ?? 0));
}

function gatewayErrors(): string {
  return [...(stack.logs.get('gateway') ?? []), ...second.logs].filter((l) => l.includes('"level":50')).slice(-3).join('\n');
}

/**
 * The window's guarantees for a burst on one key. Exactly `limit` answers are delivered, each with its
 * own place in the window; every other request is refused 429 rate_limited — or, when a starved machine
 * keeps a gateway from hearing Redis within its 1 s command deadline, 500 internal_error: the gateway
 * fails closed rather than answer unmetered (docs/reliability.md). Returns how many failed closed.
 */
async function expectRateWindowOutcome(replies: Reply[], limit: number, keyId: string): Promise<number> {
  expect(replies.every((r) => r.transportError === null)).toBe(true);
  const admitted = replies.filter((r) => r.status === 200);
  const refused = replies.filter((r) => r.status === 429);
  const failedClosed = replies.filter((r) => r.status !== 200 && r.status !== 429);
  for (const r of failedClosed) {
    expect([r.status, r.code], gatewayErrors()).toEqual([500, 'internal_error']);
    expect(r.requestId).toMatch(/^req_[0-9a-f]{24}$/);
  }
  // Redis never counts past the limit, whatever the gateways heard back.
  expect(await windowCounts(keyId)).toEqual([limit, limit, limit]);
  if (failedClosed.length === 0) expect(admitted).toHaveLength(limit);
  else expect(admitted.length).toBeLessThanOrEqual(limit);
  for (const r of refused) {
    expect(r.code).toBe('rate_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.headers['ratelimit-remaining']).toBe('0');
  }
  for (const r of [...admitted, ...refused]) {
    expect(r.headers['ratelimit-limit']).toBe(String(limit));
    expect(r.headers['ratelimit-policy']).toBe('minute');
    const remaining = Number(r.headers['ratelimit-remaining']);
    expect(Number.isInteger(remaining) && remaining >= 0).toBe(true);
    const reset = Number(r.headers['ratelimit-reset']);
    expect(reset >= 0 && reset <= 60).toBe(true);
  }
  // Each admission has its own place in the window: 29, 28, … 0, each once.
  const remaining = admitted.map((r) => Number(r.headers['ratelimit-remaining']));
  expect(new Set(remaining).size).toBe(remaining.length);
  if (failedClosed.length === 0) expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
  return failedClosed.length;
}

async function budgetBurst(gateways: string[], keys: Customer[]) {
  // 100 requests naming one product each, over all products, spread over four keys of one organisation
  // (25 per key: inside each key's minute window, so only the shared budget can refuse).
  const shapes = ['', '/history', '/serving-economics'];
  const requests = Array.from({ length: 100 }, (_, i) => ({ productId: productIds[i % productIds.length]!, suffix: shapes[Math.floor(i / productIds.length)]! }));
  return Promise.all(
    requests.map((r, i) => send(gateways[i % gateways.length]!, 'GET', `/api/v1/products/${r.productId}${r.suffix}`, { key: keys[i % keys.length]!.key, timeoutMs: 60_000 }).then((reply) => ({ ...reply, productId: r.productId }))),
  );
}

/**
 * The budget's guarantees for a burst: the organisation's set of spent products holds exactly the
 * budget; every answer delivered names a product in it; every refusal is extraction_limit_reached for a
 * product outside it (or, on a starved machine, a fail-closed 500 internal_error, as above).
 */
async function expectBudgetSpentExactly(replies: Array<Reply & { productId: string }>, orgId: string, budget: number) {
  expect(replies.every((r) => r.transportError === null)).toBe(true);
  const delivered = replies.filter((r) => r.status === 200);
  const refused = replies.filter((r) => r.status === 429);
  const failedClosed = replies.filter((r) => r.status !== 200 && r.status !== 429);
  for (const r of failedClosed) expect([r.status, r.code], gatewayErrors()).toEqual([500, 'internal_error']);
  for (const r of refused) {
    expect(r.code, r.text.slice(0, 160)).toBe('extraction_limit_reached');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.body.product).toBeUndefined();
  }
  const spent = new Set(await redis.smembers(`${stack.env.REDIS_PREFIX}{o:${orgId}}:budget:${today()}:product`));
  expect(spent.size).toBe(budget);
  const named = new Set(delivered.map((r) => r.body.product?.product_id as string));
  for (const r of delivered) {
    expect(r.body.product.product_id).toBe(r.productId);
    expect(spent.has(r.productId)).toBe(true);
  }
  for (const r of refused) expect(spent.has(r.productId)).toBe(false);
  if (failedClosed.length === 0) expect(named).toEqual(spent);
  return { delivered: delivered.length, refused: refused.length, distinct: named.size, failed_closed: failedClosed.length, ...(failedClosed.length ? { gateway_errors: gatewayErrors() } : {}) };
}

async function orgWithKeys(n: number): Promise<Customer[]> {
  const first = await customer(stack, { plan: 'free', scopes: selfServiceScopes });
  const rest = [];
  for (let i = 1; i < n; i++) {
    const issued = await operator(stack, 'key', 'issue', '--org', first.orgId, '--scopes', selfServiceScopes.join(','), '--env', 'test');
    rest.push({ ...first, key: String(issued.key), keyId: String(issued.key_id) });
  }
  return [first, ...rest];
}

describe('one gateway', () => {
  it('admits exactly 30 of 500 parallel requests on one free key, with consistent RateLimit headers', async () => {
    const k = await customer(stack, { plan: 'free', scopes: selfServiceScopes });
    const replies = await Promise.all(Array.from({ length: 500 }, () => send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key, timeoutMs: 60_000 })));
    // Refused requests are counted nowhere: every window holds exactly the admissions.
    const failedClosed = await expectRateWindowOutcome(replies, 30, k.keyId);
    await recordFigures('concurrency-rate-one-gateway', { requests: 500, admitted: replies.filter((r) => r.status === 200).length, refused: replies.filter((r) => r.status === 429).length, failed_closed: failedClosed, ...(failedClosed ? { gateway_errors: gatewayErrors() } : {}) });
  });

  it('spends exactly the 15-product budget over 100 parallel answers naming distinct products, delivering none past it', async () => {
    const keys = await orgWithKeys(4);
    const figures = await expectBudgetSpentExactly(await budgetBurst([stack.baseUrl], keys), keys[0]!.orgId, 15);
    await recordFigures('concurrency-budget-one-gateway', { requests: 100, ...figures });
  });
});

describe('two gateway processes on one Redis prefix and database', () => {
  it('admit exactly 30 of 500 parallel requests split between them', async () => {
    const k = await customer(stack, { plan: 'free', scopes: selfServiceScopes });
    const gateways = [stack.baseUrl, second.url];
    // Both replicas hold the key before the burst (a refusal for scope counts in no window), so neither starts behind.
    for (const g of gateways) expect((await send(g, 'GET', '/api/v1/ledger', { key: k.key })).code).toBe('insufficient_scope');
    const replies = await Promise.all(Array.from({ length: 500 }, (_, i) => send(gateways[i % 2]!, 'GET', '/api/v1/record/version', { key: k.key, timeoutMs: 60_000 })));
    const failedClosed = await expectRateWindowOutcome(replies, 30, k.keyId);
    const admittedBy = gateways.map((_, g) => replies.filter((r, i) => i % 2 === g && r.status === 200).length);
    await recordFigures('concurrency-rate-two-gateways', { requests: 500, admitted: admittedBy[0]! + admittedBy[1]!, admitted_by_each_gateway: admittedBy, failed_closed: failedClosed, ...(failedClosed ? { gateway_errors: gatewayErrors() } : {}) });
  });

  it('spend exactly the budget over 100 parallel answers split between them', async () => {
    const keys = await orgWithKeys(4);
    const figures = await expectBudgetSpentExactly(await budgetBurst([stack.baseUrl, second.url], keys), keys[0]!.orgId, 15);
    await recordFigures('concurrency-budget-two-gateways', { requests: 100, ...figures });
  });
});
