import { describe, expect, it } from 'vitest';
import { capabilities } from '@evidence-record/contract';
import { observe } from '../src/scoring/observe';

describe('what a request tells the extraction score', () => {
  const input = (over: Partial<{ params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> }>) => ({ params: {}, query: {}, body: undefined, ...over });
  it('a following cursor, a forward since and a plain lookup say nothing', () => {
    expect(observe(capabilities.list_signal_changes, input({ query: { since: '2026-01-01', cursor: 'c' } }), 200, null)).toBeNull();
    expect(observe(capabilities.list_signal_changes, input({ query: {} }), 200, null)).toBeNull();
    expect(observe(capabilities.get_product_record, input({ params: { product_id: 'prd_aaaaaaaaaaaa' } }), 200, null)).toBeNull();
    expect(observe(capabilities.get_category_snapshot, input({ query: { cursor: 'c' } }), 200, null)).toBeNull();
  });
  it('a since is passed on to be compared with the newest this key followed', () => {
    expect(observe(capabilities.list_signal_changes, input({ query: { since: '2026-01-01' } }), 200, null)).toEqual({ kind: 'since', value: '2026-01-01', filter: '|||' });
  });
  it('misses, identifiers and date windows are observed', () => {
    expect(observe(capabilities.get_product_record, input({ params: { product_id: 'prd_nf0000000001' } }), 404, 'not_found')).toEqual({ kind: 'not_found', value: 'prd_nf0000000001' });
    expect(observe(capabilities.resolve_product, input({ body: { identifier: '  Big  BRAND ' } }), 200, null)).toEqual({ kind: 'identifier', value: 'resolve:big brand' });
    // Full-width letters and a no-break space are the same identifier as their ASCII forms (NFKC); tabs and newlines collapse too.
    expect(observe(capabilities.resolve_product, input({ body: { identifier: 'Ｂｉｇ\u00a0BRAND' } }), 200, null)).toEqual({ kind: 'identifier', value: 'resolve:big brand' });
    expect(observe(capabilities.resolve_product, input({ body: { identifier: 'Big\t\nBrand' } }), 200, null)).toEqual({ kind: 'identifier', value: 'resolve:big brand' });
    expect(observe(capabilities.list_signal_changes, input({ query: { since: '2026-01-01', until: '2026-01-07' } }), 200, null)).toMatchObject({ kind: 'window' });
    expect(observe(capabilities.get_category_snapshot, input({ query: { from: '2026-01-01', to: '2026-01-07' } }), 200, null)).toEqual({ kind: 'window', value: 'snapshot:2026-01-01..2026-01-07' });
    expect(observe(capabilities.get_product_record, input({ params: { product_id: 'prd_aaaaaaaaaaaa' } }), 400, 'invalid_request')).toBeNull();
  });
  it('unwatching an id the Record does not hold is scored like a not-found id; a real unwatch is not', () => {
    const path = input({ params: { product_id: 'prd_zzzzzzzzzzzz' } });
    expect(observe(capabilities.unwatch_product, path, 200, null, 'unsupported')).toEqual({ kind: 'not_found', value: 'prd_zzzzzzzzzzzz' });
    expect(observe(capabilities.unwatch_product, path, 200, null, 'supported')).toBeNull();
  });
});
