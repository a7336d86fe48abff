import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SEARCH_RESULT_CAP, selfServiceScopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, query } from '../resilience/support/operator';

/**
 * OWASP API4:2023 Unrestricted Resource Consumption. Each limit of the spec
 * holds on the running stack: the 8192-byte body (also chunked, also a
 * Content-Length that is never sent), every string, array and page limit,
 * the capped snapshot window, the search cap, the free plan's minute
 * window, the daily distinct-entity budgets of all three kinds, and the
 * extraction score pausing a key that probes ids.
 */
let stack: RunningStack;
let productIds: string[];
let signalIds: string[];
let ingredientIds: string[];

beforeAll(async () => {
  stack = await startStack('sec-api4', { services: ['record', 'signals', 'gateway'] });
  productIds = (await query<{ id: string }>(stack, 'SELECT product_id AS id FROM products ORDER BY 1')).map((r) => r.id);
  signalIds = (await query<{ id: string }>(stack, 'SELECT signal_id AS id FROM signals WHERE released_on IS NOT NULL ORDER BY 1')).map((r) => r.id);
  ingredientIds = (await query<{ id: string }>(stack, 'SELECT ingredient_id AS id FROM ingredients ORDER BY 1')).map((r) => r.id);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const freeKey = () => customer(stack, { plan: 'free', scopes: selfServiceScopes });
const demoKey = () => customer(stack, { plan: 'demo', scopes: selfServiceScopes });

/** Sends raw bytes and returns what comes back within `ms` (the socket is then closed). */
function rawExchange(port: number, data: string, ms: number): Promise<{ text: string; elapsedMs: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const done = () => resolve({ text, elapsedMs: performance.now() - started });
    socket.on('data', (d) => {
      text += d.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(text)) socket.destroy();
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.write(data);
    setTimeout(() => socket.destroy(), ms);
  });
}

describe('API4 unrestricted resource consumption', () => {
  it('takes a body of exactly 8192 bytes and refuses 8193, declared, chunked or never sent', async () => {
    const k = await demoKey();
    const exact = `{"query":"citrulline"}${' '.repeat(8192 - 22)}`;
    expect(Buffer.byteLength(exact)).toBe(8192);
    expect((await send(stack.baseUrl, 'POST', '/api/v1/record/search', { key: k.key, body: exact })).status).toBe(200);
    const over = `${exact} `;
    for (const chunked of [false, true]) {
      const r = await send(stack.baseUrl, 'POST', '/api/v1/record/search', { key: k.key, body: over, chunked });
      expect([r.status, r.code], `chunked=${chunked}`).toEqual([413, 'payload_too_large']);
    }
    const huge = await send(stack.baseUrl, 'POST', '/api/v1/record/search', { key: k.key, body: JSON.stringify({ query: 'x'.repeat(1_000_000) }) });
    expect([huge.status, huge.code]).toEqual([413, 'payload_too_large']);
    // A declared gigabyte that never comes is refused at once, not waited for.
    const { text, elapsedMs } = await rawExchange(
      stack.ports.gateway,
      `POST /api/v1/record/search HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${k.key}\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{"query":`,
      5000,
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain('"payload_too_large"');
    expect(elapsedMs).toBeLessThan(3000);
  });

  it('refuses every string, array and page past its limit, and caps windows and result sets', async () => {
    const k = await demoKey();
    const expectRefused = async (method: string, path: string, body: unknown, field: string) => {
      const r = await send(stack.baseUrl, method, path, { key: k.key, ...(body === undefined ? {} : { body }) });
      expect([r.status, r.code], `${path} ${field}: ${r.text.slice(0, 160)}`).toEqual([400, 'invalid_request']);
      expect(r.body.error.details.field, path).toBe(field);
    };
    const ok = async (method: string, path: string, body?: unknown) => {
      const r = await send(stack.baseUrl, method, path, { key: k.key, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${path}: ${r.text.slice(0, 160)}`).toBe(200);
      return r;
    };
    await ok('POST', '/api/v1/record/search', { query: 'c'.repeat(300) });
    await expectRefused('POST', '/api/v1/record/search', { query: 'c'.repeat(301) }, 'query');
    await ok('POST', '/api/v1/products/resolve', { identifier: 'i'.repeat(120) });
    await expectRefused('POST', '/api/v1/products/resolve', { identifier: 'i'.repeat(121) }, 'identifier');
    await expectRefused('POST', '/api/v1/products/compare', { product_ids: productIds.slice(0, 1) }, 'product_ids');
    await expectRefused('POST', '/api/v1/products/compare', { product_ids: productIds.slice(0, 4) }, 'product_ids');
    await expectRefused('POST', '/api/v1/research/context', { ingredient_ids: ingredientIds.slice(0, 6) }, 'ingredient_ids');
    await expectRefused('POST', '/api/v1/regulatory/context', { ingredient_ids: ingredientIds.slice(0, 6) }, 'ingredient_ids');
    await expectRefused('GET', `/api/v1/signals?limit=${MAX_PAGE_SIZE + 1}`, undefined, 'limit');
    await expectRefused('GET', `/api/v1/category/snapshot?limit=${MAX_PAGE_SIZE + 1}`, undefined, 'limit');
    await expectRefused('GET', '/api/v1/signals?cursor=' + 'c'.repeat(513), undefined, 'cursor');
    await expectRefused('GET', '/api/v1/category/snapshot?from=2026-01-01&to=2026-12-31', undefined, 'from');
    await ok('GET', '/api/v1/category/snapshot?from=2026-08-23&to=2026-11-22');

    const page = await ok('GET', `/api/v1/signals?limit=${MAX_PAGE_SIZE}`);
    expect(page.body.signals.length).toBeLessThanOrEqual(MAX_PAGE_SIZE);
    expect((await ok('GET', '/api/v1/signals')).body.signals.length).toBeLessThanOrEqual(DEFAULT_PAGE_SIZE);
    for (const q of ['pre workout', 'caffeine', 'a']) expect(((await ok('POST', '/api/v1/record/search', { query: q })).body.products ?? []).length).toBeLessThanOrEqual(SEARCH_RESULT_CAP);

    // Deeply nested JSON inside the size limit is refused quickly, not parsed at length.
    const started = performance.now();
    const deep = await send(stack.baseUrl, 'POST', '/api/v1/record/search', { key: k.key, body: `{"query":${'['.repeat(4000)}${']'.repeat(4000)}}` });
    expect([deep.status, deep.code]).toEqual([400, 'invalid_request']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('holds the free plan to 30 requests a minute per key', async () => {
    const k = await freeKey();
    for (let i = 0; i < 30; i++) {
      const r = await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key });
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-remaining']).toBe(String(29 - i));
    }
    const refused = await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key });
    expect([refused.status, refused.code]).toEqual([429, 'rate_limited']);
    expect(refused.headers['ratelimit-policy']).toBe('minute');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter >= 1 && retryAfter <= 60).toBe(true);
    // Another key of the same organisation has its own windows.
    expect((await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: (await freeKey()).key })).status).toBe(200);
  });

  it('spends each daily budget once per distinct entity and refuses the answer that would cross it', async () => {
    const secondsToMidnight = () => Math.ceil((Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000);
    // Products: 15.
    const p = await freeKey();
    for (const id of productIds.slice(0, 15)) expect((await send(stack.baseUrl, 'GET', `/api/v1/products/${id}`, { key: p.key })).status).toBe(200);
    const over = await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[15]}`, { key: p.key });
    expect([over.status, over.code]).toEqual([429, 'extraction_limit_reached']);
    expect(over.body.product).toBeUndefined();
    expect(Math.abs(Number(over.headers['retry-after']) - secondsToMidnight())).toBeLessThan(30);
    // Naming an already counted product again costs nothing; the version costs nothing at all.
    expect((await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[3]}/history`, { key: p.key })).status).toBe(200);
    expect((await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: p.key })).status).toBe(200);
    // Signals: 15.
    const s = await freeKey();
    for (const id of signalIds.slice(0, 15)) expect((await send(stack.baseUrl, 'GET', `/api/v1/signals/${id}`, { key: s.key })).status).toBe(200);
    expect((await send(stack.baseUrl, 'GET', `/api/v1/signals/${signalIds[15]}`, { key: s.key })).code).toBe('extraction_limit_reached');
    // Ingredients: 25, five at a time.
    const g = await freeKey();
    for (let i = 0; i < 25; i += 5) expect((await send(stack.baseUrl, 'POST', '/api/v1/research/context', { key: g.key, body: { ingredient_ids: ingredientIds.slice(i, i + 5) } })).status).toBe(200);
    expect((await send(stack.baseUrl, 'POST', '/api/v1/research/context', { key: g.key, body: { ingredient_ids: ingredientIds.slice(25, 27) } })).code).toBe('extraction_limit_reached');
  });

  it('pauses a key whose requests probe for ids (extraction score)', async () => {
    const k = await demoKey();
    const codes: string[] = [];
    for (let i = 0; i < 20 && !codes.includes('extraction_pattern_refused'); i++) {
      const r = await send(stack.baseUrl, 'GET', `/api/v1/products/prd_probe${String(i).padStart(7, '0')}`, { key: k.key });
      codes.push(r.code ?? String(r.status));
    }
    expect(codes[0]).toBe('not_found');
    expect(codes.at(-1)).toBe('extraction_pattern_refused');
    // Paused for everything, real products included, with a Retry-After.
    const paused = await send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[0]}`, { key: k.key });
    expect([paused.status, paused.code]).toEqual([429, 'extraction_pattern_refused']);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(60);
  });
});
