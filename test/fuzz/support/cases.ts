import fc from 'fast-check';
import { z } from 'zod';
import { capabilityList, type Capability } from '@evidence-record/contract';

/**
 * Fuzz cases for the public REST surface: requests generated from each
 * capability's own zod schemas (via JSON Schema), then bent past them.
 * A case is raw HTTP: method, path (already encoded, possibly wrongly on
 * purpose), headers and body bytes, so nothing in the client "fixes" it.
 */
export interface FuzzCase {
  kind: string;
  /** The capability the case was derived from (the request may no longer reach it). */
  capability: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  chunked?: boolean;
  /** false: the case carries its own (bad) credentials, or none. */
  withKey: boolean;
}

/** Real identifiers and cursors, so that generated requests also reach deep paths of the services. */
export interface FuzzWorld {
  productIds: string[];
  signalIds: string[];
  ingredientIds: string[];
  editionIds: string[];
  brandIds: string[];
  feedCursor: string;
  snapshotCursor: string;
  key: string;
  /** A second key for MCP cases: their tool calls are metered and scored by the stack's own gateway. */
  mcpKey: string;
  /** The public host the MCP service is published under (its DNS-rebinding allow-list). */
  mcpHost: string;
}

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  format?: string;
};

export const attackStrings = [
  "' OR '1'='1",
  "'; DROP TABLE products; --",
  "prd_aaaaaaaaaaaa' OR 1=1 --",
  '1; SELECT pg_sleep(10); --',
  "$$; COPY products TO '/tmp/x'; $$",
  '\\x00\\x27',
  '%27%20OR%201=1',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  'prd_aaaaaaaaaaaa\r\nX-Injected: 1',
  'line\r\nSet-Cookie: a=b',
  'nul\u0000byte',
  '\u0000',
  '\u202eevil\u202c',
  'rtl \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627',
  'zero\u200bwidth\ufeff',
  '\ud800',
  'lone \udfff surrogate',
  '\ud83d\ude00 emoji \ud83c\udff3\ufe0f\u200d\ud83c\udf08',
  'ｐｒｄ＿ａａａａａａａａａａａａ',
  'PRD_AAAAAAAAAAAA',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  '__proto__',
  'constructor',
  ' ',
  '',
  'a'.repeat(121),
  'b'.repeat(301),
];

/** Percent-encodes like encodeURIComponent, but also lone surrogates (as the bytes a broken client would send). */
export function pct(s: string): string {
  let out = '';
  for (const ch of s) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const cp = ch.codePointAt(0)!;
      out += `%${(0xe0 | (cp >> 12)).toString(16).toUpperCase()}%${(0x80 | ((cp >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (cp & 0x3f)).toString(16).toUpperCase()}`;
    }
  }
  return out;
}

function idFor(field: string, world: FuzzWorld): fc.Arbitrary<string> | null {
  if (field === 'product_id' || field === 'product_ids') return fc.constantFrom(...world.productIds);
  if (field === 'signal_id') return fc.constantFrom(...world.signalIds);
  if (field === 'ingredient_ids') return fc.constantFrom(...world.ingredientIds);
  if (field === 'edition_id') return fc.constantFrom(...world.editionIds);
  if (field === 'brand') return fc.constantFrom(...world.brandIds);
  if (field === 'cursor') return fc.constantFrom(world.feedCursor, world.snapshotCursor);
  if (field === 'dimension') return fc.constantFrom('formula', 'serving', 'price', 'identity');
  if (field === 'category') return fc.constant('pre-workout');
  return null;
}

