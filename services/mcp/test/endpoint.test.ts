import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AnswerEnvelope, ErrorEnvelope, MCP_PROTOCOL_VERSIONS, generateKey } from '@evidence-record/contract';
import { StandinGateway, refusal } from './standin-gateway';
import { accessControlHeaders, connectClient, mcpHeaders, rawRequest, rpc, startMcp, type RunningMcp } from './harness';
import { toolCallCases } from './tool-calls';

/**
 * The MCP endpoint driven by the official SDK client, against a real HTTP
 * server standing in for the gateway's REST routes. Proves the protocol
 * surface and exactly which REST call each tool makes with which headers.
 */
const { key, keyId } = generateKey('test');
const secret = key.split('_').pop()!;
const bearer = { authorization: `Bearer ${key}` };

let gateway: StandinGateway;
let server: RunningMcp;
let client: Client;

beforeAll(async () => {
  gateway = new StandinGateway();
  await gateway.start();
  server = await startMcp({ GATEWAY_URL: gateway.url });
  ({ client } = await connectClient(server.url, bearer));
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  await gateway?.stop();
});

beforeEach(() => {
  gateway.calls.length = 0;
  gateway.script.length = 0;
});

const toolCall = (id: number | string, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe('protocol methods', () => {
  it('negotiates 2025-11-25 with the SDK client (its newest), and describes the server', async () => {
    const { client: fresh, transport } = await connectClient(server.url, bearer);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(fresh.getServerVersion()?.name).toBe('evidence-record');
    expect(fresh.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(fresh.getInstructions()).toMatch(/products\.resolve/);
    await fresh.close();
  });

  it('answers initialize with the requested version when it is a supported one, and our newest otherwise', async () => {
    for (const version of MCP_PROTOCOL_VERSIONS) {
      const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } }, bearer);
      expect(res.status).toBe(200);
      expect((res.json as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
    }
    for (const other of ['2024-10-07', '2026-07-28']) {
      const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: other, capabilities: {}, clientInfo: { name: 't', version: '1' } } }, bearer);
      expect((res.json as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-11-25');
    }
  });

  it('lists the 18 tools and no legacy name; lists resources, templates and prompts empty; answers ping', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(18);
    expect(tools.map((t) => t.name).sort()).toEqual(toolCallCases().map((c) => c.tool).sort());
    expect(tools.some((t) => t.name.startsWith('service_'))).toBe(false);
    expect(tools.find((t) => t.name === 'watchlist.add')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(await client.listResources()).toMatchObject({ resources: [] });
    expect(await client.listResourceTemplates()).toMatchObject({ resourceTemplates: [] });
    expect(await client.listPrompts()).toMatchObject({ prompts: [] });
    expect(await client.ping()).toEqual({});
  });

  it('spends nothing on protocol methods: initialize, tools/list, ping and the lists make no REST call', async () => {
    const { client: fresh } = await connectClient(server.url, bearer);
    await fresh.listTools();
    await fresh.ping();
    await fresh.listResources();
    await fresh.listPrompts();
    await fresh.close();
    expect(gateway.calls).toEqual([]);
  });

  it('serves resources/read and prompts/get of its empty lists with the MCP spec\'s codes', async () => {
    const read = await rpcError(client.readResource({ uri: 'test://static-text' }));
    expect(read.code).toBe(-32002);
    expect(read.data).toMatchObject({ code: 'not_found', uri: 'test://static-text' });
    const prompt = await rpcError(client.getPrompt({ name: 'test_simple_prompt' }));
    expect(prompt.code).toBe(-32602);
    expect(prompt.data).toMatchObject({ code: 'invalid_params', field: 'name' });
    const malformed = await rpc(server.url, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: {} }, bearer);
    expect(malformed.json).toMatchObject({ id: 3, error: { code: -32602, data: { code: 'invalid_params', field: 'uri' } } });
    expect(gateway.calls).toEqual([]);
  });

  it('lists the service_<capability> names on request (header or path), and calls them as the same REST calls', async () => {
    const byHeader = await connectClient(server.url, { ...bearer, 'x-mcp-tool-names': 'service' });
    const listedByHeader = (await byHeader.client.listTools()).tools;
    expect(listedByHeader.map((t) => t.name).sort()).toEqual(toolCallCases().map((c) => `service_${c.capability}`).sort());
    expect(listedByHeader.every((t) => /^[a-z_]+$/.test(t.name))).toBe(true);
    const contractListing = (await client.listTools()).tools;
    expect(listedByHeader.map((t) => ({ ...t, name: '' }))).toEqual(contractListing.map((t) => ({ ...t, name: '' })));
    const pathRes = await rawRequest(`${server.url}/mcp/service-names`, { headers: { ...mcpHeaders, ...bearer }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect((pathRes.json as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toContain('service_resolve_product');
    const viaService = (await byHeader.client.callTool({ name: 'service_resolve_product', arguments: { identifier: 'Acme Blast' } })) as CallToolResult;
    const viaContract = await call('products.resolve', { identifier: 'Acme Blast' });
    expect(gateway.calls.map((c) => [c.method, c.path, c.body, c.headers.authorization])).toEqual([
      ['POST', '/api/v1/products/resolve', { identifier: 'Acme Blast' }, bearer.authorization],
      ['POST', '/api/v1/products/resolve', { identifier: 'Acme Blast' }, bearer.authorization],
    ]);
    expect(viaService.structuredContent).toMatchObject({ capability: 'resolve_product' });
    expect(viaContract.structuredContent).toMatchObject({ capability: 'resolve_product' });
    await byHeader.client.close();
  });

  it('refuses a cursor on a list it never paged', async () => {
    const err = await rpcError(client.listTools({ cursor: 'abc' }));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({ code: 'invalid_params', field: 'cursor' });
  });

  it('answers an unknown method with -32601 and the documented data', async () => {
    const res = await rpc(server.url, { jsonrpc: '2.0', id: 7, method: 'records/export' }, bearer);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found', data: { code: 'method_not_found' } } });
    expect((res.json as { error: { data: { request_id: string } } }).error.data.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

describe('tools/call through the REST routes', () => {
  for (const c of toolCallCases()) {
    it(`${c.tool} makes the ${c.capability} REST call with the caller's key and returns the envelope unchanged`, async () => {
      const result = await call(c.tool, c.args);
      expect(gateway.calls).toHaveLength(1);
      const received = gateway.calls[0]!;
      expect(received.capability).toBe(c.capability);
      expect(received.method).toBe(c.rest.method);
      expect(received.path).toBe(c.rest.path);
      expect(received.query).toEqual(c.rest.query ?? {});
      expect(received.body).toEqual(c.rest.body);
      expect(received.headers.authorization).toBe(`Bearer ${key}`);
      expect(received.headers['x-service-key']).toBeUndefined();
      expect(received.headers['x-service-origin']).toBe('mcp');

      const sent = gateway.sent[gateway.sent.length - 1]!;
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: sent }]);
      expect(result.structuredContent).toEqual(JSON.parse(sent));
      expect(AnswerEnvelope.safeParse(result.structuredContent).success).toBe(true);
      expect(result.structuredContent).toMatchObject({ capability: c.capability });
      expect(result._meta).toMatchObject({ http_status: 200, ratelimit: { limit: 1000, reset: 37, policy: 'minute' } });
    });
  }

  it('accepts every legacy name service_<capability> for the same REST call', async () => {
    for (const c of toolCallCases()) {
      gateway.calls.length = 0;
      const result = await call(`service_${c.capability}`, c.args);
      expect(result.isError, c.capability).toBeFalsy();
      expect(gateway.calls.map((r) => [r.capability, r.method, r.path])).toEqual([[c.capability, c.rest.method, c.rest.path]]);
    }
  });

  it('copies an X-Service-Key header verbatim instead of Authorization', async () => {
    const { client: other } = await connectClient(server.url, { 'X-Service-Key': key });
    await other.callTool({ name: 'record.version', arguments: {} });
    await other.close();
    expect(gateway.calls).toHaveLength(1);
    expect(gateway.calls[0]!.headers['x-service-key']).toBe(key);
    expect(gateway.calls[0]!.headers.authorization).toBeUndefined();
  });

  it('returns a refusal as a tool error carrying the REST error envelope and its pacing headers', async () => {
    const refusals = [
      refusal('get_product_record', 'rate_limited', {}, { 'Retry-After': '12' }),
      refusal('get_product_record', 'extraction_limit_reached', {}, { 'Retry-After': '3600' }),
      refusal('get_product_record', 'insufficient_scope', { required_scope: 'products:read' }),
      refusal('get_product_record', 'not_found'),
      refusal('get_product_record', 'invalid_credentials'),
    ];
    for (const scripted of refusals) {
      gateway.script.push(scripted);
      const result = await call('products.get', { product_id: 'prd_abc123def456' });
      const envelope = JSON.parse(scripted.text) as ErrorEnvelope;
      expect(result.isError).toBe(true);
      const { retry_after_seconds: _wait, ...rest } = result.structuredContent as Record<string, unknown>;
      expect(ErrorEnvelope.safeParse(rest).success).toBe(true);
      expect(result._meta).toMatchObject({ http_status: scripted.status });
      const wait = scripted.headers?.['Retry-After'];
      if (wait) {
        // The wait beside the envelope, where a model reads it, in the structured content and in the text.
        const paced = { ...envelope, retry_after_seconds: Number(wait) };
        expect(result.structuredContent).toEqual(paced);
        expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(paced);
        expect(result._meta?.retry_after).toBe(Number(wait));
      } else {
        expect(result.structuredContent).toEqual(envelope);
        expect(result.content).toEqual([{ type: 'text', text: scripted.text }]);
        expect(result._meta?.retry_after).toBeUndefined();
        expect(result.structuredContent).not.toHaveProperty('retry_after_seconds');
      }
    }
  });

  it('refuses an unknown tool with -32602 and makes no REST call', async () => {
    const err = await rpcError(client.callTool({ name: 'records.export', arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.data).toMatchObject({ code: 'unsupported_capability', tool: 'records.export' });
    // Answered without a REST call: the gateway is told to count it in the protocol window.
    const raw = await rpc(server.url, toolCall(2, 'records.export', {}), bearer);
    expect(raw.headers['x-er-mcp-unmetered']).toBe('1');
    const malformed = await rpc(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'products.get', arguments: 'prd_abc123def456' } }, bearer);
    expect(malformed.json).toMatchObject({ error: { code: -32602, data: { code: 'invalid_params' } } });
    expect(malformed.headers['x-er-mcp-unmetered']).toBe('1');
    expect(gateway.calls).toEqual([]);
  });

  it('answers bad arguments with an isError result carrying the REST invalid_request envelope, makes no REST call, and reports it unmetered', async () => {
    const cases: [string, Record<string, unknown>, 'path' | 'query' | 'body', string][] = [
      ['products.compare', { product_ids: ['prd_abc123def456'] }, 'body', 'product_ids'],
      ['signals.list', { limit: 26 }, 'query', 'limit'],
      ['signals.list', { since: '2026-03-01', until: '2026-02-01' }, 'query', 'since'],
      ['products.resolve', { identifier: 'Acme', account: 'acct_1' }, 'body', 'account'],
      ['products.get', { product_id: 'prd_abc123def456', account: 'acct_1' }, 'query', 'account'],
      ['record.search', { query: 'x'.repeat(301) }, 'body', 'query'],
      ['products.get', { product_id: 'Acme Blast' }, 'path', 'product_id'],
      ['products.get', {}, 'path', 'product_id'],
      ['watchlist.receipt', { period: 'October' }, 'query', 'period'],
    ];
    for (const [name, args, location, field] of cases) {
      for (const version of MCP_PROTOCOL_VERSIONS) {
        const res = await rpc(server.url, toolCall(7, name, args), { ...bearer, 'mcp-protocol-version': version, 'x-er-record-version': 'rv_0000abcd' });
        const what = `${name} ${JSON.stringify(args)} @${version}`;
        expect(res.status, what).toBe(200);
        const result = (res.json as { result: CallToolResult }).result;
        expect(result.isError, what).toBe(true);
        const envelope = ErrorEnvelope.parse(result.structuredContent);
        expect(envelope, what).toMatchObject({ capability: toolCallCases().find((c) => c.tool === name)!.capability, status: 'refused', record_version: 'rv_0000abcd' });
        expect(envelope.error, what).toMatchObject({ code: 'invalid_request', details: { location, field } });
        // One id: the envelope's is the HTTP response's.
        expect(envelope.request_id).toBe(res.headers['x-request-id']);
        expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
        expect(res.headers['x-er-mcp-unmetered']).toBe('1');
      }
    }
    // The SDK client gets the same result, not a thrown error.
    const viaClient = await call('signals.list', { limit: 26 });
    expect(viaClient).toMatchObject({ isError: true, structuredContent: { error: { code: 'invalid_request', details: { field: 'limit' } } } });
    expect(gateway.calls).toEqual([]);
  });

  it('carries the REST call\'s RateLimit-* headers and request id on the HTTP answer of a tools/call, and marks nothing unmetered', async () => {
    const res = await rpc(server.url, toolCall(1, 'products.get', { product_id: 'prd_abc123def456' }), bearer);
    const envelope = (res.json as { result: { structuredContent: { request_id: string } } }).result.structuredContent;
    expect(res.headers['x-request-id']).toBe(envelope.request_id);
    expect(gateway.calls).toHaveLength(1);
    expect(res.headers['ratelimit-limit']).toBe('1000');
    expect(res.headers['ratelimit-remaining']).toBe(String(gateway.remaining));
    expect(res.headers['ratelimit-reset']).toBe('37');
    expect(res.headers['ratelimit-policy']).toBe('minute');
    expect(res.headers['x-er-mcp-unmetered']).toBeUndefined();
    // A protocol method makes no REST call: no RateLimit-* from here (the gateway sets its protocol window's).
    const listed = await rpc(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, bearer);
    expect(listed.headers['ratelimit-limit']).toBeUndefined();
    expect(listed.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('answers -32603 when the gateway answers without an envelope', async () => {
    gateway.script.push({ status: 502, text: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } });
    const err = await rpcError(client.callTool({ name: 'record.version', arguments: {} }));
    expect(err.code).toBe(-32603);
    expect(err.data).toMatchObject({ code: 'internal_error', tool: 'record.version' });
    expect(err.message).not.toMatch(/html|stack|at /);
  });

  it('answers -32603 when the gateway cannot be reached', async () => {
    const orphan = await startMcp({ GATEWAY_URL: 'http://127.0.0.1:9' });
    try {
      const { client: c } = await connectClient(orphan.url, bearer);
      const err = await rpcError(c.callTool({ name: 'record.version', arguments: {} }));
      expect(err.code).toBe(-32603);
      expect(err.data).toMatchObject({ code: 'internal_error' });
      await c.close();
    } finally {
      await orphan.stop();
    }
  });
});

describe('the HTTP surface', () => {
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

  it('answers POST with application/json, never a stream, and never issues Mcp-Session-Id', async () => {
    for (const message of [init, list, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'record.version', arguments: {} } }]) {
      const res = await rpc(server.url, message, { ...bearer, 'mcp-protocol-version': '2025-06-18' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: message.id });
    }
  });

  it('answers a notification with 202 and no body', async () => {
    const res = await rpc(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, bearer);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('answers a JSON-RPC batch with one JSON array', async () => {
    const res = await rpc(server.url, [list, { jsonrpc: '2.0', id: 9, method: 'ping' }], { ...bearer, 'mcp-protocol-version': '2025-03-26' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expect.arrayContaining([expect.objectContaining({ id: 2 }), { jsonrpc: '2.0', id: 9, result: {} }]));
  });

  it('refuses GET, DELETE and other methods with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'OPTIONS']) {
      const res = await rawRequest(`${server.url}/mcp`, { method, headers: { ...bearer, accept: 'application/json, text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'method_not_allowed' } } });
      expect(accessControlHeaders(res.headers)).toEqual([]);
    }
  });

  it('refuses an unsupported MCP-Protocol-Version with 400 listing the supported ones', async () => {
    for (const version of ['2026-07-28', '2025-11-24', '2024-10-07', 'x']) {
      const res = await rpc(server.url, list, { ...bearer, 'mcp-protocol-version': version });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        error: { code: -32000, data: { code: 'unsupported_protocol_version', requested: version, supported_versions: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] } },
      });
      for (const v of MCP_PROTOCOL_VERSIONS) expect(res.text).toContain(v);
    }
  });

  it('refuses a request without a key with 401, whatever the method', async () => {
    for (const message of [init, list, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'record.version', arguments: {} } }]) {
      const res = await rpc(server.url, message);
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'invalid_credentials' } } });
    }
    const malformed = await rpc(server.url, list, { authorization: 'Bearer not-a-key' });
    expect(malformed.status).toBe(401);
    expect(gateway.calls).toEqual([]);
  });

  it('refuses a cross-origin Origin with 403 and no CORS headers; accepts an allowed one', async () => {
    const evil = await rpc(server.url, list, { ...bearer, origin: 'https://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(evil.json).toMatchObject({ error: { code: -32000, data: { code: 'origin_not_allowed' } } });
    expect(accessControlHeaders(evil.headers)).toEqual([]);
    const own = await rpc(server.url, list, { ...bearer, origin: server.url });
    expect(own.status).toBe(200);
    expect(accessControlHeaders(own.headers)).toEqual([]);
  });

  it('refuses a Host that is not on the allow-list (DNS rebinding) with 403', async () => {
    const res = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer, host: 'evil.example.com' }, body: JSON.stringify(list) });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: { code: -32000, data: { code: 'host_not_allowed' } } });
  });

  it('refuses bodies over 8192 bytes with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record.search', arguments: { query: 'x'.repeat(9000) } } });
    const res = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer }, body: big });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'payload_too_large' } } });
    expect(gateway.calls).toEqual([]);
  });

  it('answers a body that is not JSON with -32700, and JSON that is not JSON-RPC with -32600', async () => {
    const parse = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer }, body: '{"jsonrpc":' });
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, data: { code: 'parse_error' } } });
    const pings = JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    const initInBatch = JSON.stringify([init, { jsonrpc: '2.0', id: 9, method: 'ping' }]);
    for (const body of ['{"hello":"world"}', '[]', '42', '{"jsonrpc":"1.0","id":1,"method":"ping"}', pings, initInBatch]) {
      const invalid = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer }, body });
      expect(invalid.status, body).toBe(400);
      expect(invalid.json).toMatchObject({ error: { code: -32600, data: { code: 'invalid_request' } } });
    }
  });

  it('wants Content-Type application/json (415) and an Accept naming JSON and event streams (406)', async () => {
    const text = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer, 'content-type': 'text/plain' }, body: JSON.stringify(list) });
    expect(text.status).toBe(415);
    // JSON is UTF-8: a body declared in another charset is refused (docs/decisions/0030-one-rule-per-request-check.md).
    const latin1 = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer, 'content-type': 'application/json; charset=latin1' }, body: JSON.stringify(list) });
    expect(latin1.status).toBe(415);
    const utf8 = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(list) });
    expect(utf8.status).toBe(200);
    // A compressed body is not decompressed: the gateway signs the bytes the service reads (decision 0313).
    const gzipped = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer, 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(list)) });
    expect(gzipped.status).toBe(415);
    const accept = await rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer, accept: 'text/html' }, body: JSON.stringify(list) });
    expect(accept.status).toBe(406);
    expect(accept.json).toMatchObject({ error: { data: { code: 'not_acceptable' } } });
  });

  it('answers unknown paths with a JSON 404, not an HTML page', async () => {
    const res = await rawRequest(`${server.url}/mcp/extra/path`, { method: 'GET' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('one server for every HTTP request', () => {

  it('keeps concurrent requests that use the same id apart: each answer, key and tool stays with its own caller', async () => {
    const other = generateKey('test');
    gateway.delayMs = 150;
    try {
      const [a, b] = await Promise.all([
        rpc(server.url, toolCall(1, 'products.get', { product_id: 'prd_abc123def456' }), bearer),
        rpc(server.url, toolCall(1, 'record.version', {}), { 'x-service-key': other.key }),
      ]);
      expect(a.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { structuredContent: { capability: 'get_product_record' } } });
      expect(b.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { structuredContent: { capability: 'get_record_version' } } });
      const byCapability = new Map(gateway.calls.map((c) => [c.capability, c.headers]));
      expect(byCapability.get('get_product_record')?.authorization).toBe(`Bearer ${key}`);
      expect(byCapability.get('get_product_record')?.['x-service-key']).toBeUndefined();
      expect(byCapability.get('get_record_version')?.['x-service-key']).toBe(other.key);
      expect(byCapability.get('get_record_version')?.authorization).toBeUndefined();
    } finally {
      gateway.delayMs = 0;
    }
  });

  it('answers every request of a batch in order, also two with the same id, and a [notification, request] batch with an array', async () => {
    const same = await rpc(server.url, [toolCall('x', 'record.version', {}), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 'x', method: 'ping' }], bearer);
    expect(same.status).toBe(200);
    expect(same.json).toEqual([expect.objectContaining({ id: 'x', result: expect.objectContaining({ structuredContent: expect.objectContaining({ capability: 'get_record_version' }) }) }), { jsonrpc: '2.0', id: 'x', result: {} }]);
    const one = await rpc(server.url, [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 4, method: 'ping' }], bearer);
    expect(one.json).toEqual([{ jsonrpc: '2.0', id: 4, result: {} }]);
    const single = await rpc(server.url, [{ jsonrpc: '2.0', id: 5, method: 'ping' }], { ...bearer, 'mcp-protocol-version': '2024-11-05' });
    expect(single.json).toEqual([{ jsonrpc: '2.0', id: 5, result: {} }]);
  });

  it('refuses a batch under 2025-06-18 and later with -32600, whatever it holds, and makes no REST call', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      for (const batch of [[{ jsonrpc: '2.0', id: 1, method: 'ping' }], [{ jsonrpc: '2.0', method: 'notifications/initialized' }, toolCall(2, 'record.version', {})]]) {
        const res = await rpc(server.url, batch, { ...bearer, 'mcp-protocol-version': version });
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { code: 'batch_not_supported', protocol_version: version } } });
      }
    }
    expect(gateway.calls).toEqual([]);
  });

  it('accepts a cancellation without acting on it: the request it names is still answered', async () => {
    const res = await rpc(server.url, [{ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }], bearer);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject([{ id: 3, result: { tools: expect.any(Array) } }]);
    const alone = await rpc(server.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }, bearer);
    expect(alone.status).toBe(202);
  });

  it('drops the answer of a request whose client went away, and serves the next ones', async () => {
    gateway.delayMs = 300;
    try {
      const gone = rawRequest(`${server.url}/mcp`, { headers: { ...mcpHeaders, ...bearer }, body: JSON.stringify(toolCall(1, 'record.version', {})) }, { abortAfterMs: 50 });
      await expect(gone).rejects.toThrow();
      gateway.delayMs = 0;
      const next = await rpc(server.url, toolCall(1, 'products.get', { product_id: 'prd_abc123def456' }), bearer);
      expect(next.json).toMatchObject({ id: 1, result: { structuredContent: { capability: 'get_product_record' } } });
      // The abandoned call's REST answer arrives after this and goes nowhere: the stand-in's 300 ms delay has to pass.
      await new Promise((r) => setTimeout(r, 400));
      const after = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, bearer);
      expect(after.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(server.logs.join('\n')).not.toMatch(/mcp request failed|unhandled error/);
    } finally {
      gateway.delayMs = 0;
    }
  });
});

