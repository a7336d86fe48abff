import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { budgetKey, utcDay } from '@evidence-record/access';
import { call, dropPrefix, errorCode, redisClient } from './support/harness';
import { waitFor } from '@evidence-record/test-support/wait';

const exec = promisify(execFile);

/**
 * End to end, as an operator and a client see it: the record, signals and
 * gateway services as separate processes over a clone of the demo Record,
 * and a key issued with `npm run -s admin -- key issue …`.
 */
let stack: RunningStack;

async function npmAdmin(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await exec('npm', ['run', '-s', 'admin', '--', ...args, '--json'], { env: { ...process.env, ...stack.env }, cwd: process.cwd() });
  const lines = stdout.trim().split('\n');
  expect(lines.length).toBe(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

beforeAll(async () => {
  stack = await startStack('gw-e2e', { services: ['record', 'signals', 'gateway'] });
}, 120_000);
afterAll(async () => {
  if (stack) {
    const redis = redisClient();
    await dropPrefix(redis, String(stack.env.REDIS_PREFIX));
    redis.disconnect();
  }
  await stack?.stop();
});

describe('a key issued by the CLI, driving capabilities through the gateway', () => {
  it('answers, meters, charges the budget and records usage; a revocation by the CLI takes effect', async () => {
    const org = await npmAdmin('org', 'create', '--name', 'E2E Research', '--plan', 'free');
    const orgId = String(org.org_id);
    const issued = await npmAdmin('key', 'issue', '--org', orgId, '--scopes', 'record:search,products:read,signals:read,framework:read', '--env', 'test', '--name', 'e2e');
    const key = String(issued.key);
    expect(key).toMatch(/^sk_test_[0-9a-z]{16}_[0-9A-Za-z]{32}$/);
    expect(issued.key_id).toBe(key.split('_')[2]);
    const base = stack.baseUrl;

    expect((await call(`${base}/api/v1/health`)).body.status).toBe('ok');

    const version = await call(`${base}/api/v1/record/version`, { key });
    expect(version.status).toBe(200);
    expect(version.body.capability).toBe('get_record_version');
    expect(version.body.record_version).toMatch(/^rv_\d{8}$/);
    expect(version.headers.get('ratelimit-remaining')).toBe('29');
    expect(version.headers.get('x-request-id')).toBe(version.body.request_id);

    const feed = await call(`${base}/api/v1/signals?limit=3`, { key });
    expect(feed.status).toBe(200);
    const signals = feed.body.signals as Array<{ signal_id: string; product: { product_id: string; name: string } }>;
    expect(signals.length).toBeGreaterThan(0);
    expect(feed.headers.get('x-budget-entities')).toBeNull();

    const explained = await call(`${base}/api/v1/signals/${signals[0]!.signal_id}`, { headers: { 'x-service-key': key } });
    expect(explained.status).toBe(200);
    const productId = signals[0]!.product.product_id;
    const product = await call(`${base}/api/v1/products/${productId}`, { key });
    expect(product.status).toBe(200);
    expect((product.body.product as { product_id: string }).product_id).toBe(productId);

    const resolved = await call(`${base}/api/v1/products/resolve`, {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-origin': 'mcp' },
      body: JSON.stringify({ identifier: signals[0]!.product.name }),
    });
    expect(resolved.status).toBe(200);
    expect(['supported', 'ambiguous']).toContain(resolved.body.status);

    const missing = await call(`${base}/api/v1/products/prd_zzzzzzzzzzzz`, { key });
    expect([missing.status, errorCode(missing)]).toEqual([404, 'not_found']);
    const unknownCapability = await call(`${base}/api/v1/products`, { key });
    expect([unknownCapability.status, errorCode(unknownCapability)]).toEqual([404, 'unsupported_capability']);

    // The organisation's product budget holds what the answers named.
    const redis = new Redis(String(stack.env.REDIS_URL));
    try {
      const named = await redis.smembers(budgetKey(String(stack.env.REDIS_PREFIX), orgId, utcDay(Date.now()), 'product'));
      expect(named).toContain(productId);
      expect(named.length).toBeLessThanOrEqual(15);
    } finally {
      redis.disconnect();
    }

    // Usage is recorded, batched, without a secret.
    const client = new pg.Client({ connectionString: stack.db.url });
    await client.connect();
    try {
      const rows = await waitFor('6 usage rows', async () => {
        const r = await client.query<{ capability: string; origin: string; http_status: number; entities_charged: number }>(
          'SELECT capability, origin, http_status, entities_charged FROM usage_log WHERE key_id = $1',
          [issued.key_id],
        );
        return r.rows.length >= 6 ? r.rows : null;
      }, 10_000, 25);
      expect(rows.find((r) => r.capability === 'resolve_product')?.origin).toBe('mcp');
      expect(rows.find((r) => r.capability === 'get_record_version')).toMatchObject({ http_status: 200, entities_charged: 0 });
      expect(rows.reduce((n, r) => n + r.entities_charged, 0)).toBeGreaterThan(0);
      const dump = JSON.stringify((await client.query('SELECT * FROM usage_log')).rows);
      expect(dump).not.toContain(key.split('_')[3]);
    } finally {
      await client.end();
    }

    // The operator revokes; the gateway process refuses within a second.
    const revoked = await npmAdmin('key', 'revoke', String(issued.key_id));
    expect(revoked.key_id).toBe(issued.key_id);
    const at = Date.now();
    const refused = await waitFor('the revoked key refused', async () => {
      const r = await call(`${base}/api/v1/record/version`, { key });
      return r.status === 401 ? r : null;
    }, 3000, 25);
    expect(Date.now() - at).toBeLessThan(1000);
    expect(errorCode(refused)).toBe('invalid_credentials');
  }, 60_000);
});
