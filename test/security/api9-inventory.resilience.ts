import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityList, errorCatalogue, scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, type Customer } from '../resilience/support/operator';

/**
 * OWASP API9:2023 Improper Inventory Management. The OpenAPI document the
 * gateway serves is the inventory: every route in it is served, every
 * served route is in it (plausible undocumented ones are 404
 * unsupported_capability), the MCP tools are the same 18 capabilities, and
 * the only other things on the gateway's port are the cluster-internal
 * operational endpoints, which the chart's Ingress never routes and which
 * carry no customer identifiers.
 */
let stack: RunningStack;
let caller: Customer;
let doc: { paths: Record<string, Record<string, unknown>>; 'x-error-codes': Record<string, unknown> };

beforeAll(async () => {
  stack = await startStack('sec-api9', { services: ['record', 'signals', 'ledger', 'watch', 'mcp', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  doc = (await send(stack.baseUrl, 'GET', '/api/v1/openapi.json')).body;
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const documented = () => Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort();
const concrete = (path: string) => path.replace('{product_id}', 'prd_000000000000').replace('{signal_id}', 'sig_000000000000').replace('{edition_id}', 'ed_2026_01');

describe('API9 inventory', () => {
  it('documents exactly the 18 capabilities, health and the document itself, with every error code', () => {
    const expected = ['GET /api/v1/health', 'GET /api/v1/openapi.json', ...capabilityList.map((c) => `${c.method} ${c.path.replace(/:([a-z_]+)/g, '{$1}')}`)].sort();
    expect(documented()).toEqual(expected);
    expect(Object.keys(doc['x-error-codes']).sort()).toEqual(Object.keys(errorCatalogue).sort());
  });

  it('serves every documented route', async () => {
    for (const op of documented()) {
      const [method, path] = op.split(' ') as [string, string];
      const r = await send(stack.baseUrl, method, concrete(path), { key: caller.key, ...(method === 'POST' ? { body: {} } : {}) });
      expect(r.code, op).not.toBe('unsupported_capability');
      expect(r.status, op).not.toBe(405);
      expect(r.status, op).toBeLessThan(500);
    }
  });

  it('serves nothing else under /api: plausible undocumented routes are 404 unsupported_capability', async () => {
    const probes = [
      '/api', '/api/', '/api/v1', '/api/v1/', '/api/v2/record/version', '/api/v2/health', '/api/v0/health', '/api/internal/products', '/api/v1/export', '/api/v1/export.csv',
      '/api/v1/dump', '/api/v1/products', '/api/v1/products/', '/api/v1/products/all', '/api/v1/products/list', '/api/v1/products/search', '/api/v1/brands', '/api/v1/ingredients',
      '/api/v1/signals/all', '/api/v1/signals/feed', '/api/v1/editions', '/api/v1/ledger/editions', '/api/v1/watch/all', '/api/v1/watches', '/api/v1/accounts', '/api/v1/orgs',
      '/api/v1/keys', '/api/v1/usage', '/api/v1/admin', '/api/v1/admin/keys', '/api/v1/metrics', '/api/v1/healthz', '/api/v1/readyz', '/api/v1/debug', '/api/v1/status',
      '/api/v1/graphql', '/api/v1/query', '/api/v1/sql', '/api/v1/docs', '/api/v1/swagger.json', '/api/v1/openapi.yaml', '/api/v1/record', '/api/v1/record/',
      '/api/v1/record/dump', '/api/v1/record/versions', '/api/v1/category', '/api/v1/research', '/api/v1/regulatory', '/api/v1/mcp', '/api/v1/tools',
    ];
    // A probe shaped like a documented route with a path parameter is that route with an invalid id: refused, never served.
    const parameterShaped = /^\/api\/v1\/(products|signals|ledger|watch)\/[^/]+$/;
    for (const path of probes) {
      for (const method of ['GET', 'POST']) {
        const r = await send(stack.baseUrl, method, path, { key: caller.key, ...(method === 'POST' ? { body: {} } : {}) });
        if (parameterShaped.test(path)) {
          expect(['invalid_request', 'method_not_allowed', 'not_found'], `${method} ${path}`).toContain(r.code);
        } else {
          expect([r.status, r.code], `${method} ${path}`).toEqual([404, 'unsupported_capability']);
        }
      }
    }
  });

  it('exposes the same 18 capabilities over MCP, and nothing more', async () => {
    const r = await send(stack.baseUrl, 'POST', '/mcp', {
      key: caller.key,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(r.status).toBe(200);
    expect((r.body.result.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual(capabilityList.map((c) => c.tool).sort());
    for (const method of ['resources/list', 'prompts/list']) {
      const listed = await send(stack.baseUrl, 'POST', '/mcp', {
        key: caller.key,
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: { jsonrpc: '2.0', id: 2, method, params: {} },
      });
      expect(Object.values(listed.body.result as Record<string, unknown[]>).flat(), method).toEqual([]);
    }
  });

  it('keeps the operational endpoints outside /api, unrouted by the Ingress, and free of customer identifiers', async () => {
    // Outside /api and /mcp, only the operational endpoints and the keyless unsubscribe page of alert emails answer on the gateway's port.
    for (const path of ['/admin', '/debug', '/.env', '/.git/config', '/server-status', '/console', '/actuator', '/v1/record/version', '/record/version', '/docs']) {
      const r = await send(stack.baseUrl, 'GET', path, { key: caller.key });
      expect([r.status, r.code], path).toEqual([404, 'unsupported_capability']);
    }
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await send(stack.baseUrl, 'GET', path)).status, path).toBe(200);
    const values = parse(await readFile('charts/evidence-record/values.yaml', 'utf8')) as { ingress: { hosts: Array<{ paths: Array<{ path: string }> }> } };
    const routed = values.ingress.hosts.flatMap((h) => h.paths.map((p) => p.path));
    expect(routed.sort()).toEqual(['/api', '/mcp', '/unsubscribe']);
    // After real traffic, the metrics name no key, organisation or account.
    await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: caller.key });
    await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: caller.key });
    const metrics = (await send(stack.baseUrl, 'GET', '/metrics')).text;
    expect(metrics).toMatch(/er_/);
    for (const id of [caller.keyId, caller.orgId, caller.accountId!, caller.key.split('_')[3]!]) expect(metrics.includes(id), id).toBe(false);
  });
});
