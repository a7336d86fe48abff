import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityList, scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send, type Reply } from '../resilience/support/http';
import { customer, type Customer } from '../resilience/support/operator';

/**
 * OWASP API8:2023 Security Misconfiguration. On every kind of response the
 * gateway sends (answers, every refusal, 500s, health, the description,
 * MCP, unknown paths, preflights): no CORS grant, the security headers,
 * no framework fingerprint, no stack trace or file path, no echo of what
 * the caller sent, and no TRACE.
 */
let stack: RunningStack;
let caller: Customer;
let productId: string;
const seen: Array<{ what: string; reply: Reply }> = [];

beforeAll(async () => {
  stack = await startStack('sec-api8', { services: ['record', 'signals', 'mcp', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  const resolved = await send(stack.baseUrl, 'POST', '/api/v1/products/resolve', { key: caller.key, body: { identifier: 'IV Surge' } });
  productId = resolved.body.product.product_id;
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

async function keep(what: string, method: string, path: string, opts: Parameters<typeof send>[3] = {}): Promise<Reply> {
  const reply = await send(stack.baseUrl, method, path, opts);
  seen.push({ what, reply });
  return reply;
}

const concrete = (path: string) => path.replace(':product_id', productId).replace(':signal_id', 'sig_000000000000').replace(':edition_id', 'ed_2026_01');
const evil = 'https://evil.example';

describe('API8 security misconfiguration', () => {
  it('grants no CORS on any path, preflight or not', async () => {
    const paths = [...new Set(capabilityList.map((c) => concrete(c.path)))].concat(['/api/v1/health', '/api/v1/openapi.json', '/mcp', '/api/v1/nowhere']);
    for (const path of paths) {
      const preflight = await keep(`preflight ${path}`, 'OPTIONS', path, {
        headers: { origin: evil, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(preflight.status, path).toBeGreaterThanOrEqual(400);
      const plain = await keep(`with origin ${path}`, 'GET', path, { key: caller.key, headers: { origin: evil } });
      expect(plain.status, path).toBeGreaterThan(0);
    }
    // The MCP endpoint refuses a cross-origin request outright (spec: MCP endpoint).
    const mcp = await keep('mcp cross-origin', 'POST', '/mcp', {
      key: caller.key,
      headers: { origin: evil, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.status).toBeGreaterThanOrEqual(400);
    for (const { what, reply } of seen) for (const h of Object.keys(reply.headers)) expect(h.startsWith('access-control-'), `${what}: ${h}`).toBe(false);
  });

  it('sends the security headers and no fingerprint on every kind of response, 500s included', async () => {
    await keep('answer', 'GET', `/api/v1/products/${productId}`, { key: caller.key });
    await keep('health', 'GET', '/api/v1/health');
    await keep('description', 'GET', '/api/v1/openapi.json');
    await keep('401', 'GET', '/api/v1/record/version');
    await keep('403', 'GET', '/api/v1/ledger', { key: (await customer(stack, { plan: 'free', scopes: ['framework:read'] })).key });
    await keep('404 capability', 'GET', '/api/v1/export', { key: caller.key });
    await keep('404 record', 'GET', '/api/v1/products/prd_zzzzzzzzzzzz', { key: caller.key });
    await keep('405', 'PUT', '/api/v1/record/version', { key: caller.key });
    await keep('400 json', 'POST', '/api/v1/record/search', { key: caller.key, body: '{"query":' });
    await keep('400 path', 'GET', '/api/v1/products/%E0%A4%A', { key: caller.key });
    await keep('413', 'POST', '/api/v1/record/search', { key: caller.key, body: JSON.stringify({ query: 'x'.repeat(9000) }) });
    await keep('mcp', 'POST', '/mcp', { key: caller.key, headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    await keep('outside the API', 'GET', '/admin');
    await stack.stopService('record', 'SIGKILL');
    try {
      const down = await keep('500', 'GET', `/api/v1/products/${productId}`, { key: caller.key });
      expect([down.status, down.code]).toEqual([500, 'internal_error']);
    } finally {
      await stack.startService('record');
    }
    const statuses = new Set(seen.map((s) => s.reply.status));
    for (const s of [200, 400, 401, 403, 404, 405, 413, 500]) expect(statuses.has(s), `a ${s} was checked`).toBe(true);
    for (const { what, reply } of seen) {
      const h = reply.headers;
      expect(h['x-content-type-options'], what).toBe('nosniff');
      expect(h['x-frame-options'], what).toBe('DENY');
      expect(h['referrer-policy'], what).toBe('no-referrer');
      expect(h['content-security-policy'], what).toMatch(/default-src 'none'/);
      for (const absent of ['x-powered-by', 'server', 'etag', 'x-aspnet-version', 'via']) expect(h[absent], `${what}: ${absent}`).toBeUndefined();
      if (reply.status !== 200 || what === 'answer') expect(h['cache-control'], what).toMatch(/no-store/);
    }
  });

  it('never shows a stack trace, a file path or a value the caller sent in a refusal', async () => {
    const marker = `M${Date.now()}x`;
    // The name of an unknown property is named back in error.details (that is the contract: details name the
    // field), inside JSON served as application/json with nosniff; values never are.
    const unknownField = `field_${marker.toLowerCase()}`;
    const named = await keep('unknown field named', 'POST', '/api/v1/record/search', { key: caller.key, body: { query: 'caffeine', [unknownField]: `<b>${marker}</b>` } });
    expect(named.body.error.details.field).toBe(unknownField);
    expect(JSON.stringify({ ...named.body, error: { ...named.body.error, details: {} } })).not.toContain(unknownField);
    await keep('reflected body', 'POST', '/api/v1/record/search', { key: caller.key, body: { query: `<script>${marker}</script>${'q'.repeat(300)}` } });
    await keep('reflected path', 'GET', `/api/v1/products/${marker}`, { key: caller.key });
    await keep('reflected query', 'GET', `/api/v1/signals?dimension=${'d'.repeat(50)}${marker}`, { key: caller.key });
    await keep('reflected unknown path', 'GET', `/api/v1/${marker}/<svg onload=1>`, { key: caller.key });
    await keep('reflected header', 'GET', '/api/v1/record/version', { key: caller.key, headers: { 'x-service-origin': marker } });
    for (const { what, reply } of seen) {
      expect(reply.text, what).not.toMatch(/\n\s+at |\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|\.js:\d+|\bError: |express|ioredis|\bpg\b|ECONNREFUSED/);
      if (reply.status !== 200) expect(reply.text.includes(marker), `${what} echoes the caller's input`).toBe(false);
    }
  });

  it('does not answer TRACE', async () => {
    for (const path of ['/api/v1/health', '/api/v1/record/version', '/mcp']) {
      const r = await keep(`TRACE ${path}`, 'TRACE', path, { key: caller.key });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.text.includes(caller.key)).toBe(false);
    }
  });
});
