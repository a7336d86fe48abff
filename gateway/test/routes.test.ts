import { describe, expect, it } from 'vitest';
import { capabilityList } from '@evidence-record/contract';
import { RouteTable } from '../src/routes';

const routes = new RouteTable();

describe('routing from the capability table', () => {
  it('routes every capability by its method and path', () => {
    for (const cap of capabilityList) {
      const path = cap.path.replace(':product_id', 'prd_aaaaaaaaaaaa').replace(':signal_id', 'sig_aaaaaaaaaaaa').replace(':edition_id', 'ed_2026_01');
      const m = routes.match(cap.method, path);
      expect(m.kind, `${cap.method} ${path}`).toBe('capability');
      if (m.kind === 'capability') expect(m.capability.name).toBe(cap.name);
    }
  });

  it('a literal path wins over a parameter: GET /products/resolve is 405, not a product called "resolve"', () => {
    expect(routes.match('GET', '/api/v1/products/resolve')).toEqual({ kind: 'method_not_allowed', allow: ['POST'], capability: 'resolve_product' });
    expect(routes.match('DELETE', '/api/v1/watch/receipt')).toEqual({ kind: 'method_not_allowed', allow: ['GET'], capability: 'get_watch_receipt' });
    const m = routes.match('DELETE', '/api/v1/watch/prd_aaaaaaaaaaaa');
    expect(m.kind === 'capability' && m.capability.name).toBe('unwatch_product');
  });

  it('a known path with another method is 405 with every allowed method', () => {
    const m = routes.match('PUT', '/api/v1/watch');
    expect(m.kind).toBe('method_not_allowed');
    if (m.kind === 'method_not_allowed') expect(m.allow.sort()).toEqual(['GET', 'POST']);
    expect(routes.match('OPTIONS', '/api/v1/signals')).toMatchObject({ kind: 'method_not_allowed', allow: ['GET'] });
    expect(routes.match('POST', '/api/v1/health')).toMatchObject({ kind: 'method_not_allowed', allow: ['GET'] });
  });

  it('anything else under /api/v1 is unknown (no export, no listing)', () => {
    for (const p of ['/api/v1/export', '/api/v1/products', '/api/v1/products/prd_aaaaaaaaaaaa/history/all', '/api/v1/signals/', '/api/v1']) {
      expect(routes.match('GET', p).kind, p).toBe('unknown');
    }
  });

  it('decodes path parameters, and malformed encodings are a bad path', () => {
    const m = routes.match('GET', '/api/v1/products/prd%5Faaaaaaaaaaaa');
    expect(m.kind === 'capability' && m.params.product_id).toBe('prd_aaaaaaaaaaaa');
    expect(routes.match('GET', '/api/v1/products/%E0%A4%A').kind).toBe('bad_path');
  });
});
