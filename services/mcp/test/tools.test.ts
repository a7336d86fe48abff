import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capabilityList } from '@evidence-record/contract';
import { toRestRequest } from '../src/arguments';
import { negotiateProtocolVersion } from '../src/methods/initialize';
import { buildToolCatalogue, type ToolDefinition } from '../src/tools';
import { mcpToolTable } from './spec-tools';

/** The spec's tool table (written out once, beside this test, apart from the capability modules), so that a drift in the modules fails this test. */
const specTools: Record<string, string> = mcpToolTable;

const catalogue = buildToolCatalogue();
const tool = (name: string): ToolDefinition => {
  const found = catalogue.find(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe('tool catalogue', () => {
  it('lists exactly the 18 tools of the spec, each mapped to its capability', () => {
    expect(catalogue.listed.map((t) => t.name).sort()).toEqual(Object.keys(specTools).sort());
    for (const [name, capability] of Object.entries(specTools)) expect(tool(name).capability.name).toBe(capability);
  });

  it('finds every legacy name service_<capability> but never lists one', () => {
    for (const [name, capability] of Object.entries(specTools)) {
      expect(catalogue.find(`service_${capability}`)?.name).toBe(name);
    }
    expect(catalogue.listed.some((t) => t.name.startsWith('service_'))).toBe(false);
    expect(catalogue.find('service_export_record')).toBeUndefined();
    expect(catalogue.find('products')).toBeUndefined();
  });

  it('generates input schemas from the same zod schemas as REST: path, query and body flattened', () => {
    for (const cap of capabilityList) {
      const expected: Record<string, unknown> = {};
      const required: string[] = [];
      for (const schema of [cap.params, cap.query, cap.body]) {
        if (!schema) continue;
        const json = z.toJSONSchema(schema, { io: 'input' }) as { properties: Record<string, unknown>; required?: string[] };
        Object.assign(expected, json.properties);
        required.push(...(json.required ?? []));
      }
      const listed = tool(cap.tool).listing.inputSchema;
      expect(listed.type).toBe('object');
      expect(listed.additionalProperties).toBe(false);
      expect(Object.keys(listed.properties).sort()).toEqual(Object.keys(expected).sort());
      for (const [key, property] of Object.entries(listed.properties)) {
        const { description, ...rest } = property;
        expect(rest).toEqual(expected[key]);
        expect(typeof description).toBe('string');
        expect((description as string).length).toBeGreaterThan(10);
      }
      expect(listed.required ?? []).toEqual(required);
    }
  });

  it('names the arguments the brief fixes for four tools', () => {
    expect(Object.keys(tool('products.get').listing.inputSchema.properties)).toEqual(['product_id']);
    expect(Object.keys(tool('signals.list').listing.inputSchema.properties).sort()).toEqual(
      ['brand', 'category', 'cursor', 'dimension', 'limit', 'product_id', 'since', 'until'],
    );
    expect(Object.keys(tool('watchlist.remove').listing.inputSchema.properties)).toEqual(['product_id']);
    expect(Object.keys(tool('watchlist.receipt').listing.inputSchema.properties)).toEqual(['period']);
    expect(tool('record.version').listing.inputSchema.properties).toEqual({});
  });

  it('annotates reads as read-only, watch changes as idempotent writes, and everything as a closed world', () => {
    for (const t of catalogue.listed) {
      const writes = t.name === 'watchlist.add' || t.name === 'watchlist.remove';
      expect(t.annotations.readOnlyHint).toBe(!writes);
      expect(t.annotations.idempotentHint).toBe(true);
      expect(t.annotations.openWorldHint).toBe(false);
      expect(t.annotations.destructiveHint).toBe(t.name === 'watchlist.remove');
      expect(t.title.length).toBeGreaterThan(5);
    }
  });

  it('writes descriptions that start with the contract line and add scope and budget guidance', () => {
    for (const cap of capabilityList) {
      const d = tool(cap.tool).listing.description;
      expect(d.startsWith(cap.description)).toBe(true);
      expect(d).toContain(cap.scope);
      expect(d).toMatch(cap.cost === 'nothing' ? /no budget/ : new RegExp(`daily ${cap.cost === 'signal' ? 'Signal' : cap.cost} budget`));
    }
  });
});

describe('arguments to a REST request', () => {
  it('puts path parameters in the path', () => {
    expect(toRestRequest(tool('products.get'), { product_id: 'prd_abc123def456' })).toEqual({
      ok: true,
      request: { method: 'GET', path: '/api/v1/products/prd_abc123def456', body: null },
    });
    expect(toRestRequest(tool('watchlist.remove'), { product_id: 'prd_abc123def456' })).toEqual({
      ok: true,
      request: { method: 'DELETE', path: '/api/v1/watch/prd_abc123def456', body: null },
    });
  });

  it('puts query parameters in the query string and leaves out absent ones', () => {
    const r = toRestRequest(tool('signals.list'), { since: '2026-01-01', limit: 5, brand: 'brd_acme' });
    expect(r).toEqual({ ok: true, request: { method: 'GET', path: '/api/v1/signals?since=2026-01-01&brand=brd_acme&limit=5', body: null } });
    expect(toRestRequest(tool('watchlist.receipt'), {})).toEqual({ ok: true, request: { method: 'GET', path: '/api/v1/watch/receipt', body: null } });
    expect(toRestRequest(tool('watchlist.receipt'), { period: '2026-10' })).toMatchObject({ ok: true, request: { path: '/api/v1/watch/receipt?period=2026-10' } });
  });

  it('puts body fields in the body, and always sends a body for body capabilities', () => {
    expect(toRestRequest(tool('products.resolve'), { identifier: 'Acme Blast' })).toEqual({
      ok: true,
      request: { method: 'POST', path: '/api/v1/products/resolve', body: { identifier: 'Acme Blast' } },
    });
    expect(toRestRequest(tool('record.version'), {})).toEqual({ ok: true, request: { method: 'GET', path: '/api/v1/record/version', body: null } });
  });

  it('refuses an unknown argument by name where the same REST request would carry it: the body, or else the query', () => {
    expect(toRestRequest(tool('products.get'), { product_id: 'prd_abc123def456', account_id: 'x' })).toEqual({
      ok: false,
      problem: { location: 'query', field: 'account_id', issues: [{ field: 'account_id', problem: 'unknown property' }] },
    });
    expect(toRestRequest(tool('products.resolve'), { identifier: 'Acme', account_id: 'x' })).toEqual({
      ok: false,
      problem: { location: 'body', field: 'account_id', issues: [{ field: 'account_id', problem: 'unknown property' }] },
    });
  });

  it('refuses malformed values with the contract rule, naming the field', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['products.get', { product_id: 'Acme Blast' }, 'product_id'],
      ['products.get', {}, 'product_id'],
      ['signals.list', { limit: 26 }, 'limit'],
      ['signals.list', { since: '2026-02-30' }, 'since'],
      ['signals.list', { since: '2026-03-01', until: '2026-02-01' }, 'since'],
      ['products.compare', { product_ids: ['prd_abc123def456'] }, 'product_ids'],
      ['products.compare', { product_ids: ['prd_abc123def456', 'prd_abc123def456'] }, 'product_ids'],
      ['ingredients.research', {}, 'ingredient_ids'],
      ['record.search', { query: '   ' }, 'query'],
      ['record.search', { query: 'x'.repeat(301) }, 'query'],
      ['watchlist.receipt', { period: '2026-13' }, 'period'],
      ['ledger.get', { edition_id: 'ed_2026_13' }, 'edition_id'],
    ];
    for (const [name, args, field] of cases) {
      const r = toRestRequest(tool(name), args);
      expect(r.ok, `${name} ${JSON.stringify(args)}`).toBe(false);
      if (!r.ok) expect(r.problem.field).toBe(field);
    }
  });
});

describe('protocol version negotiation', () => {
  it('keeps a supported version and answers our newest for any other', () => {
    expect(negotiateProtocolVersion('2025-06-18')).toBe('2025-06-18');
    expect(negotiateProtocolVersion('2026-07-28')).toBe('2025-11-25');
    expect(negotiateProtocolVersion('2025-03-26')).toBe('2025-03-26');
    expect(negotiateProtocolVersion('2024-11-05')).toBe('2024-11-05');
    expect(negotiateProtocolVersion('2025-11-25')).toBe('2025-11-25');
    expect(negotiateProtocolVersion('2024-10-07')).toBe('2025-11-25');
    expect(negotiateProtocolVersion('banana')).toBe('2025-11-25');
  });
});
