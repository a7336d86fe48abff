import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, capabilityByTool, capabilityList, errorCatalogue, selfServiceScopes } from '../src/index';

describe('capability table', () => {
  it('has the 18 capabilities of the spec, each with one tool and a unique method+path', () => {
    expect(capabilityList).toHaveLength(18);
    expect(new Set(capabilityList.map((c) => c.tool)).size).toBe(18);
    expect(new Set(capabilityList.map((c) => `${c.method} ${c.path}`)).size).toBe(18);
  });

  it('resolves tools by name and by the legacy service_ prefix', () => {
    expect(capabilityByTool('products.resolve')?.name).toBe('resolve_product');
    expect(capabilityByTool('service_resolve_product')?.name).toBe('resolve_product');
    expect(capabilityByTool('export_record')).toBeUndefined();
  });

  it('never puts ledger or watch scopes on a self-service key', () => {
    expect(selfServiceScopes).not.toContain('ledger:read');
    expect(selfServiceScopes).not.toContain('watch:manage');
  });

  it('pages exactly the capabilities whose query takes a cursor: the gateway may shorten only those, and they can give the rest', () => {
    const queryKeys = (cap: (typeof capabilityList)[number]) => Object.keys((z.toJSONSchema(cap.query, { io: 'input' }) as { properties?: object }).properties ?? {});
    for (const cap of capabilityList) expect(queryKeys(cap).includes('cursor') && queryKeys(cap).includes('limit'), cap.name).toBe(cap.paged);
  });

  it("lists in each module only refusals its handler answers, never one of the gateway's own checks", () => {
    const gatewayChecks = ['invalid_credentials', 'insufficient_scope', 'plan_entitlement_required', 'key_suspended', 'account_binding_required', 'invalid_request', 'payload_too_large', 'rate_limited', 'extraction_limit_reached', 'extraction_pattern_refused', 'internal_error', 'unsupported_capability', 'method_not_allowed'];
    for (const cap of capabilityList) {
      for (const code of cap.refusals) expect(gatewayChecks, `${cap.name} ${code}`).not.toContain(code);
      expect(new Set(cap.refusals).size, cap.name).toBe(cap.refusals.length);
    }
  });

  it('only get_record_version spends nothing', () => {
    expect(capabilityList.filter((c) => c.cost === 'nothing').map((c) => c.name)).toEqual(['get_record_version']);
  });
});

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as { openapi: string; paths: Record<string, Record<string, { operationId: string }>>; 'x-error-codes': Record<string, unknown> };

  it('is OpenAPI 3.1 and describes every capability, health and itself', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(operations.sort()).toEqual([...capabilityList.map((c) => c.name), 'health', 'openapi'].sort());
  });

  it('documents every error code', () => {
    expect(Object.keys(doc['x-error-codes']).sort()).toEqual(Object.keys(errorCatalogue).sort());
  });
});
