import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '@evidence-record/contract';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { freePort } from '@evidence-record/test-support/stack';
import { call, dropPrefix, errorCode, gatewayConfig, redisClient, orgWithKey, startGateway, type Call, type IssuedKey, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

/**
 * What the gateway refuses by itself (paths, methods, bodies, arguments,
 * headers), what it never sends (CORS grants, internal headers), and how it
 * answers when an upstream is down, slow or broken.
 */
let db: TestDatabase;
let up: FakeUpstreams;
let gw: RunningGateway;
let k: IssuedKey;
let env: { DATABASE_URL: string; REDIS_PREFIX: string };
const responses: Call[] = [];

let broken: http.Server;
let brokenUrl: string;
let deadUrl: string;
const behaviour: { mode: 'slow' | 'not_json' | 'wrong_id' | 'other_capability' | 'bad_status' | 'truncated' | 'no_entities' | 'html_500' | 'reset' } = { mode: 'slow' };

beforeAll(async () => {
  db = await emptyDatabase();
  const { redisPrefix } = isolationPrefix('gw-requests');
  env = { DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix };
  up = await startFakeUpstreams();
  gw = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix, upstreams: up.urls }));
  await createPlanForTests();
  k = await orgWithKey(env, { plan: 'roomy', account: true, scopes: 'all' });

  // An upstream that misbehaves in the way the test asks for.
  const app = express();
  app.use((req, res) => {
    const id = String(req.headers['x-request-id']);
    switch (behaviour.mode) {
      case 'slow':
        return; // never answers
      case 'not_json':
        return void res.status(200).set('x-budget-entities', '').send('<html>oops</html>');
      case 'wrong_id':
        return void res.status(200).set('x-budget-entities', '').json({ request_id: 'req_000000000000000000000000', capability: 'get_record_version', status: 'supported' });
      case 'other_capability':
        return void res.status(200).set('x-budget-entities', '').json({ request_id: id, capability: 'get_record_version', status: 'supported' });
      case 'bad_status':
        return void res.status(200).set('x-budget-entities', '').json({ request_id: id, capability: 'get_product_record', status: 'fine' });
      case 'truncated':
        // Cut short after the envelope's first members, as a broken serialiser or a lying proxy might send it.
        return void res
          .status(200)
          .set('x-budget-entities', '')
          .type('application/json')
          .send(JSON.stringify({ request_id: id, capability: 'get_product_record', status: 'supported', summary: 'oops' }).slice(0, -3));
      case 'no_entities':
        return void res.status(200).json({ request_id: id, capability: 'get_product_record', status: 'supported' });
      case 'html_500':
        return void res.status(500).send('Internal Server Error');
      case 'reset':
        return void req.socket.destroy();
    }
  });
  broken = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  deadUrl = `http://127.0.0.1:${await freePort()}`;
});

async function createPlanForTests(): Promise<void> {
  const { createPool } = await import('@evidence-record/platform');
  const pool = createPool(db.url);
  await pool.query(`INSERT INTO plans SELECT 'roomy', 'roomy', 100000, 1000000, 10000000, 1000, 1000, 1000, watch_limit, capabilities, false, 'test' FROM plans WHERE plan_id = 'pro'`);
  await pool.end();
}

afterAll(async () => {
  await gw?.close();
  await up?.close();
  if (env) {
    const redis = redisClient();
    await dropPrefix(redis, env.REDIS_PREFIX);
    redis.disconnect();
  }
  broken?.closeAllConnections();
  await new Promise<void>((r) => (broken ? broken.close(() => r()) : r()));
  await db?.drop();
});

