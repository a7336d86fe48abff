import { describe, expect, it } from 'vitest';
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
