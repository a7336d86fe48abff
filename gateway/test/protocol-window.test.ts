import { afterAll, describe, expect, it } from 'vitest';
import { isolationPrefix } from '@evidence-record/test-support/db';
import type { PlanLimits } from '../src/access/key-record';
import { protocolWindowKey } from '@evidence-record/access';
import { countProtocolMessages, protocolLimit, protocolMessagesIn, protocolRateLimitHeaders } from '../src/limits/protocol-window';
import { installScripts } from '../src/limits/scripts';
import { waitFor } from '@evidence-record/test-support/wait';
import { dropPrefix, redisClient } from './support/harness';

/** The MCP protocol window (docs/decisions/0605): what a POST counts, and the script against the real Redis. */
const plan = (minute: number): PlanLimits => ({
  planId: 'p',
  windows: { minute, hour: minute * 10, day: minute * 100 },
  budgets: { product: 1, signal: 1, ingredient: 1 },
  watchLimit: 0,
  capabilities: new Set(),
});
const body = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'record.version', arguments: {} } });

describe('what a POST to /mcp counts', () => {
  it('every message but the tools/call requests; a body that is not JSON or an empty batch is one', () => {
    expect(protocolMessagesIn(body({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).toBe(1);
    expect(protocolMessagesIn(body(call(1)))).toBe(0);
    expect(protocolMessagesIn(body([call(1), call(2)]))).toBe(0);
    expect(protocolMessagesIn(body([{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 1, method: 'ping' }, call(2)]))).toBe(2);
    // A tools/call without an id is a notification: nothing meters it downstream.
    expect(protocolMessagesIn(body({ jsonrpc: '2.0', method: 'tools/call', params: {} }))).toBe(1);
    expect(protocolMessagesIn(body('not json'))).toBe(1);
    expect(protocolMessagesIn(body([]))).toBe(1);
    expect(protocolMessagesIn(body('null'))).toBe(1);
  });

  it('allows twice the plan minute rate, free plan 60', () => {
    expect(protocolLimit(plan(30))).toBe(60);
    expect(protocolLimit(plan(120))).toBe(240);
  });
});

describe('the protocol window script', () => {
  const { redisPrefix } = isolationPrefix('gw-protocol-window');
  const redis = installScripts(redisClient());
  afterAll(async () => {
    await dropPrefix(redis, redisPrefix);
    redis.disconnect();
  });

  it('admits while the messages fit, counts nothing it refuses, and adds answered ones whatever the count', async () => {
    const p = plan(3); // limit 6
    const first = await countProtocolMessages(redis, redisPrefix, 'k1', p, 4, 'admit');
    expect([first.admitted, first.count, first.limit]).toEqual([true, 4, 6]);
    expect(first.resetMs).toBeGreaterThan(59_000);
    const tooMany = await countProtocolMessages(redis, redisPrefix, 'k1', p, 3, 'admit');
    expect([tooMany.admitted, tooMany.count]).toEqual([false, 4]);
    expect(protocolRateLimitHeaders(tooMany)).toMatchObject({ 'RateLimit-Limit': '6', 'RateLimit-Remaining': '2', 'RateLimit-Policy': 'minute' });
    expect(tooMany.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    const fits = await countProtocolMessages(redis, redisPrefix, 'k1', p, 2, 'admit');
    expect([fits.admitted, fits.count]).toEqual([true, 6]);
    const added = await countProtocolMessages(redis, redisPrefix, 'k1', p, 2, 'add');
    expect([added.admitted, added.count]).toEqual([true, 8]);
    expect(protocolRateLimitHeaders(added)['RateLimit-Remaining']).toBe('0');
    expect(await redis.pttl(protocolWindowKey(redisPrefix, 'k1'))).toBeGreaterThan(59_000);
    // Another key has its own window.
    expect((await countProtocolMessages(redis, redisPrefix, 'k2', p, 1, 'admit')).count).toBe(1);
  });

  it('opens a new window when the old one expires, and repairs a counter left without expiry', async () => {
    const key = protocolWindowKey(redisPrefix, 'k3');
    await redis.set(key, '100');
    const repaired = await countProtocolMessages(redis, redisPrefix, 'k3', plan(3), 1, 'admit');
    expect([repaired.admitted, repaired.count]).toEqual([true, 1]);
    expect(await redis.pttl(key)).toBeGreaterThan(59_000);
    await redis.pexpire(key, 1);
    await waitFor('the window to expire', async () => (await redis.exists(key)) === 0, 2_000, 5);
    const fresh = await countProtocolMessages(redis, redisPrefix, 'k3', plan(3), 6, 'admit');
    expect([fresh.admitted, fresh.count]).toEqual([true, 6]);
  });
});