describe('operations', () => {
  it('counts messages by method, tool and outcome', async () => {
    await call('products.get', { product_id: 'prd_abc123def456' });
    gateway.script.push(refusal('get_product_record', 'not_found'));
    await call('products.get', { product_id: 'prd_abc123def456' });
    const res = await rawRequest(`${server.url}/metrics`, { method: 'GET' });
    expect(res.text).toMatch(/er_mcp_messages_total\{method="tools\/call",tool="products\.get",outcome="ok",service="mcp"\} [1-9]/);
    expect(res.text).toMatch(/er_mcp_messages_total\{method="tools\/call",tool="products\.get",outcome="tool_error",service="mcp"\} [1-9]/);
    expect(res.text).toMatch(/er_mcp_http_refusals_total\{code="unsupported_protocol_version",service="mcp"\} [1-9]/);
  });

  it('serves /healthz and /readyz, and turns unready when draining', async () => {
    expect((await rawRequest(`${server.url}/healthz`, { method: 'GET' })).status).toBe(200);
    const other = await startMcp({ GATEWAY_URL: gateway.url });
    expect((await rawRequest(`${other.url}/readyz`, { method: 'GET' })).status).toBe(200);
    other.mcp.setDraining();
    expect((await rawRequest(`${other.url}/readyz`, { method: 'GET' })).status).toBe(503);
    await other.stop();
  });

  it('logs the key id and never the key', () => {
    const all = server.logs.join('\n');
    expect(all).toContain(keyId);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(key);
  });
});
