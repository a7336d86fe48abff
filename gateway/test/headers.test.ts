import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayBed, type GatewayBed } from './support/bed';
import { call, errorCode, orgWithKey, type Call, type IssuedKey, type RunningGateway } from './support/harness';

/**
 * Issue 18's audit: RateLimit-* on every response made with a valid key,
 * refusals included, and X-Request-Id on every response
 * (docs/decisions/0310-headers-on-every-response.md).
 */
let bed: GatewayBed;
let gw: RunningGateway;
let free: IssuedKey;
let narrow: IssuedKey;

beforeAll(async () => {
  bed = await gatewayBed('gw-headers');
  ({ gw } = bed);
  free = await orgWithKey(bed.env);
  narrow = await orgWithKey(bed.env, { scopes: 'framework:read' });
});
afterAll(() => bed?.close());

const requestId = /^req_[0-9a-f]{24}$/;

function expectWindows(r: Call, label: string): void {
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(r.headers.get(h), `${label}: ${h}`).toMatch(/^\d+$/);
  expect(['minute', 'hour', 'day'], label).toContain(r.headers.get('ratelimit-policy'));
  expect(r.headers.get('x-request-id'), label).toMatch(requestId);
  if (r.body.request_id) expect(r.headers.get('x-request-id'), label).toBe(r.body.request_id);
}

function expectNoWindows(r: Call, label: string): void {
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) expect(r.headers.get(h), `${label}: ${h}`).toBeNull();
  expect(r.headers.get('x-request-id'), label).toMatch(requestId);
}

describe('a request made with a valid key reports its windows, whatever the answer', () => {
  it.each([
    ['keyed 404 unsupported_capability', 'GET', '/api/v1/export', undefined, 404, 'unsupported_capability'],
    ['keyed 404 outside /api/v1', 'GET', '/records.csv', undefined, 404, 'unsupported_capability'],
    ['405 wrong method', 'DELETE', '/api/v1/record/version', undefined, 405, 'method_not_allowed'],
    ['405 OPTIONS preflight', 'OPTIONS', '/api/v1/signals', undefined, 405, 'method_not_allowed'],
    ['405 on health', 'POST', '/api/v1/health', undefined, 405, 'method_not_allowed'],
    ['400 invalid_request', 'GET', '/api/v1/signals?limit=99', undefined, 400, 'invalid_request'],
    ['413 payload_too_large', 'POST', '/api/v1/record/search', JSON.stringify({ query: 'x'.repeat(9000) }), 413, 'payload_too_large'],
    ['404 not_found from the service', 'GET', '/api/v1/products/prd_nf0000000000', undefined, 404, 'not_found'],
    ['200 answer', 'GET', '/api/v1/record/version', undefined, 200, undefined],
  ])('%s', async (label, method, path, body, status, code) => {
    const r = await call(`${gw.url}${path}`, { method, key: free.key, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
    expect([r.status, errorCode(r)], r.text.slice(0, 200)).toEqual([status, code]);
    expectWindows(r, label);
  });

  it('403 insufficient_scope and the MCP endpoint report them too', async () => {
    const scope = await call(`${gw.url}/api/v1/signals`, { key: narrow.key });
    expect([scope.status, errorCode(scope)]).toEqual([403, 'insufficient_scope']);
    expectWindows(scope, '403');
    const mcp = await call(`${gw.url}/mcp`, {
      method: 'POST',
      key: free.key,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    expectWindows(mcp, 'mcp');
  });

  it('a path refusal reads the windows without counting them, and its code never depends on the key', async () => {
    const before = await call(`${gw.url}/api/v1/export`, { key: free.key });
    const after = await call(`${gw.url}/api/v1/export`, { key: free.key });
    expect(after.headers.get('ratelimit-remaining')).toBe(before.headers.get('ratelimit-remaining'));
    const bad = await call(`${gw.url}/api/v1/export`, { key: `${free.key.slice(0, -2)}xx` });
    expect([bad.status, errorCode(bad)]).toEqual([404, 'unsupported_capability']);
    expectNoWindows(bad, 'bad key on a 404');
  });
});

describe('responses without a key', () => {
  it('401 carries a request id and no windows (there is no key to report on)', async () => {
    const r = await call(`${gw.url}/api/v1/signals`, {});
    expect([r.status, errorCode(r)]).toEqual([401, 'invalid_credentials']);
    expectNoWindows(r, '401');
    expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
  });

  it.each(['/api/v1/health', '/api/v1/openapi.json', '/healthz', '/readyz', '/metrics'])('%s carries X-Request-Id', async (path) => {
    const r = await call(`${gw.url}${path}`, {});
    expect(r.status).toBe(200);
    expectNoWindows(r, path);
  });

  it('each response has its own request id', async () => {
    const a = await call(`${gw.url}/api/v1/health`, {});
    const b = await call(`${gw.url}/api/v1/health`, {});
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});
