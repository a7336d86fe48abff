import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Client as SdkClient, type Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AnswerEnvelope, ErrorEnvelope, MCP_PROTOCOL_VERSIONS, scopes } from '@evidence-record/contract';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';
import { accessControlHeaders, connectClient, rawRequest, rpc } from './harness';
import { toolCallCases, type CaseIds } from './tool-calls';

/**
 * The MCP service as a client meets it: the official SDK client talks to
 * the real gateway's /mcp, which authenticates and passes through to the
 * MCP service, whose tool calls come back into the gateway's REST routes
 * and reach the real record, signals, ledger and watch services over a
 * private clone of the demo Record. All processes are separate.
 */
let stack: RunningStack;
let ids: CaseIds;
let fullKey: string;
let client: Client;

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: stack.db.url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

async function one(text: string): Promise<string> {
  const rows = await sql<{ id: string }>(text);
  if (!rows[0]) throw new Error(`demo Record has no row for: ${text}`);
  return rows[0].id;
}

/** Ids of the demo Record for which every capability gives a real answer. */
async function demoIds(): Promise<CaseIds> {
  const products = await sql<{ id: string }>(
    `SELECT p.product_id AS id FROM products p
      WHERE p.depth_class <> 'REGISTERED' AND p.retired_on IS NULL
        AND EXISTS (SELECT 1 FROM price_observations o WHERE o.product_id = p.product_id)
      ORDER BY p.product_id LIMIT 2`,
  );
  if (products.length < 2) throw new Error('the demo Record needs two comparable products');
  return {
    productId: products[0]!.id,
    otherProductId: products[1]!.id,
    signalId: await one(`SELECT signal_id AS id FROM signals WHERE released_on IS NOT NULL AND status = 'released' ORDER BY released_on DESC, signal_id LIMIT 1`),
    editionId: await one(`SELECT edition_id AS id FROM ledger_editions WHERE status = 'closed' ORDER BY period DESC LIMIT 1`),
    ingredientId: await one(`SELECT ingredient_id AS id FROM research_context ORDER BY ingredient_id LIMIT 1`),
    brandId: await one(`SELECT brand_id AS id FROM products ORDER BY brand_id LIMIT 1`),
    period: (await one(`SELECT period AS id FROM ledger_editions WHERE status = 'closed' ORDER BY period DESC LIMIT 1`)),
  };
}

async function rest(path: string, key: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The gateway writes its usage log in batches: the rows once `ready` holds for them (waitFor gives up after 15 s). */
function eventually<T extends pg.QueryResultRow>(text: string, values: unknown[], ready: (rows: T[]) => boolean): Promise<T[]> {
  return waitFor(`usage_log rows (${text})`, async () => {
    const rows = await sql<T>(text, values);
    return ready(rows) && rows;
  }, 15_000, 200);
}

function withoutRequestId(envelope: unknown): unknown {
  const { request_id: _dropped, ...rest } = envelope as Record<string, unknown>;
  return rest;
}

beforeAll(async () => {
  stack = await startStack('mcp-e2e', { services: ['record', 'signals', 'ledger', 'watch', 'gateway', 'mcp'] });
  ids = await demoIds();
  fullKey = (await issueKey(stack, { plan: 'demo', scopes: [...scopes], account: true, name: 'mcp e2e' })).key;
  ({ client } = await connectClient(stack.baseUrl, { authorization: `Bearer ${fullKey}` }));
});

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await stack?.stop();
});

describe('the 18 tools through the real gateway and services', () => {
  it('lists the 18 tools through the gateway', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(toolCallCases().map((c) => c.tool).sort());
  });

  it('answers every tool with a contract-valid envelope of its capability', async () => {
    for (const c of toolCallCases(ids)) {
      const result = (await client.callTool({ name: c.tool, arguments: c.args })) as CallToolResult;
      const diagnosis = `${c.tool}: ${JSON.stringify(result.structuredContent).slice(0, 400)}`;
      expect(result.isError, diagnosis).toBeFalsy();
      expect(AnswerEnvelope.safeParse(result.structuredContent).success, diagnosis).toBe(true);
      expect(result.structuredContent).toMatchObject({ capability: c.capability });
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
      expect(result._meta).toMatchObject({ http_status: 200 });
    }
  });

  it('answers every legacy name service_<capability> like the tool', async () => {
    for (const c of toolCallCases(ids)) {
      const result = (await client.callTool({ name: `service_${c.capability}`, arguments: c.args })) as CallToolResult;
      expect(result.isError, c.capability).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ capability: c.capability });
    }
  });

  it('returns the same envelope as the REST route, byte for byte but for the request id', async () => {
    const viaRest = await rest(`/api/v1/products/${ids.productId}`, fullKey);
    const viaMcp = (await client.callTool({ name: 'products.get', arguments: { product_id: ids.productId } })) as CallToolResult;
    expect(viaRest.status).toBe(200);
    expect(withoutRequestId(viaMcp.structuredContent)).toEqual(withoutRequestId(viaRest.body));
  });
});

