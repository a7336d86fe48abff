import http from 'node:http';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODOLOGY_VERSION, buildAnswer, requestIdPattern, selfServiceScopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, type Customer } from '../resilience/support/operator';
import { startReplica, type Replica } from '../resilience/support/processes';

/**
 * OWASP API10:2023 Unsafe Consumption of APIs. What the gateway consumes
 * is its upstream services' answers; it vouches for none it has not
 * checked. A gateway process is pointed at a fake record service that
 * answers wrongly in every way that matters: the client gets 500
 * internal_error with the gateway's own request id, none of the upstream's
 * bytes, and no budget is charged. A well-formed fake answer passes, so
 * the refusals are about the answers, not the fake.
 */
let stack: RunningStack;
let gateway: Replica;
let fake: http.Server;
let canary: net.Server;
let canaryHits = 0;
let caller: Customer;
let redis: Redis;
let mode = 'valid';
const MARKER = 'UPSTREAM-MARKER-7d1f';

const record = { record_version: 'rv_00000001', record_as_of: '2026-11-21', record_timestamp: '2026-11-21T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };
/** An answer envelope as a record service would build it, for this request. */
function envelope(requestId: string) {
  return buildAnswer({ request_id: requestId, capability: 'get_product_record', status: 'supported', summary: `A product record (${MARKER}).`, record, confidence: { level: 'high', basis: MARKER } });
}

beforeAll(async () => {
  canary = net.createServer((s) => {
    canaryHits++;
    s.destroy();
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', () => r()));
  const canaryPort = (canary.address() as net.AddressInfo).port;
  fake = http.createServer((req, res) => {
    const requestId = String(req.headers['x-request-id'] ?? '');
    const productId = (req.url ?? '').split('/').pop() ?? '';
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    switch (mode) {
      case 'valid':
        return json(200, envelope(requestId), { 'x-budget-entities': productId });
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(`<html><body>${MARKER}</body></html>`);
      case 'truncated-json':
        res.writeHead(200, { 'content-type': 'application/json', 'x-budget-entities': productId });
        return res.end(JSON.stringify(envelope(requestId)).slice(0, 200));
      case 'json-array':
        return json(200, [MARKER], { 'x-budget-entities': productId });
      case 'wrong-request-id':
        return json(200, envelope('req_000000000000000000000000'), { 'x-budget-entities': productId });
      case 'no-request-id':
        return json(200, { ...envelope(requestId), request_id: undefined }, { 'x-budget-entities': productId });
      case 'other-capability':
        return json(200, { ...envelope(requestId), capability: 'get_ledger_edition' }, { 'x-budget-entities': productId });
      case 'invalid-status':
        return json(200, { ...envelope(requestId), status: 'approved' }, { 'x-budget-entities': productId });
      case 'no-entities-header':
        return json(200, envelope(requestId));
      case 'too-many-entities':
        return json(200, envelope(requestId), { 'x-budget-entities': Array.from({ length: 501 }, (_, i) => `prd_${String(i).padStart(12, '0')}`).join(',') });
      case 'oversized':
        res.writeHead(200, { 'content-type': 'application/json', 'x-budget-entities': productId });
        return res.end(JSON.stringify({ ...envelope(requestId), padding: MARKER.repeat(400_000) }));
      case 'refusal-status-mismatch':
        return json(404, { request_id: requestId, capability: 'get_product_record', status: 'refused', error: { code: 'rate_limited', message: MARKER, details: {}, documentation: '' }, limitations: [], record_version: 'rv_1', disclaimer: 'x' });
      case 'undocumented-code':
        return json(418, { request_id: requestId, capability: 'get_product_record', status: 'refused', error: { code: 'teapot', message: MARKER, details: {}, documentation: '' }, limitations: [], record_version: 'rv_1', disclaimer: 'x' });
      case 'bare-502':
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end(`<h1>Bad gateway ${MARKER}</h1>`);
      case 'redirect':
        res.writeHead(302, { location: `http://127.0.0.1:${canaryPort}/steal` });
        return res.end();
      case 'slow':
        setTimeout(() => json(200, envelope(requestId), { 'x-budget-entities': productId }), 6000);
        return;
      case 'reset-mid-body':
        res.writeHead(200, { 'content-type': 'application/json', 'x-budget-entities': productId, 'content-length': '100000' });
        res.write(`{"request_id":"${requestId}","summary":"${MARKER}`);
        setTimeout(() => res.socket?.destroy(), 50);
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  stack = await startStack('sec-api10', { services: ['record', 'gateway'] });
  gateway = await startReplica(stack, 'gateway', { RECORD_URL: `http://127.0.0.1:${(fake.address() as net.AddressInfo).port}`, UPSTREAM_TIMEOUT_MS: '1500' });
  caller = await customer(stack, { plan: 'free', scopes: selfServiceScopes });
  redis = new Redis(stack.env.REDIS_URL!);
}, 240_000);

afterAll(async () => {
  redis?.disconnect();
  await gateway?.stop();
  await stack?.stop();
  fake?.closeAllConnections();
  await new Promise<void>((r) => (fake ? fake.close(() => r()) : r()));
  await new Promise<void>((r) => (canary ? canary.close(() => r()) : r()));
});

const budgetKey = () => `${stack.env.REDIS_PREFIX}{o:${caller.orgId}}:budget:${new Date().toISOString().slice(0, 10)}:product`;

describe('API10 unsafe consumption of upstream answers', () => {
  it('passes a well-formed upstream answer and charges its product', async () => {
    mode = 'valid';
    const r = await send(gateway.url, 'GET', '/api/v1/products/prd_000000000001', { key: caller.key });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(r.requestId).toBe(r.headers['x-request-id']);
    expect(await redis.smembers(budgetKey())).toEqual(['prd_000000000001']);
  });

  it.each([
    'not-json', 'truncated-json', 'json-array', 'wrong-request-id', 'no-request-id', 'other-capability', 'invalid-status', 'no-entities-header', 'too-many-entities',
    'oversized', 'refusal-status-mismatch', 'undocumented-code', 'bare-502', 'redirect', 'slow', 'reset-mid-body',
  ])('withholds an upstream answer that is %s: 500 internal_error, nothing passed on, nothing charged', async (m) => {
    mode = m;
    const before = await redis.smembers(budgetKey());
    const r = await send(gateway.url, 'GET', `/api/v1/products/prd_${m.replace(/[^a-z]/g, '').slice(0, 12).padEnd(12, 'x')}`, { key: caller.key, timeoutMs: 20_000 });
    expect([r.status, r.code], r.text.slice(0, 200)).toEqual([500, 'internal_error']);
    expect(r.requestId).toMatch(requestIdPattern);
    expect(r.headers['x-request-id']).toBe(r.requestId);
    expect(r.requestId).not.toBe('req_000000000000000000000000');
    expect(r.text.includes(MARKER)).toBe(false);
    expect(r.headers['x-budget-entities']).toBeUndefined();
    expect(r.headers.location).toBeUndefined();
    expect(r.ms).toBeLessThan(5000);
    expect(await redis.smembers(budgetKey())).toEqual(before);
  });

  it('never followed the redirect', () => {
    expect(canaryHits).toBe(0);
  });
});
