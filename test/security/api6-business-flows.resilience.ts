import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfServiceScopes } from '@evidence-record/contract';
import { coolDownKey } from '@evidence-record/access';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { cli, customer, query, type Customer } from '../resilience/support/operator';

/**
 * OWASP API6:2023 Unrestricted Access to Sensitive Business Flows. The
 * sensitive flow here is copying the Record by iterating over it. The
 * gateway process runs its default scoring policy (docs/extraction-scoring.md):
 * enumerating product ids, sweeping names, and tiling date windows are
 * scored and paused; a key that keeps going is suspended, the operator sees
 * why and lifts it; following the feed as documented, and asking the same
 * thing again, never scores.
 */
let stack: RunningStack;
let redis: Redis;
let productIds: string[];

beforeAll(async () => {
  stack = await startStack('sec-api6', { services: ['record', 'signals', 'gateway'] });
  redis = new Redis(stack.env.REDIS_URL!);
  productIds = (await query<{ id: string }>(stack, 'SELECT product_id AS id FROM products ORDER BY 1')).map((r) => r.id);
}, 240_000);

afterAll(async () => {
  redis?.disconnect();
  await stack?.stop();
});

const key = () => customer(stack, { plan: 'demo', scopes: selfServiceScopes });
/** The cool-down lasts ten minutes; the test lets them pass by ending it (what its expiry does). */
const tenMinutesLater = (k: Customer) => redis.del(coolDownKey(stack.env.REDIS_PREFIX!, k.keyId));

async function keyShow(k: Customer) {
  const run = await cli(stack, 'key', 'show', k.keyId);
  expect(run.exitCode).toBe(0);
  return run.json as { key: { status: string; suspended_reason: string | null }; extraction: { score: number; cool_down: unknown } | null; recent_events: Array<{ kind: string; detail: Record<string, unknown> }> };
}

describe('API6 business-flow abuse: copying the Record', () => {
  it('pauses, then suspends a key enumerating product ids; the operator sees why and lifts it', async () => {
    const k = await key();
    let probe = 0;
    const next = () => send(stack.baseUrl, 'GET', `/api/v1/products/prd_${(probe++).toString(36).padStart(12, '0')}`, { key: k.key });
    const seen: string[] = [];
    for (let round = 0; round < 40 && !seen.includes('key_suspended'); round++) {
      const r = await next();
      seen.push(r.code ?? String(r.status));
      if (r.code === 'extraction_pattern_refused') {
        // Paused for everything while cooling down, a real product included.
        const paused = await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[0]}`, { key: k.key });
        expect(paused.code, `${paused.status} ${paused.text.slice(0, 200)} ${paused.transportError ?? ''}`).toBe('extraction_pattern_refused');
        await tenMinutesLater(k);
      }
    }
    expect(seen).toContain('not_found');
    expect(seen).toContain('extraction_pattern_refused');
    expect(seen.at(-1)).toBe('key_suspended');
    expect((await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[0]}`, { key: k.key })).code).toBe('key_suspended');

    const shown = await keyShow(k);
    expect(shown.key.status).toBe('suspended');
    expect(shown.key.suspended_reason).toMatch(/extraction pattern/);
    expect(shown.key.suspended_reason).toMatch(/not_found|patterned/);
    expect(shown.recent_events.some((e) => /suspend/.test(e.kind))).toBe(true);

    const lifted = await cli(stack, 'key', 'unsuspend', k.keyId, '--note', 'talked to the customer');
    expect(lifted.exitCode).toBe(0);
    expect(lifted.json.previous_reason).toMatch(/extraction pattern/);
    const back = await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[0]}`, { key: k.key });
    expect(back.status, back.text.slice(0, 200)).toBe(200);
    expect((await keyShow(k)).extraction?.score ?? 0).toBe(0);
  });

  it('pauses a key sweeping names through resolve', async () => {
    const k = await key();
    const codes: string[] = [];
    for (let i = 0; i < 120 && !codes.includes('extraction_pattern_refused'); i++) {
      const r = await send(stack.baseUrl, 'POST', '/api/v1/products/resolve', { key: k.key, body: { identifier: `sweep name ${i}` } });
      codes.push(r.code ?? String(r.status));
    }
    expect(codes.slice(0, 40).every((c) => c === '200')).toBe(true);
    expect(codes.at(-1)).toBe('extraction_pattern_refused');
    expect((await keyShow(k)).extraction?.cool_down).toBeTruthy();
  });

  it('pauses a key tiling date windows over the category snapshot', async () => {
    const k = await key();
    const codes: string[] = [];
    const start = Date.UTC(2024, 0, 1);
    for (let i = 0; i < 60 && !codes.includes('extraction_pattern_refused'); i++) {
      const from = new Date(start + i * 7 * 86_400_000).toISOString().slice(0, 10);
      const to = new Date(start + (i * 7 + 6) * 86_400_000).toISOString().slice(0, 10);
      const r = await send(stack.baseUrl, 'GET', `/api/v1/category/snapshot?from=${from}&to=${to}`, { key: k.key });
      codes.push(r.code ?? String(r.status));
    }
    expect(codes.slice(0, 12).every((c) => c === '200')).toBe(true);
    expect(codes.at(-1)).toBe('extraction_pattern_refused');
  });

  it('never scores a documented feed follower or repeated lookups', async () => {
    const k = await key();
    // The documented poller: follow next_cursor with the same query until null, then store the newest
    // released_at seen and pass it as since on the next run.
    let since: string | null = null;
    for (let poll = 0; poll < 40; poll++) {
      let cursor: string | null = null;
      let newest: string | null = since;
      do {
        const params = new URLSearchParams({ limit: '25', ...(since ? { since } : {}), ...(cursor ? { cursor } : {}) });
        const r = await send(stack.baseUrl, 'GET', `/api/v1/signals?${params}`, { key: k.key });
        expect(r.status, r.text.slice(0, 200)).toBe(200);
        for (const s of r.body.signals as Array<{ review: { released_at: string } }>) if (!newest || s.review.released_at > newest) newest = s.review.released_at;
        cursor = r.body.next_cursor ?? null;
      } while (cursor);
      since = newest;
    }
    for (let i = 0; i < 40; i++) {
      expect((await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[i % 3]}`, { key: k.key })).status).toBe(200);
      expect((await send(stack.baseUrl, 'POST', '/api/v1/products/resolve', { key: k.key, body: { identifier: 'IV Surge' } })).status).toBe(200);
      expect((await send(stack.baseUrl, 'GET', '/api/v1/category/snapshot', { key: k.key })).status).toBe(200);
    }
    const shown = await keyShow(k);
    expect(shown.key.status).toBe('active');
    expect(shown.extraction?.score ?? 0).toBe(0);
    expect(shown.extraction?.cool_down ?? null).toBeNull();
  });
});