describe('refusals: the MCP tool result carries the REST error.code', () => {
  it('not_found for an invented Signal id', async () => {
    const viaRest = await rest('/api/v1/signals/sig_000000000000', fullKey);
    const viaMcp = (await client.callTool({ name: 'signals.explain', arguments: { signal_id: 'sig_000000000000' } })) as CallToolResult;
    expect(viaRest.status).toBe(404);
    expect(viaMcp.isError).toBe(true);
    expect(ErrorEnvelope.safeParse(viaMcp.structuredContent).success).toBe(true);
    expect((viaMcp.structuredContent as ErrorEnvelope).error.code).toBe((viaRest.body as ErrorEnvelope).error.code);
    expect((viaMcp.structuredContent as ErrorEnvelope).error.code).toBe('not_found');
    expect(viaMcp._meta).toMatchObject({ http_status: 404 });
  });

  it('insufficient_scope for a key without the scope, with the required scope in details', async () => {
    const narrow = (await issueKey(stack, { plan: 'free', scopes: ['framework:read'] })).key;
    const viaRest = await rest(`/api/v1/products/${ids.productId}`, narrow);
    const { client: c } = await connectClient(stack.baseUrl, { 'X-Service-Key': narrow });
    const viaMcp = (await c.callTool({ name: 'products.get', arguments: { product_id: ids.productId } })) as CallToolResult;
    await c.close();
    expect(viaRest.status).toBe(403);
    expect(viaMcp.isError).toBe(true);
    const envelope = viaMcp.structuredContent as ErrorEnvelope;
    expect(envelope.error.code).toBe((viaRest.body as ErrorEnvelope).error.code);
    expect(envelope.error).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'products:read' } });
  });
});

