import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newRequestId } from '@evidence-record/contract';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { call, dropPrefix, errorCode, gatewayConfig, orgWithKey, redisClient, startGateway, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

/**
 * The gateway's side of /mcp (docs/decisions/0604, 0605): the Origin check
 * before the key, the WWW-Authenticate challenge on every 401, the OAuth
 * discovery paths, the per-key protocol window, and what a tools/call
 * answer carries back (the REST call's pacing and request id). The MCP
 * service is a stand-in here that answers what each test tells it to.
 */
interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let db: TestDatabase;
let up: FakeUpstreams;
let gw: RunningGateway;
let env: { DATABASE_URL: string; REDIS_PREFIX: string };
let mcp: http.Server;
const seen: Seen[] = [];
/** What the stand-in MCP service answers next: status, headers, body. */
let respond: (s: Seen) => { status: number; headers?: Record<string, string>; body: string } = () => ({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' });

beforeAll(async () => {
  db = await emptyDatabase();
  const { redisPrefix } = isolationPrefix('gw-mcp');
  env = { DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix };
  up = await startFakeUpstreams();
  mcp = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(s);
      const answer = respond(s);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => mcp.listen(0, '127.0.0.1', r));
  const config = gatewayConfig({ databaseUrl: db.url, redisPrefix, upstreams: { ...up.urls, mcp: `http://127.0.0.1:${(mcp.address() as AddressInfo).port}` } });
  gw = await startGateway(config);
});

afterAll(async () => {
  await gw?.close();
  await up?.close();
  mcp?.closeAllConnections();
  await new Promise<void>((r) => (mcp ? mcp.close(() => r()) : r()));
  if (env) {
    const redis = redisClient();
    await dropPrefix(redis, env.REDIS_PREFIX);
    redis.disconnect();
  }
  await db?.drop();
});

beforeEach(() => {
  seen.length = 0;
  respond = () => ({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' });
});

const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const toolCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'products.get', arguments: {} } });
const post = (key: string | null, body: string, headers: Record<string, string> = {}, path = '/mcp') =>
  call(`${gw.url}${path}`, { method: 'POST', headers: { ...mcpHeaders, ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }, body });

describe('401 challenge', () => {
  it('sends WWW-Authenticate on every 401, REST and MCP: bare for no key, error="invalid_token" for a bad one', async () => {
    const rest = `${gw.url}/api/v1/products/prd_aaaaaaaaaaaa`;
    const cases: [Promise<Awaited<ReturnType<typeof call>>>, string][] = [
      [call(rest), 'Bearer realm="evidence-record"'],
      [call(rest, { headers: { authorization: 'Bearer sk_live_nope' } }), 'Bearer realm="evidence-record", error="invalid_token"'],
      [call(rest, { headers: { 'x-service-key': 'sk_live_abcdefghijkl_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' } }), 'Bearer realm="evidence-record", error="invalid_token"'],
      [call(rest, { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 'Bearer realm="evidence-record", error="invalid_token"'],
      [post(null, list), 'Bearer realm="evidence-record"'],
      [post('sk_live_nope', list), 'Bearer realm="evidence-record", error="invalid_token"'],
    ];
    for (const [pending, challenge] of cases) {
      const res = await pending;
      expect(res.status).toBe(401);
      expect(errorCode(res)).toBe('invalid_credentials');
      expect(res.headers.get('www-authenticate')).toBe(challenge);
    }
    expect(seen).toEqual([]);
    // A good key is never challenged.
    const k = await orgWithKey(env);
    const ok = await call(rest, { key: k.key });
    expect(ok.headers.get('www-authenticate')).toBeNull();
  });
});

describe('where /mcp may be called from (decision 0602)', () => {
  /** POST /mcp with the Host header as given (fetch cannot set Host). */
  const withHost = (host: string, headers: Record<string, string>, key: string | null = null) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>((resolve, reject) => {
      const port = new URL(gw.url).port;
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...mcpHeaders, host, ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') }));
      });
      req.on('error', reject);
      req.end(list);
    });

  it('refuses a cross-origin Origin with 403 before the key is looked at', async () => {
    const own = new URL(gw.url).host;
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${Number(new URL(gw.url).port) + 1}`, `http://localhost:${new URL(gw.url).port}`]) {
      const res = await post(null, list, { origin });
      expect(res.status, origin).toBe(403);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'origin_not_allowed' } } });
      expect((res.body.error as { data: { request_id: string } }).data.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    expect(own).toMatch(/^127\.0\.0\.1:/);
    expect(seen).toHaveLength(0);
  });

  it('accepts the request\'s own origin, under 127.0.0.1 and under localhost, and passes it to the key check', async () => {
    const port = new URL(gw.url).port;
    expect((await post(null, list, { origin: `http://127.0.0.1:${port}` })).status).toBe(401);
    const k = await orgWithKey(env);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      for (const origin of [`http://${host}`, `https://${host}`]) {
        const res = await withHost(host, { origin }, k.key);
        expect(res.status, `${host} ${origin}`).toBe(200);
      }
    }
    expect(seen).toHaveLength(4);
    // What reached the MCP service carried the client's Host, which it checks again by the same rule.
    expect(seen.map((s) => s.headers.host)).toEqual([`127.0.0.1:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `localhost:${port}`]);
  });

  it('refuses a Host it is not served under, with or without an Origin, before the key is looked at', async () => {
    const k = await orgWithKey(env);
    for (const headers of [{}, { origin: 'http://rebind.attacker.test:8080' }] as Array<Record<string, string>>) {
      const res = await withHost('rebind.attacker.test:8080', headers, k.key);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: this Host is not served.', data: { code: 'host_not_allowed' } } });
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    // A bad key behind a foreign Host gets the same 403: the key was never read.
    expect((await withHost('rebind.attacker.test:8080', {}, 'sk_test_notakey')).status).toBe(403);
    expect(seen).toHaveLength(0);
  });
});

describe('OAuth discovery', () => {
  it('answers the discovery, registration, authorization and token paths with a 404 OAuth error body', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/register', '/authorize', '/token']) {
      const res = await call(`${gw.url}${path}`, { method: path === '/register' || path === '/token' ? 'POST' : 'GET', headers: { 'content-type': 'application/json' }, body: path === '/register' ? '{}' : undefined });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/API keys are its only scheme/) });
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    }
    // Other unknown paths keep the REST envelope.
    const other = await call(`${gw.url}/nothing-here`);
    expect([other.status, errorCode(other)]).toEqual([404, 'unsupported_capability']);
  });
});

describe('protocol window', () => {
  it('limits 100 parallel tools/list on a free key to the documented 60 a minute, with RateLimit-* and a 429 with Retry-After', async () => {
    const k = await orgWithKey(env);
    const answers = await Promise.all(Array.from({ length: 100 }, () => post(k.key, list)));
    const passed = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(passed).toHaveLength(60);
    expect(limited).toHaveLength(40);
    expect(seen).toHaveLength(60);
    for (const a of passed) {
      expect(a.headers.get('ratelimit-limit')).toBe('60');
      expect(a.headers.get('ratelimit-policy')).toBe('minute');
    }
    expect(passed.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const a of limited) {
      expect(errorCode(a)).toBe('rate_limited');
      expect(a.body.error).toMatchObject({ details: { window: 'minute', meter: 'mcp_protocol' } });
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(a.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(a.headers.get('ratelimit-remaining')).toBe('0');
    }
    // It spends no budget and none of the REST windows: a capability call afterwards is the first counted.
    const rest = await call(`${gw.url}/api/v1/products/prd_aaaaaaaaaaaa`, { key: k.key });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('ratelimit-remaining')).toBe('29');
    // Tool calls are not counted here (their REST call meters them): they still pass.
    const tool = await post(k.key, toolCall);
    expect(tool.status).toBe(200);
  });

  it('counts every message of a batch but not its tool calls, and the tool calls the MCP service reports unmetered', async () => {
    const k = await orgWithKey(env);
    const batch = JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 1, method: 'ping' }, JSON.parse(toolCall)]);
    const first = await post(k.key, batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(first.headers.get('ratelimit-remaining')).toBe('58');
    respond = () => ({ status: 200, headers: { 'x-er-mcp-unmetered': '3' }, body: '{"jsonrpc":"2.0","id":1,"result":{"isError":true}}' });
    const refused = await post(k.key, toolCall);
    expect(refused.headers.get('x-er-mcp-unmetered')).toBeNull();
    expect(refused.headers.get('ratelimit-remaining')).toBe('55');
    // A POST of tool calls the MCP service refused whole (here a 406) counts one.
    respond = () => ({ status: 406, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Not Acceptable","data":{"code":"not_acceptable"}}}' });
    const whole = await post(k.key, toolCall);
    expect([whole.status, whole.headers.get('ratelimit-remaining')]).toEqual([406, '54']);
  });
});

describe('what /mcp forwards and passes back', () => {
  it('gives a tools/call answer the REST call\'s RateLimit-* headers and request id, and forwards the record version', async () => {
    const k = await orgWithKey(env);
    const restId = newRequestId();
    respond = () => ({
      status: 200,
      headers: { 'x-request-id': restId, 'ratelimit-limit': '30', 'ratelimit-remaining': '17', 'ratelimit-reset': '42', 'ratelimit-policy': 'minute' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { structuredContent: { request_id: restId } } }),
    });
    const res = await post(k.key, toolCall);
    expect(res.headers.get('x-request-id')).toBe(restId);
    expect([res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining'), res.headers.get('ratelimit-reset'), res.headers.get('ratelimit-policy')]).toEqual(['30', '17', '42', 'minute']);
    expect(seen[0]!.headers['x-er-record-version']).toMatch(/^rv_/);
    expect(seen[0]!.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    expect(seen[0]!.headers['x-request-id']).not.toBe(restId);
  });

  it('serves /mcp/service-names as the same endpoint, forwarded to the same path, and never forwards a client x-er-record-version', async () => {
    const k = await orgWithKey(env);
    const res = await post(k.key, list, { 'x-er-record-version': 'rv_forged' }, '/mcp/service-names');
    expect(res.status).toBe(200);
    expect(seen.map((s) => s.path)).toEqual(['/mcp/service-names']);
    expect(seen[0]!.headers['x-er-record-version']).not.toBe('rv_forged');
    const elsewhere = await post(k.key, list, {}, '/mcp/other');
    expect(elsewhere.status).toBe(404);
  });
});
