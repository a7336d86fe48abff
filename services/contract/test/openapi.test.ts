import { describe, expect, it } from 'vitest';
import { answerEnvelopeOf, answerObjects, buildOpenApiDocument, closedSchema, capabilityList, DEFAULT_PAGE_SIZE, ErrorEnvelope, errorCodes, MAX_PAGE_SIZE, refusalsOf } from '../src/index';

/* eslint-disable @typescript-eslint/no-explicit-any -- walking a JSON document */
const doc = buildOpenApiDocument() as any;
const toPath = (p: string) => p.replace(/:([a-z_]+)/g, '{$1}');
const opOf = (name: string) => {
  const cap = capabilityList.find((c) => c.name === name)!;
  return doc.paths[toPath(cap.path)][cap.method.toLowerCase()];
};
const resolveRef = (node: any) => (node?.$ref ? node.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], doc) : node);

describe('the OpenAPI document', () => {
  it('lists on each operation every refusal its gateway checks and handler can return, by HTTP status', () => {
    for (const cap of capabilityList) {
      const responses = opOf(cap.name).responses;
      const statuses = Object.keys(responses).sort();
      const expected = [...new Set(refusalsOf(cap).map((c) => String(errorStatus(c))))].concat('200').sort();
      expect(statuses, cap.name).toEqual(expected);
      for (const code of refusalsOf(cap)) {
        const response = responses[String(errorStatus(code))];
        expect(response.description, `${cap.name} ${code}`).toContain(`\`${code}\``);
        expect(response.content['application/json'].examples[code], `${cap.name} ${code}`).toEqual({ $ref: `#/components/examples/${code}` });
      }
    }
    // Handlers that answer not_found for an id the Record does not hold.
    for (const name of ['compare_products', 'get_research_context', 'get_regulatory_context', 'get_product_record', 'explain_signal', 'get_ledger_edition', 'watch_product']) {
      expect(opOf(name).responses['404'], name).toBeDefined();
    }
    // Unwatching a product that is not watched succeeds (spec, Behaviours 9); searching and the feed name no id.
    for (const name of ['unwatch_product', 'search_record', 'list_signal_changes', 'get_record_version']) expect(opOf(name).responses['404'], name).toBeUndefined();
    expect(Object.keys(opOf('watch_product').responses)).toContain('409');
    expect(opOf('get_record_version').responses['429'].description).not.toContain('extraction_limit_reached');
  });

  it('describes the headers of every response: request id everywhere, rate limits and cache control, Retry-After on every 429', () => {
    for (const cap of capabilityList) {
      for (const [status, response] of Object.entries<any>(opOf(cap.name).responses)) {
        const names = Object.keys(response.headers ?? {});
        expect(names, `${cap.name} ${status}`).toEqual(expect.arrayContaining(['X-Request-Id', 'Cache-Control']));
        if (status !== '401') expect(names, `${cap.name} ${status}`).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']));
        expect(names.includes('Retry-After'), `${cap.name} ${status}`).toBe(status === '429');
        expect(names.includes('WWW-Authenticate'), `${cap.name} ${status}`).toBe(status === '401');
      }
    }
    expect(resolveRef({ $ref: '#/components/headers/Cache-Control' }).schema.const).toBe('private, no-store, max-age=0, must-revalidate');
    expect(Object.keys(doc.paths['/api/v1/health'].get.responses['200'].headers)).toEqual(['X-Request-Id', 'Cache-Control']);
    expect(Object.keys(doc.paths['/api/v1/openapi.json'].get.responses['200'].headers)).toEqual(['X-Request-Id', 'Cache-Control']);
  });

  it('describes every parameter with its meaning, default and format', () => {
    for (const cap of capabilityList) {
      for (const p of opOf(cap.name).parameters ?? []) {
        const param = resolveRef(p);
        expect(param.description, `${cap.name} ${param.name}`).toMatch(/\w{3,}/);
        expect(param.example, `${cap.name} ${param.name}`).toBeDefined();
      }
    }
    const feed = Object.fromEntries(opOf('list_signal_changes').parameters.map((p: any) => [p.name, p]));
    expect(feed.since.description).toMatch(/exclusive/);
    expect(feed.since.schema.format).toBe('date');
    expect(feed.until.description).toMatch(/inclusive/);
    expect(feed.limit.schema).toMatchObject({ default: DEFAULT_PAGE_SIZE, maximum: MAX_PAGE_SIZE });
    expect(feed.cursor.description).toMatch(/bound to the filters/);
    const receipt = opOf('get_watch_receipt').parameters.find((p: any) => p.name === 'period');
    expect(receipt.schema).toMatchObject({ format: 'YYYY-MM', maxLength: 7 });
    expect(receipt.description).toMatch(/default the current month/);
  });

  it('keeps answers open to additive change, and requests closed', () => {
    const closed: string[] = [];
    const walk = (node: any, path: string) => {
      if (!node || typeof node !== 'object') return;
      if (node.additionalProperties === false) closed.push(path);
      for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
    };
    walk(doc.components.schemas, '#/components/schemas');
    expect(closed).toEqual([]);
    // The error code is an open enum: known codes listed, any string accepted.
    expect(doc.components.schemas.ErrorCode.anyOf).toEqual([{ type: 'string', enum: errorCodes }, { type: 'string' }]);
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code).toEqual({ $ref: '#/components/schemas/ErrorCode' });
    // Unknown request properties are refused, and the document says so.
    expect(opOf('search_record').requestBody.content['application/json'].schema.additionalProperties).toBe(false);
  });

  it('types every answer object, per operation', () => {
    const envelope = doc.components.schemas.AnswerEnvelope.properties;
    for (const field of ['coverage', 'ledger', 'watch']) expect(envelope[field].$ref ?? envelope[field].anyOf, field).toBeDefined();
    expect(envelope.comparison.$ref).toBe('#/components/schemas/Comparison');
    expect(envelope.record_as_of.description).toMatch(/committed Record state/);
    expect(envelope.record_timestamp.description).toMatch(/not the current time/);
    const search = opOf('search_record').responses['200'].content['application/json'].schema;
    expect(search.allOf[1].properties.coverage).toEqual({ $ref: '#/components/schemas/SearchCoverage' });
    const receipt = opOf('get_watch_receipt').responses['200'].content['application/json'].schema;
    expect(Object.keys(receipt.allOf[1].properties).sort()).toEqual(['coverage', 'watch']);
    expect(doc.components.schemas.Coverage.anyOf.length).toBeGreaterThanOrEqual(10);
  });

  it('has an example per operation that its own capability envelope accepts', () => {
    for (const cap of capabilityList) {
      const op = opOf(cap.name);
      const example = op.responses['200'].content['application/json'].example;
      expect(answerEnvelopeOf(cap.name).safeParse(example).success, cap.name).toBe(true);
      for (const [field, schema] of Object.entries(answerObjects[cap.name])) {
        const parsed = closedSchema(schema).safeParse(example[field]);
        expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), `${cap.name}.${field}`).toEqual([]);
      }
      if (cap.body) expect(cap.body.safeParse(op.requestBody.content['application/json'].example).success, cap.name).toBe(true);
    }
    for (const [code, example] of Object.entries<any>(doc.components.examples)) {
      expect(ErrorEnvelope.safeParse(example.value).success, code).toBe(true);
    }
  });

  it('states its decisions as text, not as paths into a repository, and links the changelog', () => {
    for (const [key, text] of Object.entries<any>(doc['x-decisions'])) {
      expect(typeof text, key).toBe('string');
      expect(text, key).not.toMatch(/docs\/|decisions\/|\.md\b/);
    }
    expect(doc.externalDocs.url).toMatch(/CHANGELOG\.md$/);
    expect(doc.info.description).toContain('Changelog');
  });
});

function errorStatus(code: string): number {
  return (doc['x-error-codes'][code] as { http_status: number }).http_status;
}