describe('metering: a tool call spends the rate window once, protocol methods nothing', () => {
  it('counts one request per tools/call and none for initialize, tools/list and ping', async () => {
    const issued = await issueKey(stack, { plan: 'free', scopes: ['framework:read', 'products:read'] });
    const key = issued.key;
    // A fixed minute window could roll over mid-test; start early in a window.
    let first = await rest('/api/v1/record/version', key);
    if (Number(first.headers.get('ratelimit-reset')) < 15) {
      // Time has to pass: the window rolls over on the clock.
      await new Promise((r) => setTimeout(r, (Number(first.headers.get('ratelimit-reset')) + 1) * 1000));
      first = await rest('/api/v1/record/version', key);
    }
    expect(first.headers.get('ratelimit-policy')).toBe('minute');
    const r1 = Number(first.headers.get('ratelimit-remaining'));

    const { client: c } = await connectClient(stack.baseUrl, { authorization: `Bearer ${key}` });
    const call = (await c.callTool({ name: 'record.version', arguments: {} })) as CallToolResult;
    expect(call._meta).toMatchObject({ http_status: 200, ratelimit: { policy: 'minute', remaining: r1 - 1 } });
    await c.listTools();
    await c.ping();
    await c.listResources();
    await c.close();

    const last = await rest('/api/v1/record/version', key);
    expect(Number(last.headers.get('ratelimit-remaining'))).toBe(r1 - 2);

    // The usage log attributes the one REST call the tool made to MCP.
    const rows = await eventually<{ capability: string; origin: string }>(
      `SELECT capability, origin FROM usage_log WHERE key_id = $1 AND capability = 'get_record_version' ORDER BY at, usage_id`,
      [issued.keyId],
      (r) => r.length >= 3,
    );
    expect(rows.map((r) => r.origin)).toEqual(['api', 'mcp', 'api']);
  });

  it('spends the daily budget through the REST call: the tool answer charges the products it names once', async () => {
    const issued = await issueKey(stack, { plan: 'free', scopes: ['products:read'] });
    const { client: c } = await connectClient(stack.baseUrl, { authorization: `Bearer ${issued.key}` });
    for (let i = 0; i < 3; i++) {
      const r = (await c.callTool({ name: 'products.get', arguments: { product_id: ids.productId } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
    }
    await c.close();
    const rows = await eventually<{ calls: number; charged: number }>(
      `SELECT count(*)::int AS calls, coalesce(sum(entities_charged), 0)::int AS charged FROM usage_log WHERE key_id = $1 AND origin = 'mcp' AND capability = 'get_product_record'`,
      [issued.keyId],
      (r) => r[0]!.calls >= 3,
    );
    expect(rows[0]).toEqual({ calls: 3, charged: 1 });
  });
});

describe('the HTTP surface through the gateway', () => {
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
  const bearer = () => ({ authorization: `Bearer ${fullKey}` });

  it('answers application/json without Mcp-Session-Id', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    for (const message of [init, list]) {
      const res = await rpc(stack.baseUrl, message, bearer());
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['mcp-session-id']).toBeUndefined();
    }
  });

  it('refuses GET and DELETE with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await rawRequest(`${stack.baseUrl}/mcp`, { method, headers: { ...bearer(), accept: 'application/json, text/event-stream' } });
      expect(res.status, method).toBe(405);
    }
  });

  it('refuses an unsupported MCP-Protocol-Version with 400 listing the supported versions', async () => {
    const res = await rpc(stack.baseUrl, list, { ...bearer(), 'mcp-protocol-version': '2099-01-01' });
    expect(res.status).toBe(400);
    for (const v of MCP_PROTOCOL_VERSIONS) expect(res.text).toContain(v);
  });

  it('refuses a cross-origin Origin with 403 and no CORS headers', async () => {
    const res = await rpc(stack.baseUrl, list, { ...bearer(), origin: 'https://evil.example.com' });
    expect(res.status).toBe(403);
    expect(accessControlHeaders(res.headers)).toEqual([]);
  });

  it('refuses a request without a valid key before anything runs, with a WWW-Authenticate challenge', async () => {
    const none = await rpc(stack.baseUrl, list);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="evidence-record"');
    const bogus = await rpc(stack.baseUrl, list, { authorization: 'Bearer sk_test_0000000000000000_00000000000000000000000000000000' });
    expect(bogus.status).toBe(401);
    expect(bogus.headers['www-authenticate']).toBe('Bearer realm="evidence-record", error="invalid_token"');
  });

  it('refuses a cross-origin Origin with 403 before the key is looked at', async () => {
    const res = await rpc(stack.baseUrl, list, { origin: 'https://evil.example.com' });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { data: { code: 'origin_not_allowed' } } });
  });

  it('lists resources and prompts empty', async () => {
    expect(await client.listResources()).toMatchObject({ resources: [] });
    expect(await client.listPrompts()).toMatchObject({ prompts: [] });
  });
});

/** An OAuth-capable host configured without a key: it has no tokens and would register itself. */
function oauthProvider(): OAuthClientProvider & { redirected: URL[] } {
  const redirected: URL[] = [];
  return {
    redirected,
    get redirectUrl() {
      return 'http://127.0.0.1:1/callback';
    },
    get clientMetadata() {
      return { client_name: 'oauth host', redirect_uris: ['http://127.0.0.1:1/callback'] };
    },
    clientInformation: () => undefined,
    saveClientInformation: () => undefined,
    tokens: () => undefined,
    saveTokens: () => undefined,
    redirectToAuthorization: (url: URL) => void redirected.push(url),
    saveCodeVerifier: () => undefined,
    codeVerifier: () => 'verifier',
  };
}