/** A fast-check arbitrary for the values a JSON Schema (from z.toJSONSchema) accepts; real ids mixed in by field name. */
export function fromJsonSchema(schema: JsonSchema, world: FuzzWorld, field = ''): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object': {
      const props = schema.properties ?? {};
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries(props)) shape[name] = fromJsonSchema(s, world, name);
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(fromJsonSchema(schema.items ?? {}, world, field), { minLength: schema.minItems ?? 0, maxLength: schema.maxItems ?? 10 });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      const real = idFor(field, world);
      const generated = schema.pattern
        ? // fast-check cannot generate from lookarounds: generate from the pattern without them (a superset), which is all the better for a fuzzer.
          fc.stringMatching(new RegExp(schema.pattern.replace(/\(\?<?[!=][^)]*\)/g, ''))).filter((s) => s.length <= (schema.maxLength ?? Infinity))
        : fc.oneof(
            fc.string({ minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 40 }),
            fc.string({ minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 40, unit: 'grapheme' }),
            fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40), unit: 'binary' }),
            fc.constantFrom('citrulline', 'caffeine', 'IV Surge', 'Pre-Workout', 'beta-alanine', 'ironvale'),
          );
      return real ? fc.oneof({ arbitrary: real, weight: 3 }, { arbitrary: generated, weight: 2 }) : generated;
    }
    default:
      return fc.anything();
  }
}

const weird: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_VALUE, -0, Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE),
  fc.array(fc.string(), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
  fc.constantFrom(...attackStrings),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer({ min: 121, max: 6000 }).map((n) => 'x'.repeat(n)),
);

type Input = { params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> | undefined };

function schemaOf(s: z.ZodType | null): JsonSchema | null {
  return s ? (z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : null;
}

function render(cap: Capability, input: Input, opts: { rawParams?: boolean } = {}): { path: string; body: string | undefined } {
  let path = cap.path;
  for (const [name, value] of Object.entries(input.params)) path = path.replace(`:${name}`, opts.rawParams ? String(value) : pct(typeof value === 'string' ? value : JSON.stringify(value) ?? ''));
  const qs: string[] = [];
  for (const [name, value] of Object.entries(input.query)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) qs.push(`${pct(name)}=${pct(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`);
  }
  if (qs.length > 0) path += `?${qs.join('&')}`;
  return { path, body: input.body === undefined ? undefined : JSON.stringify(input.body) };
}

function fieldsOf(input: Input): Array<{ part: 'params' | 'query' | 'body'; name: string }> {
  const out: Array<{ part: 'params' | 'query' | 'body'; name: string }> = [];
  for (const part of ['params', 'query', 'body'] as const) for (const name of Object.keys(input[part] ?? {})) out.push({ part, name });
  return out;
}

function withField(input: Input, part: 'params' | 'query' | 'body', name: string, value: unknown): Input {
  const next: Input = { params: { ...input.params }, query: { ...input.query }, body: input.body === undefined ? undefined : { ...input.body } };
  if (part === 'body') next.body = { ...(next.body ?? {}), [name]: value };
  else next[part][name] = value;
  return next;
}

const jsonHeaders = { 'content-type': 'application/json' };

