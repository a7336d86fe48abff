import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope, scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, type Customer } from '../resilience/support/operator';

/**
 * Inputs the fuzzer (api-fuzz.resilience.ts) once answered with a 5xx,
 * kept here as plain cases so they stay fixed in every `npm test`.
 */
let stack: RunningStack;
let caller: Customer;

beforeAll(async () => {
  stack = await startStack('fuzz-regressions', { services: ['record', 'signals', 'watch', 'mcp', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

describe('dates Postgres cannot hold (year 0000) are refused, not a 500', () => {
  it.each([
    ['/api/v1/signals?since=0000-02-29', 'since'],
    ['/api/v1/signals?until=0000-01-01', 'until'],
    ['/api/v1/signals?since=0000-02-29&until=5396-02-29&dimension=price&limit=7', 'since'],
    ['/api/v1/category/snapshot?from=0000-01-01&to=0000-01-31', 'from'],
    ['/api/v1/category/snapshot?to=0000-01-31', 'to'],
    ['/api/v1/watch/receipt?period=0000-01', 'period'],
  ])('%s', async (path, field) => {
    const r = await send(stack.baseUrl, 'GET', path, { key: caller.key });
    expect([r.status, r.code], r.text.slice(0, 300)).toEqual([400, 'invalid_request']);
    expect(ErrorEnvelope.safeParse(r.body).success).toBe(true);
    expect(r.body.error.details.field).toBe(field);
  });

  it('still answers the earliest and latest dates it can hold', async () => {
    for (const path of [
      '/api/v1/signals?since=0001-01-01',
      '/api/v1/signals?until=9999-12-31',
      '/api/v1/watch/receipt?period=0001-01',
      // Issue 18's audit: the snapshot asked Postgres for the day before 0001-01-01 and answered 500.
      '/api/v1/category/snapshot?from=0001-01-01&to=0001-01-31',
      '/api/v1/category/snapshot?to=0001-01-05',
    ]) {
      const r = await send(stack.baseUrl, 'GET', path, { key: caller.key });
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
    }
  });
});

describe('a NUL character (which Postgres text cannot hold) is refused, not a 500', () => {
  it.each([
    ['GET', '/api/v1/signals?dimension=%10%00', undefined, 'dimension'],
    ['GET', '/api/v1/signals?category=pre%00workout', undefined, 'category'],
    ['POST', '/api/v1/record/search', { query: 'citrulline\u0000' }, 'query'],
    ['POST', '/api/v1/products/resolve', { identifier: 'IV\u0000Surge' }, 'identifier'],
  ])('%s %s', async (method, path, body, field) => {
    const r = await send(stack.baseUrl, method, path, { key: caller.key, ...(body ? { body } : {}) });
    expect([r.status, r.code], r.text.slice(0, 300)).toEqual([400, 'invalid_request']);
    expect(r.body.error.details.field).toBe(field);
  });
});

describe('malformed tools/call params are invalid params (-32602), not an internal error', () => {
  it.each([
    ['arguments null', { name: 'products.compare', arguments: null }],
    ['arguments an array', { name: 'record.search', arguments: ['caffeine'] }],
    ['arguments a string', { name: 'products.resolve', arguments: 'IV Surge' }],
    ['name a number', { name: 5, arguments: {} }],
    ['no name', { arguments: {} }],
  ])('%s', async (_label, params) => {
    const r = await send(stack.baseUrl, 'POST', '/mcp', {
      key: caller.key,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.id).toBe(7);
    expect(r.body.error?.code, r.text.slice(0, 300)).toBe(-32602);
    expect(r.body.error.data.code).toBe('invalid_params');
    expect(r.body.error.data.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