describe("MCP for today's clients", () => {
  const mcpCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

  it('answers bad arguments as an isError result whose envelope is the one the gateway gives the same REST call', async () => {
    const key = fullKey;
    const cases: [string, Record<string, unknown>, string, { method?: string; body?: unknown }][] = [
      ['products.compare', { product_ids: [ids.productId] }, '/api/v1/products/compare', { method: 'POST', body: { product_ids: [ids.productId] } }],
      ['signals.list', { limit: 26 }, '/api/v1/signals?limit=26', {}],
      ['signals.list', { since: '2026-03-01', until: '2026-02-01' }, '/api/v1/signals?since=2026-03-01&until=2026-02-01', {}],
      ['products.resolve', { identifier: 'Acme', account: 'acct_1' }, '/api/v1/products/resolve', { method: 'POST', body: { identifier: 'Acme', account: 'acct_1' } }],
      ['record.search', { query: 'x'.repeat(301) }, '/api/v1/record/search', { method: 'POST', body: { query: 'x'.repeat(301) } }],
      ['products.get', { product_id: ids.productId, account: 'acct_1' }, `/api/v1/products/${ids.productId}?account=acct_1`, {}],
    ];
    for (const [tool, args, path, init] of cases) {
      const viaRest = await rest(path, key, init);
      expect(viaRest.status, path).toBe(400);
      for (const version of MCP_PROTOCOL_VERSIONS) {
        const res = await rpc(stack.baseUrl, mcpCall(1, tool, args), { authorization: `Bearer ${key}`, 'mcp-protocol-version': version });
        expect(res.status).toBe(200);
        const result = (res.json as { result: CallToolResult }).result;
        expect(result.isError, `${tool} @${version}`).toBe(true);
        expect(withoutRequestId(result.structuredContent), `${tool} @${version}`).toEqual(withoutRequestId(viaRest.body));
        expect((result.structuredContent as ErrorEnvelope).request_id).toBe(res.headers['x-request-id']);
      }
    }
  });

  it("carries the REST call's RateLimit-* headers and request id on a tools/call answer, and the protocol window's on a protocol method", async () => {
    const key = (await issueKey(stack, { plan: 'free', scopes: ['framework:read'] })).key;
    const res = await rpc(stack.baseUrl, mcpCall(1, 'record.version', {}), { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-11-25' });
    const result = (res.json as { result: CallToolResult }).result;
    expect((result.structuredContent as AnswerEnvelope).request_id).toBe(res.headers['x-request-id']);
    expect(res.headers['ratelimit-limit']).toBe('30');
    expect(res.headers['ratelimit-policy']).toBe('minute');
    expect(Number(res.headers['ratelimit-remaining'])).toBe((result._meta as { ratelimit: { remaining: number } }).ratelimit.remaining);
    expect(res.headers['x-er-mcp-unmetered']).toBeUndefined();
    const listed = await rpc(stack.baseUrl, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-11-25' });
    expect(listed.status).toBe(200);
    expect(listed.headers['ratelimit-limit']).toBe('60');
    expect(listed.headers['ratelimit-remaining']).toBe('59');
  });

  it('limits 100 parallel tools/list on a free key to its protocol window of 60, without spending its REST window', async () => {
    const key = (await issueKey(stack, { plan: 'free', scopes: ['framework:read'] })).key;
    const answers = await Promise.all(Array.from({ length: 100 }, () => rpc(stack.baseUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${key}` })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(60);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(40);
    for (const a of limited) {
      expect(a.json).toMatchObject({ status: 'refused', error: { code: 'rate_limited' } });
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
    const after = await rest('/api/v1/record/version', key);
    expect(after.headers.get('ratelimit-remaining')).toBe('29');
  });

  it('serves a client on 2025-11-25 with the version header, and refuses its batches', async () => {
    const { client: c, transport } = await connectClient(stack.baseUrl, { authorization: `Bearer ${fullKey}` });
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect((await c.listTools()).tools).toHaveLength(18);
    await c.close();
    const batch = await rpc(stack.baseUrl, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { authorization: `Bearer ${fullKey}`, 'mcp-protocol-version': '2025-11-25' });
    expect(batch.status).toBe(400);
    expect(batch.json).toMatchObject({ error: { code: -32600, data: { code: 'batch_not_supported' } } });
    const older = await rpc(stack.baseUrl, [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 1, method: 'ping' }], { authorization: `Bearer ${fullKey}`, 'mcp-protocol-version': '2025-03-26' });
    expect(older.json).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('lets an SDK client with an OAuth provider and no key fail with a readable error that names the API key', async () => {
    const provider = oauthProvider();
    const client = new SdkClient({ name: 'oauth host', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), { authProvider: provider });
    const failure = await client.connect(transport).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toMatch(/API keys are its only scheme/);
    expect(provider.redirected).toEqual([]);
    await client.close().catch(() => undefined);
  });
});