function deep(depth: number, array: boolean): string {
  return array ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Every kind of case, for one capability. */
function casesFor(cap: Capability, world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  const schemas = { params: schemaOf(cap.params)!, query: schemaOf(cap.query)!, body: schemaOf(cap.body) };
  const valid: fc.Arbitrary<Input> = fc.record({
    params: fromJsonSchema(schemas.params, world) as fc.Arbitrary<Record<string, unknown>>,
    query: fromJsonSchema(schemas.query, world) as fc.Arbitrary<Record<string, unknown>>,
    body: schemas.body ? (fromJsonSchema(schemas.body, world) as fc.Arbitrary<Record<string, unknown>>) : fc.constant(undefined),
  });
  const base = (kind: string, input: Input, extra: Partial<FuzzCase> = {}): FuzzCase => {
    const { path, body } = render(cap, input);
    return { kind, capability: cap.name, method: cap.method, path, headers: body !== undefined ? { ...jsonHeaders } : {}, body, withKey: true, ...extra };
  };
  const pickField = (input: Input) => fc.constantFrom(...(fieldsOf(input).length ? fieldsOf(input) : [{ part: (cap.body ? 'body' : 'query') as 'body' | 'query', name: 'extra' }]));

  const arbs: Array<{ arbitrary: fc.Arbitrary<FuzzCase>; weight: number }> = [
    { weight: 8, arbitrary: valid.map((i) => base('schema-valid', i)) },
    {
      weight: 4,
      arbitrary: valid.chain((i) => fc.tuple(pickField(i), weird).map(([f, v]) => base(`wrong-type:${f.part}.${f.name}`, withField(i, f.part, f.name, v)))),
    },
    {
      weight: 4,
      arbitrary: valid.chain((i) => fc.tuple(pickField(i), fc.constantFrom(...attackStrings)).map(([f, v]) => base(`attack-string:${f.part}.${f.name}`, withField(i, f.part, f.name, v)))),
    },
    {
      weight: 2,
      arbitrary: valid.chain((i) =>
        fc
          .tuple(fc.constantFrom<'query' | 'body'>(...(cap.body ? (['query', 'body'] as const) : (['query'] as const))), fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'x-er-org-id', '$where', 'Query', 'product_id ', 'PRODUCT_ID')), weird)
          .map(([part, name, v]) => base(`unknown-property:${part}.${name}`, withField(i, part, name, v))),
      ),
    },
    {
      weight: 1,
      arbitrary: valid.map((i) => {
        const f = fieldsOf(i)[0];
        if (!f) return base('drop-required:none', i);
        const next = { params: { ...i.params }, query: { ...i.query }, body: i.body ? { ...i.body } : undefined };
        if (f.part === 'body') delete next.body![f.name];
        else delete next[f.part][f.name];
        if (f.part === 'params') return { ...base('drop-required:path', i), path: cap.path.replace(/:[a-z_]+/, '') };
        return base(`drop-required:${f.part}.${f.name}`, next);
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.integer({ min: 50, max: 4000 }), fc.boolean()).map(([i, depth, array]) => {
        const c = base(`deep-nesting:${array ? 'array' : 'object'}:${depth}`, i);
        return { ...c, body: cap.body ? (array ? `{"${Object.keys(i.body ?? { x: 1 })[0] ?? 'x'}":${deep(depth, true)}}` : deep(depth, false)) : undefined, headers: cap.body ? { ...jsonHeaders } : {} };
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).map(([i, n]) => {
        const json = JSON.stringify(i.body ?? {});
        const first = Object.keys(i.body ?? {})[0] ?? 'query';
        const raws: Array<string | Buffer> = [
          `{"${first}":"a","${first}":${JSON.stringify((i.body ?? {})[first] ?? 'b')}}`,
          `${json.slice(0, -1)},"${first}":null}`,
          json.slice(0, Math.max(1, n % Math.max(1, json.length))),
          `\ufeff${json}`,
          `${json} trailing`,
          `${json}${json}`,
          'null',
          '[]',
          '""',
          '1e999',
          'true',
          '{"__proto__":{"polluted":true}}',
          '{"constructor":{"prototype":{"polluted":true}}}',
          `{${first}: 'single'}`,
          `{"${first}": NaN}`,
          '{/* comment */}',
          Buffer.from(json, 'utf16le'),
          Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
          '{"\\ud800":1}',
          `{"${first}":"\\u0000"}`,
          '',
        ];
        const raw = raws[n % raws.length]!;
        return { ...base(`raw-body:${n % raws.length}`, i), body: raw, headers: { ...jsonHeaders } };
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/JSON',
            'application/json;charset=latin1',
            'application/vnd.api+json',
            'application/json, text/plain',
            'application/json; charset=utf-8; extra=1',
            '',
          ),
        )
        .map(([i, type]): FuzzCase => {
          const c = base(`content-type:${type || 'none'}`, i);
          const headers: Record<string, string> = type ? { 'content-type': type } : {};
          return { ...c, body: c.body ?? '{}', headers };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, fc.integer({ min: 8193, max: 40_000 }), fc.boolean()).map(([i, size, chunked]) => {
        const field = Object.keys(i.body ?? {})[0] ?? 'query';
        const body = JSON.stringify({ [field]: 'x'.repeat(size) });
        return { ...base(`oversized:${chunked ? 'chunked' : 'length'}`, i), body, headers: { ...jsonHeaders }, chunked };
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS')).map(([i, method]) => ({ ...base(`method:${method}`, i), method })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.oneof(
            fc.constantFrom('0', '26', '-1', '1e1', '0x10', '1.5', ' 5', 'NaN', 'Infinity', '25 ', '٣', '', '99999999999999999999'),
            fc.constantFrom('2026-02-30', '2026-13-01', '99999-01-01', '2026-1-1', '2026-11-21T00:00:00Z', '0000-00-00', '2100-01-01', '1900-01-01'),
          ),
          fc.constantFrom('limit', 'since', 'until', 'from', 'to', 'period', 'cursor', 'product_id', 'brand', 'dimension', 'category'),
          fc.boolean(),
        )
        .map(([i, value, name, repeat]) => {
          const c = base(`query:${name}`, i);
          const sep = c.path.includes('?') ? '&' : '?';
          return { ...c, path: `${c.path}${sep}${name}=${pct(value)}${repeat ? `&${name}=${pct(value)}` : ''}` };
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 80 }),
            fc.base64String({ minLength: 4, maxLength: 200 }),
            fc.constantFrom(world.feedCursor, world.snapshotCursor).chain((cur) =>
              fc.nat({ max: Math.max(0, cur.length - 1) }).map((at) => `${cur.slice(0, at)}${cur[at] === 'A' ? 'B' : 'A'}${cur.slice(at + 1)}`),
            ),
            fc.constantFrom(world.feedCursor.slice(0, -2), `${world.feedCursor}x`, world.snapshotCursor, world.feedCursor, 'x'.repeat(512), 'x'.repeat(513), '..', '%00', 'null'),
            fc.constantFrom(Buffer.from(JSON.stringify({ v: 1, after: { released_on: '2999-01-01', signal_id: 'sig_zzzzzzzzzzzz' } })).toString('base64url')),
          ),
          fc.constantFrom('/api/v1/signals', '/api/v1/category/snapshot', '/api/v1/signals?product_id=' + world.productIds[0], '/api/v1/signals?dimension=price'),
        )
        .map(([, cursor, target]) => ({
          kind: `cursor:${target.split('?')[0]}`,
          capability: target.startsWith('/api/v1/signals') ? 'list_signal_changes' : 'get_category_snapshot',
          method: 'GET',
          path: `${target}${target.includes('?') ? '&' : '?'}cursor=${pct(cursor)}`,
          headers: {},
          withKey: true,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            ['x-er-org-id', 'org_aaaaaaaaaaaa'],
            ['x-er-account-id', 'acc_aaaaaaaaaaaa'],
            ['x-er-plan-id', 'demo'],
            ['x-er-key-id', 'aaaaaaaaaaaaaaaa'],
            ['x-er-watch-limit', '100000'],
            ['x-budget-entities', ''],
            ['x-service-origin', 'mcp'],
            ['x-service-origin', 'internal'],
            ['x-service-origin', 'API'],
            ['x-service-origin', ''],
            ['x-request-id', 'req_000000000000000000000000'],
            ['x-request-id', "'; DROP TABLE usage_log; --"],
            ['x-forwarded-for', '127.0.0.1'],
            ['x-forwarded-host', 'evil.example'],
            ['origin', 'https://evil.example'],
            ['cookie', 'session=1'],
            ['accept', 'text/html'],
            ['accept-encoding', 'gzip, br'],
          ),
        )
        .map(([i, [name, value]]) => {
          const c = base(`header:${name}`, i);
          return { ...c, headers: { ...c.headers, [name!]: value! } };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            {},
            { authorization: 'Bearer' },
            { authorization: 'Basic dXNlcjpwYXNz' },
            { authorization: `bearer ${world.key}x` },
            { authorization: `Bearer ${world.key.replace(/_[^_]+$/, '_' + 'A'.repeat(32))}` },
            { 'x-service-key': 'sk_live_0000000000000000_' + '0'.repeat(32) },
            { authorization: `Bearer ${world.key}`, 'x-service-key': 'sk_test_aaaaaaaaaaaaaaaa_' + 'b'.repeat(32) },
            { authorization: `Bearer ${"' OR 1=1 --"}` },
            { authorization: `Bearer ${'sk_'.repeat(400)}` },
          ),
          fc.boolean(),
        )
        .map(([i, headers, inQuery]) => {
          const c = base('credentials', i);
          const path = inQuery ? `${c.path}${c.path.includes('?') ? '&' : '?'}key=${pct(world.key)}` : c.path;
          return { ...c, path, headers: { ...c.headers, ...(headers as Record<string, string>) }, withKey: false };
        }),
    },
  ];
  if (cap.path.includes(':')) {
    arbs.push({
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.oneof(
            fc.constantFrom(
              '..', '%2e%2e', '%2E%2E%2Fledger', '..%2F..%2Fledger', '%252e%252e', '%c0%ae%c0%ae', '%00', 'prd_aaaaaaaaaaaa%00', 'prd_aaaaaaaaaaaa%2F', '%zz',
              '%', 'prd_%61aaaaaaaaaaa', '%E2%80%AE', '%ED%A0%80', 'prd_aaaaaaaaaaaa;drop', 'prd_aaaaaaaaaaaa..', '.', '~', '*', "prd_'aaaaaaaaaaa",
            ),
            fc.string({ unit: 'binary', maxLength: 30 }).map(pct),
            fc.integer({ min: 121, max: 3000 }).map((n) => 'p'.repeat(n)),
          ),
        )
        .map(([i, segment]) => {
          const param = Object.keys(i.params)[0]!;
          return { ...base(`path-param:${param}`, i), path: render(cap, { ...i, params: { ...i.params, [param]: segment } }, { rawParams: true }).path };
        }),
    });
  }
  return fc.oneof(...arbs);
}

