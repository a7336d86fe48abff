import { describe, expect, it } from 'vitest';
import { capabilities } from '@evidence-record/contract';
import { parseQuery } from '../src/http/io';
import { validateRequest } from '../src/http/validate';

describe('request validation', () => {
  const body = (o: unknown) => Buffer.from(JSON.stringify(o));
  const json = { 'content-type': 'application/json' };
  it('names an unknown property', () => {
    const v = validateRequest(capabilities.resolve_product, {}, '/x', json, body({ identifier: 'a', nope: 1 }));
    expect(v).toMatchObject({ ok: false, details: { location: 'body', field: 'nope' } });
  });
  it('names a field of the wrong type, a bad query parameter and a bad path parameter', () => {
    expect(validateRequest(capabilities.compare_products, {}, '/x', json, body({ product_ids: 'prd_aaaaaaaaaaaa' }))).toMatchObject({ ok: false, details: { field: 'product_ids' } });
    expect(validateRequest(capabilities.list_signal_changes, {}, '/x?limit=26', {}, Buffer.alloc(0))).toMatchObject({ ok: false, details: { location: 'query', field: 'limit' } });
    expect(validateRequest(capabilities.list_signal_changes, {}, '/x?limit=2&limit=3', {}, Buffer.alloc(0))).toMatchObject({ ok: false, details: { field: 'limit' } });
    expect(validateRequest(capabilities.get_product_record, { product_id: 'Brand Name' }, '/x', {}, Buffer.alloc(0))).toMatchObject({ ok: false, details: { location: 'path', field: 'product_id' } });
  });
  it('wants application/json bodies, no body on GET, and a known X-Service-Origin', () => {
    expect(validateRequest(capabilities.resolve_product, {}, '/x', { 'content-type': 'text/plain' }, body({ identifier: 'a' }))).toMatchObject({ ok: false, details: { field: 'content-type' } });
    expect(validateRequest(capabilities.resolve_product, {}, '/x', json, Buffer.from('{"identifier":'))).toMatchObject({ ok: false, details: { field: 'body' } });
    expect(validateRequest(capabilities.get_record_version, {}, '/x', json, body({}))).toMatchObject({ ok: false, details: { field: 'body' } });
    expect(validateRequest(capabilities.get_record_version, {}, '/x', { 'x-service-origin': 'browser' }, Buffer.alloc(0))).toMatchObject({ ok: false, details: { field: 'x-service-origin' } });
    expect(validateRequest(capabilities.get_record_version, {}, '/x', { 'x-service-origin': 'mcp' }, Buffer.alloc(0))).toMatchObject({ ok: true, origin: 'mcp' });
  });
  it('parses repeated query parameters as arrays', () => {
    expect(parseQuery('/x?a=1&a=2&b=3')).toEqual({ a: ['1', '2'], b: '3' });
  });
});