afterEach(() => {
  // No response of any kind ever grants CORS.
  for (const r of responses.splice(0)) {
    expect([...r.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  }
});

async function send(path: string, init: RequestInit & { key?: string } = {}, base = gw.url): Promise<Call> {
  const r = await call(`${base}${path}`, init);
  responses.push(r);
  return r;
}

const details = (r: Call) => (r.body.error as { details: Record<string, unknown> }).details;

describe('paths and methods', () => {
  it('health and the description need no key', async () => {
    const h = await send('/api/v1/health');
    expect([h.status, h.body]).toEqual([200, { status: 'ok', api_version: API_VERSION }]);
    const d = await send('/api/v1/openapi.json');
    expect(d.status).toBe(200);
    expect(d.body.openapi).toBe('3.1.0');
    expect(Object.keys(d.body.paths as object)).toContain('/api/v1/products/{product_id}');
  });

  it('any other path under /api/v1 is 404 unsupported_capability, key or not', async () => {
    for (const path of ['/api/v1/export', '/api/v1/products', '/api/v1/products/prd_aaaaaaaaaaaa/all', '/api/v1/record/dump', '/api/v2/health', '/']) {
      for (const key of [undefined, k.key]) {
        const r = await send(path, { key });
        expect([r.status, errorCode(r)], path).toEqual([404, 'unsupported_capability']);
        expect(r.body.request_id).toBe(r.headers.get('x-request-id'));
      }
    }
  });

  it('a known path with the wrong method is 405 with Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/api/v1/signals', 'GET'],
      ['GET', '/api/v1/products/resolve', 'POST'],
      ['PUT', '/api/v1/watch', 'GET, POST'],
      ['DELETE', '/api/v1/health', 'GET'],
      ['PATCH', '/api/v1/products/prd_aaaaaaaaaaaa', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const r = await send(path, { method, key: k.key });
      expect([r.status, errorCode(r)], `${method} ${path}`).toEqual([405, 'method_not_allowed']);
      expect(r.headers.get('allow')!.split(', ').sort().join(', ')).toBe(allow);
    }
  });

  it('a CORS preflight gets no grant', async () => {
    const r = await send('/api/v1/products/resolve', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect([r.status, errorCode(r)]).toEqual([405, 'method_not_allowed']);
    const unknown = await send('/api/v1/anything', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(unknown.status).toBe(404);
    const simple = await send('/api/v1/record/version', { key: k.key, headers: { origin: 'https://evil.example' } });
    expect(simple.status).toBe(200);
    // A cross-origin request to /mcp is refused before its key is looked at (docs/decisions/0604).
    const mcp = await send('/mcp', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(mcp.status).toBe(403);
  });
});

describe('bodies and arguments', () => {
  const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    send(path, { method: 'POST', key: k.key, headers, body });

  it('a body over 8192 bytes is 413, by declared length and by what actually arrives', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(9000) });
    const declared = await post('/api/v1/record/search', big);
    expect([declared.status, errorCode(declared)]).toEqual([413, 'payload_too_large']);
    // Chunked: no Content-Length, the gateway counts.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${gw.url}/api/v1/record/search`, { method: 'POST', headers: { authorization: `Bearer ${k.key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      for (let i = 0; i < 10; i++) req.write('x'.repeat(1000));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe('payload_too_large');
    // Exactly at the limit is fine (and then judged on its content).
    const padded = JSON.stringify({ query: 'creatine' }).padEnd(8192, ' ');
    expect((await post('/api/v1/record/search', padded)).status).toBe(200);
  });

  it('malformed JSON, unknown properties, wrong types and bad values are 400 naming the field', async () => {
    const notJson = await post('/api/v1/products/resolve', '{"identifier": ');
    expect([notJson.status, errorCode(notJson), details(notJson).field]).toEqual([400, 'invalid_request', 'body']);
    const unknown = await post('/api/v1/products/resolve', JSON.stringify({ identifier: 'x', brand: 'y' }));
    expect([unknown.status, details(unknown).field]).toEqual([400, 'brand']);
    const wrongType = await post('/api/v1/products/compare', JSON.stringify({ product_ids: 'prd_aaaaaaaaaaaa' }));
    expect([wrongType.status, details(wrongType).field]).toEqual([400, 'product_ids']);
    const tooMany = await post('/api/v1/research/context', JSON.stringify({ ingredient_ids: ['ing_a1', 'ing_a2', 'ing_a3', 'ing_a4', 'ing_a5', 'ing_a6'] }));
    expect([tooMany.status, details(tooMany).field]).toEqual([400, 'ingredient_ids']);
    const longQuery = await post('/api/v1/record/search', JSON.stringify({ query: 'q'.repeat(301) }));
    expect([longQuery.status, details(longQuery).field]).toEqual([400, 'query']);
    const name = await send('/api/v1/products/Some%20Brand%20Name', { key: k.key });
    expect([name.status, details(name).location, details(name).field]).toEqual([400, 'path', 'product_id']);
    const limit = await send('/api/v1/signals?limit=26', { key: k.key });
    expect([limit.status, details(limit).field]).toEqual([400, 'limit']);
    const extraQuery = await send('/api/v1/signals?export=all', { key: k.key });
    expect([extraQuery.status, details(extraQuery).field]).toEqual([400, 'export']);
    const empty = await post('/api/v1/products/resolve', '');
    expect([empty.status, details(empty).field]).toEqual([400, 'body']);
  });

  it('a body must be application/json; a capability without a body takes none', async () => {
    const form = await post('/api/v1/products/resolve', 'identifier=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect([form.status, errorCode(form), details(form).field]).toEqual([400, 'invalid_request', 'content-type']);
    const text = await post('/api/v1/products/resolve', JSON.stringify({ identifier: 'x' }), { 'content-type': 'text/plain' });
    expect([text.status, details(text).field]).toEqual([400, 'content-type']);
    const withCharset = await post('/api/v1/products/resolve', JSON.stringify({ identifier: 'x' }), { 'content-type': 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(200);
    const bodyOnDelete = await send('/api/v1/watch/prd_aaaaaaaaaaaa', { method: 'DELETE', key: k.key, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([bodyOnDelete.status, details(bodyOnDelete).field]).toEqual([400, 'body']);
  });

  it('X-Service-Origin is validated and never decides access', async () => {
    const bad = await send('/api/v1/record/version', { key: k.key, headers: { 'x-service-origin': 'internal' } });
    expect([bad.status, details(bad).field]).toEqual([400, 'x-service-origin']);
    const mcp = await send('/api/v1/record/version', { key: k.key, headers: { 'x-service-origin': 'mcp' } });
    expect(mcp.status).toBe(200);
    expect((mcp.body.coverage as { seen_headers: Record<string, string> }).seen_headers['x-service-origin']).toBe('mcp');
    const scoped = await orgWithKey(env, { scopes: 'products:read' });
    const noScope = await send('/api/v1/record/version', { key: scoped.key, headers: { 'x-service-origin': 'mcp' } });
    expect([noScope.status, errorCode(noScope)]).toEqual([403, 'insufficient_scope']);
  });

  it('forwards the original body bytes, its own request id, the established identity, and no client credentials or x-er-* headers', async () => {
    const raw = '{ "identifier" :   "Spaced  Out" }';
    const r = await send('/api/v1/products/resolve', {
      method: 'POST',
      key: k.key,
      headers: { 'content-type': 'application/json', 'x-er-org-id': 'org_forged', 'x-er-account-id': 'acc_forged', 'x-er-anything': '1', 'x-request-id': 'req_111111111111111111111111', 'x-budget-entities': 'prd_x', cookie: 'a=b' },
      body: raw,
    });
    expect(r.status).toBe(200);
    const seen = (r.body.coverage as { seen_headers: Record<string, string> }).seen_headers;
    expect(seen['x-er-org-id']).toBe(k.orgId);
    expect(seen['x-er-key-id']).toBe(k.keyId);
    expect(seen['x-er-account-id']).toBe(k.accountId);
    expect(seen['x-er-anything']).toBeUndefined();
    expect(seen['x-budget-entities']).toBeUndefined();
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen['x-request-id']).toBe(r.headers.get('x-request-id'));
    expect(seen['x-request-id']).not.toBe('req_111111111111111111111111');
    expect(seen['content-length']).toBe(String(Buffer.byteLength(raw)));
  });
});

describe('when an upstream fails', () => {
  async function withRecordUpstream(url: string, fn: (g: RunningGateway) => Promise<void>): Promise<void> {
    const g = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix: env.REDIS_PREFIX, upstreams: { ...up.urls, record: url }, upstreamTimeoutMs: 700 }));
    try {
      await fn(g);
    } finally {
      await g.close();
    }
  }

  const expectInternalError = (r: Call) => {
    expect([r.status, errorCode(r)]).toEqual([500, 'internal_error']);
    expect(r.body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
    expect(r.text).not.toMatch(/ECONNREFUSED|stack|at .*\.ts/);
  };

  it('down: 500 internal_error with the request id', async () => {
    await withRecordUpstream(deadUrl, async (g) => expectInternalError(await send('/api/v1/record/version', { key: k.key }, g.url)));
  });

  it('slow: 500 at the deadline, never a hang', async () => {
    behaviour.mode = 'slow';
    await withRecordUpstream(brokenUrl, async (g) => {
      const started = Date.now();
      expectInternalError(await send('/api/v1/record/version', { key: k.key }, g.url));
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });

  it('malformed answers are withheld: not JSON, another request id or capability, no valid status, cut short, no entities header, an HTML 500, a reset', async () => {
    for (const mode of ['not_json', 'wrong_id', 'other_capability', 'bad_status', 'truncated', 'no_entities', 'html_500', 'reset'] as const) {
      behaviour.mode = mode;
      await withRecordUpstream(brokenUrl, async (g) => {
        const r = await send('/api/v1/products/prd_aaaaaaaaaaaa', { key: k.key }, g.url);
        expectInternalError(r);
        expect(r.text).not.toContain('oops');
      });
    }
  });

  it('the MCP service down: 500 internal_error for a valid key', async () => {
    const g = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix: env.REDIS_PREFIX, upstreams: { ...up.urls, mcp: deadUrl } }));
    try {
      const r = await send('/mcp', { method: 'POST', key: k.key, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }, g.url);
      expectInternalError(r);
      expect(r.body.capability).toBe('mcp');
    } finally {
      await g.close();
    }
  });
});