/** Paths around the real ones: traversal, encodings, case, slashes, other versions, plausible undocumented routes. */
export function strayPaths(world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  const p = world.productIds[0]!;
  return fc
    .tuple(
      fc.oneof(
        fc.constantFrom(
          '/api/v1/products/../ledger', '/api/v1/products/%2e%2e/ledger', `/api/v1/products/${p}/../../ledger`, '/api/v1//products/resolve', '/api/v1/products/resolve/',
          '/API/V1/products/resolve', '/api/V1/record/version', '/api/v1/record/version/', '/api/v1/record/version%2F', '/api/v1/record%2Fversion', '/api/v1/record/version?',
          '/api/v1/record/version#x', '/api/v1/export', '/api/v1/products', '/api/v1/products/', '/api/v1/products/list', '/api/v1/brands', '/api/v1/ingredients',
          '/api/v1/admin', '/api/v1/keys', '/api/v1/usage', '/api/v1/debug', '/api/v1/metrics', '/api/v1/graphql', '/api/v1/sql', '/api/v2/record/version', '/api/v0/health',
          '/api/v1/openapi.yaml', '/api/v1/health/..', `/api/v1/products/${p}/history/extra`, `/api/v1/products/${p}/prices`, '/api/v1/signals/', '/api/v1/watch/',
          '/api/v1/ledger/', '/api/v1/%00', '/api/v1/%', '/api/v1/\u00e9', '/api/v1/' + 'a'.repeat(3000), '/api/v1/record/version;jsessionid=1', '/api/v1/./record/version',
        ),
        fc.webPath().map((w) => `/api/v1${w.startsWith('/') ? w : `/${w}`}`),
        fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map(pct), { minLength: 1, maxLength: 5 }).map((segs) => `/api/v1/${segs.join('/')}`),
      ),
      fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'),
    )
    .map(([path, method]) => ({ kind: 'stray-path', capability: 'unknown', method, path, headers: method === 'POST' ? { ...jsonHeaders } : {}, body: method === 'POST' ? '{}' : undefined, withKey: true }));
}

/** JSON-RPC over `/mcp`: tool calls with generated and bent arguments, other methods, broken envelopes and headers. */
export function mcpCases(world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  const toolNames = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...capabilityList.map((c) => c.tool)) },
    { weight: 2, arbitrary: fc.constantFrom(...capabilityList.map((c) => `service_${c.name}`)) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '../tools', 'record.export', '__proto__')) },
  );
  const argumentsFor = fc.constantFrom(...capabilityList).chain((cap) => {
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of [cap.params, cap.query, cap.body]) {
      const js = schemaOf(part);
      if (!js) continue;
      Object.assign(merged.properties!, js.properties ?? {});
      merged.required!.push(...(js.required ?? []));
    }
    return fc.oneof(
      { weight: 4, arbitrary: fromJsonSchema(merged, world) },
      { weight: 2, arbitrary: fromJsonSchema(merged, world).chain((a) => fc.tuple(fc.constantFrom(...Object.keys(merged.properties!), 'extra'), weird).map(([k, v]) => ({ ...(a as object), [k]: v }))) },
      { weight: 1, arbitrary: weird },
    );
  });
  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.constant({ nested: 1 }));
  const message = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(id, toolNames, argumentsFor).map(([i, name, args]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(id, fc.constantFrom('initialize', 'tools/list', 'ping', 'resources/list', 'prompts/list', 'resources/read', 'completion/complete', 'logging/setLevel', 'tools/call', 'nope'), weird)
        .map(([i, method, params]) => ({ jsonrpc: '2.0', id: i, method, params })),
    },
    { weight: 1, arbitrary: fc.tuple(id, weird).map(([i, v]) => ({ jsonrpc: '1.0', id: i, method: v })) },
    { weight: 1, arbitrary: fc.constant({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
  );
  const body = fc.oneof(
    { weight: 8, arbitrary: message.map((m) => JSON.stringify(m)) },
    { weight: 1, arbitrary: fc.array(message, { minLength: 0, maxLength: 4 }).map((ms) => JSON.stringify(ms)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'null', '[]', '"x"', '{"jsonrpc":"2.0","id":1,"method":"tools/list","id":2}', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'['.repeat(3000)}${']'.repeat(3000)}}`) },
  );
  const headers = fc.record({
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*', ''),
    contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', ''),
    version: fc.constantFrom('2025-06-18', '2025-03-26', '2024-11-05', '2025-06-18', '1999-01-01', '', 'none'),
    origin: fc.constantFrom('none', 'none', 'none', 'https://evil.example', 'null'),
  });
  return fc
    .tuple(body, headers, fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT'))
    .map(([b, h, method]) => {
      const out: Record<string, string> = { authorization: `Bearer ${world.mcpKey}`, host: world.mcpHost };
      if (h.accept) out.accept = h.accept;
      if (h.contentType) out['content-type'] = h.contentType;
      if (h.version !== 'none') out['mcp-protocol-version'] = h.version;
      if (h.origin !== 'none') out.origin = h.origin;
      return { kind: 'mcp', capability: 'mcp', method, path: '/mcp', headers: out, body: method === 'POST' ? b : undefined, withKey: false };
    });
}

/** The whole case distribution: every capability equally, stray paths, and the MCP endpoint. */
export function fuzzCases(world: FuzzWorld): fc.Arbitrary<FuzzCase> {
  return fc.oneof(...capabilityList.map((cap) => ({ arbitrary: casesFor(cap, world), weight: 1 })), { arbitrary: strayPaths(world), weight: 2 }, { arbitrary: mcpCases(world), weight: 2 });
}
