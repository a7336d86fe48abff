import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { capabilityList, type Capability, type ParameterDoc } from './capabilities';
import { decisionTexts } from './decision-texts';
import * as decisions from './decisions';
import { AnswerEnvelope, ErrorEnvelope, HealthAnswer, emptyFactArrays } from './envelope';
import { errorCatalogue, errorCodes, type ErrorCode } from './errors';
import { CACHE_CONTROL, headers } from './headers';

const toOpenApiPath = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');

/**
 * Where the changelog lives: deprecations are announced there (spec:
 * Versioning). The project has no public web address yet, so the link is the
 * file's place in the repository, which ships with the client package.
 */
export const CHANGELOG_URL = 'CHANGELOG.md';

export { decisionTexts };

const headerComponents = {
  'RateLimit-Limit': { description: 'Requests allowed in the reported window (RateLimit-Policy).', schema: { type: 'integer', minimum: 0 }, example: 30 },
  'RateLimit-Remaining': { description: 'Requests left in the reported window.', schema: { type: 'integer', minimum: 0 }, example: 29 },
  'RateLimit-Reset': { description: 'Seconds until the reported window resets.', schema: { type: 'integer', minimum: 0 }, example: 42 },
  'RateLimit-Policy': { description: 'The reported window: minute, hour or day, whichever is closest to exhaustion.', schema: { type: 'string', examples: ['minute', 'hour', 'day'] }, example: 'minute' },
  'X-Request-Id': { description: 'The request id (req_ + 24 hex); the same as request_id in the body. Quote it to support.', schema: { type: 'string', pattern: '^req_[0-9a-f]{24}$' }, example: 'req_0123456789abcdef01234567' },
  'Retry-After': {
    description: 'Seconds to wait. rate_limited: until the window admits a request (retry once). extraction_limit_reached: until 00:00 UTC, when the daily budget resets. extraction_pattern_refused: the cool-down.',
    schema: { type: 'integer', minimum: 0 },
    example: 17,
  },
  'WWW-Authenticate': {
    description: 'On every 401: the Bearer challenge (RFC 6750), with error="invalid_token" when a key was presented. It never says why the key failed.',
    schema: { type: 'string' },
    example: 'Bearer realm="evidence-record", error="invalid_token"',
  },
  'Cache-Control': { description: 'Answers are never cached by shared caches; cache on your side keyed on record_version.', schema: { type: 'string', const: CACHE_CONTROL }, example: CACHE_CONTROL },
} as const;
type HeaderName = keyof typeof headerComponents;
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const headerRefs = (names: HeaderName[], optional: HeaderName[] = []) =>
  Object.fromEntries([...names.map((n) => [n, { ...ref('headers', n) }]), ...optional.map((n) => [n, { ...ref('headers', n) }])]);
const rateHeaders: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/** Every refusal an operation can return, from the gateway's checks and its capability's handler (its module's `refusals`). */
export function refusalsOf(cap: Capability): ErrorCode[] {
  const codes: ErrorCode[] = ['invalid_credentials', 'insufficient_scope', 'plan_entitlement_required', 'key_suspended', 'invalid_request', 'payload_too_large', 'rate_limited', 'extraction_pattern_refused', 'internal_error'];
  if (cap.cost !== 'nothing') codes.push('extraction_limit_reached');
  if (cap.scope === 'watch:manage') codes.push('account_binding_required');
  codes.push(...cap.refusals);
  return codes;
}

/**
 * Parameters several capabilities take, described once by name: meaning,
 * default and format. A parameter only one capability takes is described in
 * its module (`parameters`), which wins over a shared description.
 */
const sharedParameterDocs: Record<string, ParameterDoc> = {
  product_id: { description: 'Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.', example: 'prd_0a1b2c3d4e5f' },
  signal_id: { description: 'Signal id, sig_ and 12 base-36 characters. A Signal that is not approved answers not_found, the same as an invented id.', example: 'sig_0a1b2c3d4e5f' },
  edition_id: { description: 'Ledger edition id, ed_YYYY_MM (the edition\'s UTC month).', example: 'ed_2026_10' },
  limit: { description: `Page size, 1 to ${decisions.MAX_PAGE_SIZE}; default ${decisions.DEFAULT_PAGE_SIZE}.`, example: decisions.DEFAULT_PAGE_SIZE, default: decisions.DEFAULT_PAGE_SIZE },
  cursor: {
    description: `next_cursor of the previous page. ${decisionTexts.cursor} Follow next_cursor until it is null.`,
    example: 'c1.eyJyIjoiMjAyNi0xMS0wMyJ9.sig',
  },
};

const exampleRecordState = {
  record_version: 'rv_2026_11_24_001',
  record_as_of: '2026-11-24',
  record_timestamp: '2026-11-23T18:04:11.000Z',
  methodology_version: decisions.METHODOLOGY_VERSION,
};

function answerExample(cap: Capability) {
  return {
    request_id: 'req_0123456789abcdef01234567',
    capability: cap.name,
    status: 'supported',
    summary: cap.description,
    ...emptyFactArrays(),
    limitations: ['The Record shows what labels and sources declare; it performs no laboratory testing.'],
    confidence: { level: 'high', basis: 'Read from one committed state of the Record.' },
    ...exampleRecordState,
    ...cap.examples.answer,
    disclaimer: decisions.DISCLAIMER,
  };
}

const errorDetailsExample: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  invalid_request: { location: 'query', field: 'limit', issues: [{ field: 'limit', problem: `Too big: expected number to be <=${decisions.MAX_PAGE_SIZE}` }] },
  insufficient_scope: { required_scope: 'signals:read' },
  plan_entitlement_required: { capability: 'list_ledger_editions', plan: 'free' },
  account_binding_required: { bound_accounts: 0 },
  rate_limited: { window: 'minute' },
  extraction_limit_reached: { budget: 'product', limit: 15, used: 15, remaining: 0, needed: 1 },
  watch_limit_reached: { limit: 10, count: 10 },
  not_found: { field: 'product_id' },
};

function refusalExample(code: ErrorCode) {
  return {
    request_id: 'req_0123456789abcdef01234567',
    capability: code === 'not_found' ? 'get_product_record' : code === 'watch_limit_reached' ? 'watch_product' : 'list_signal_changes',
    status: 'refused',
    error: { code, message: errorCatalogue[code].message, details: errorDetailsExample[code] ?? {}, documentation: `/api/v1/openapi.json#/x-error-codes/${code}` },
    limitations: [],
    record_version: exampleRecordState.record_version,
    disclaimer: decisions.DISCLAIMER,
  };
}

function refusalResponses(cap: Capability) {
  const codes = refusalsOf(cap);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(errorCatalogue[code].status, [...(byStatus.get(errorCatalogue[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((c) => `\`${c}\`: ${errorCatalogue[c].message} ${errorCatalogue[c].action}`).join(' '),
        headers:
          status === 401
            ? headerRefs(['X-Request-Id', 'Cache-Control', 'WWW-Authenticate'])
            : status === 429
              ? headerRefs(['X-Request-Id', 'Cache-Control', 'Retry-After', ...rateHeaders])
              : headerRefs(['X-Request-Id', 'Cache-Control', ...rateHeaders]),
        content: {
          'application/json': {
            schema: ref('schemas', 'ErrorEnvelope'),
            examples: Object.fromEntries(list.map((c) => [c, ref('examples', c)])),
          },
          // The Signal's address opened by a person (x-decisions.signal_address_page).
          ...(status === 401 && cap.name === 'explain_signal' ? { 'text/html': { schema: { type: 'string', description: decisionTexts.signal_address_page } } } : {}),
        },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 description, generated from the same zod schemas that
 * validate requests and answers. The decisions on what the spec leaves open
 * travel in it as text (`x-decisions`), next to each error code's meaning
 * and caller action (`x-error-codes`).
 */
export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_{environment}_{keyId}_{secret}. Checked identically to X-Service-Key; never accepted in a query string.' });
  registry.registerComponent('securitySchemes', 'serviceKey', { type: 'apiKey', in: 'header', name: 'X-Service-Key', description: 'The bare key, no Bearer prefix.' });
  for (const [name, header] of Object.entries(headerComponents)) registry.registerComponent('headers', name, header as never);
  // unsupported_capability and method_not_allowed answer paths and methods no operation has (info.description says so).
  for (const code of errorCodes.filter((c) => c !== 'unsupported_capability' && c !== 'method_not_allowed')) registry.registerComponent('examples', code, { summary: `${errorCatalogue[code].status} ${code}`, value: refusalExample(code) });
  registry.registerComponent('parameters', 'X-Service-Origin', {
    name: 'X-Service-Origin',
    in: 'header',
    required: false,
    description: 'Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.',
    schema: { type: 'string', enum: [...decisions.serviceOrigins] },
    example: 'api',
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v1/health',
    operationId: 'health',
    tags: ['service'],
    summary: 'Health: 200 while the service is serving',
    description: 'No key. Says nothing about source readability: source health is data inside answers, never an outage.',
    security: [],
    responses: {
      200: {
        description: 'Serving',
        headers: headerRefs(['X-Request-Id', 'Cache-Control']) as never,
        content: { 'application/json': { schema: ref('schemas', 'HealthAnswer'), example: { status: 'ok', api_version: decisions.API_VERSION } } },
      },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'openapi',
    tags: ['service'],
    summary: 'This document',
    description: 'World-readable, no key.',
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document',
        headers: {
          ...headerRefs(['X-Request-Id']),
          'Cache-Control': { description: 'The document may be cached for five minutes.', schema: { type: 'string' }, example: 'public, max-age=300' },
        } as never,
        content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
      },
    },
  });

  for (const cap of capabilityList) {
    const objects = cap.answer;
    const answerSchema =
      Object.keys(objects).length === 0
        ? ref('schemas', 'AnswerEnvelope')
        : {
            allOf: [
              ref('schemas', 'AnswerEnvelope'),
              {
                type: 'object',
                description: `The answer objects ${cap.name} fills.`,
                // Each answer object carries a meta id, so it is a component reached through the envelope's unions.
                properties: Object.fromEntries(Object.entries(objects).map(([field, schema]) => [field, ref('schemas', String(z.globalRegistry.get(schema)?.id))])),
              },
            ],
          };
    registry.registerPath({
      method: cap.method.toLowerCase() as 'get' | 'post' | 'delete',
      path: toOpenApiPath(cap.path),
      operationId: cap.name,
      tags: [cap.service],
      summary: cap.name.replace(/_/g, ' '),
      description: `${cap.description}\n\nScope \`${cap.scope}\`. Budget cost on success: ${cap.cost === 'nothing' ? 'nothing' : `one ${cap.cost} per distinct ${cap.cost} named`}. MCP tool \`${cap.tool}\` (earlier name \`service_${cap.name}\` still works).`,
      security: [{ bearer: [] }, { serviceKey: [] }],
      'x-scope': cap.scope,
      'x-cost': cap.cost,
      'x-mcp-tool': cap.tool,
      parameters: [ref('parameters', 'X-Service-Origin')],
      request: {
        params: cap.params as never,
        query: cap.query as never,
        ...(cap.body
          ? { body: { required: true, description: 'JSON, at most 8192 bytes; unknown properties are refused.', content: { 'application/json': { schema: cap.body, example: cap.examples.request } } } }
          : {}),
      },
      responses: {
        200: {
          description: 'An answer about the Record. Every status except supported is still a real answer about the Record, not a failure.',
          headers: headerRefs(['X-Request-Id', 'Cache-Control', ...rateHeaders]),
          content: { 'application/json': { schema: answerSchema, example: answerExample(cap) } },
        },
        ...refusalResponses(cap),
      },
    } as never);
  }

  // Components named with zod v4's meta({ id }), without patching zod's prototype (extendZodWithOpenApi).
  const named = [AnswerEnvelope.meta({ id: 'AnswerEnvelope' }), ErrorEnvelope.meta({ id: 'ErrorEnvelope' }), HealthAnswer.meta({ id: 'HealthAnswer' })];
  const generator = new OpenApiGeneratorV31([...named.map((schema) => ({ type: 'schema' as const, schema })), ...registry.definitions]);
  const doc = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Evidence Record API',
      version: decisions.API_VERSION,
      ...{ summary: 'Answers about a dated, evidence-backed Record of U.S. pre-workout supplement labels and prices.' },
      description: [
        'Answers about a dated, evidence-backed Record of U.S. pre-workout supplement labels and prices. No export, no listing, no free-form query.',
        decisions.DISCLAIMER,
        `Changelog (Keep a Changelog format; additive changes and deprecations are announced there): ${CHANGELOG_URL} at the root of the Evidence Record repository.`,
        decisionTexts.additive_change,
        decisionTexts.rate_headers,
        decisionTexts.budget,
        'A path under /api/v1 that is no capability answers 404 unsupported_capability; a capability path with a method it does not take answers 405 method_not_allowed. Both carry the error envelope.',
      ].join('\n\n'),
    },
    servers: [{ url: serverUrl, description: 'The gateway' }],
    tags: [
      { name: 'service', description: 'Health and this document; no key.' },
      { name: 'record', description: 'Products, their labels, prices, research and regulatory context.' },
      { name: 'signals', description: 'Confirmed, reviewed changes and the category snapshot.' },
      { name: 'ledger', description: 'Monthly ledger editions (paid deliverable).' },
      { name: 'watch', description: "The key's account watchlist (the only writing scope)." },
    ],
    externalDocs: { description: 'Changelog: additive changes and deprecations (CHANGELOG.md at the root of the repository)', url: CHANGELOG_URL },
  }) as unknown as Record<string, unknown>;

  openResponseObjects(doc);
  openErrorCodes(doc);
  describeParameters(doc);

  return {
    ...doc,
    'x-error-codes': Object.fromEntries(Object.entries(errorCatalogue).map(([code, e]) => [code, { http_status: e.status, meaning: e.message, caller_action: e.action }])),
    'x-decisions': { ...decisionTexts, budget_entities_header: `Internal: ${headers.budgetEntities} is set by services and stripped by the gateway; it never reaches a client.` },
  };
}

/**
 * Answer sub-records are strict inside the services (no internal field can
 * leave by accident), but to a client every answer object is open: the spec
 * promises additive fields. So no component says additionalProperties:
 * false; request bodies and queries (inline, not components) keep it, since
 * unknown request properties are refused.
 */
function openResponseObjects(doc: Record<string, unknown>) {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.additionalProperties === false) delete o.additionalProperties;
    Object.values(o).forEach(walk);
  };
  walk((doc.components as Record<string, unknown>).schemas);
}

/** The error-code enum is open (new codes may appear); the known codes stay listed for generated clients. */
function openErrorCodes(doc: Record<string, unknown>) {
  const schemas = (doc.components as { schemas: Record<string, { properties: Record<string, { properties: Record<string, unknown> }> }> }).schemas;
  schemas.ErrorCode = {
    description: 'Branch on the code, never on error.message. An open enum: a code not listed here may appear; treat it by its HTTP status. Meaning and caller action of each: x-error-codes.',
    anyOf: [{ type: 'string', enum: [...errorCodes] }, { type: 'string' }],
  } as never;
  schemas.ErrorEnvelope!.properties.error!.properties.code = ref('schemas', 'ErrorCode');
}

function describeParameters(doc: Record<string, unknown>) {
  const paths = doc.paths as Record<string, Record<string, { operationId?: string; parameters?: Array<Record<string, unknown>> }>>;
  const byName = new Map<string, Capability>(capabilityList.map((cap) => [cap.name, cap]));
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      const own = byName.get(op.operationId ?? '')?.parameters ?? {};
      for (const p of op.parameters ?? []) {
        const d = typeof p.name === 'string' ? (own[p.name] ?? sharedParameterDocs[p.name]) : undefined;
        if (!d) continue;
        p.description = d.description;
        p.example = d.example;
        const schema = p.schema as Record<string, unknown>;
        if (d.default !== undefined) schema.default = d.default;
        if (d.format !== undefined) schema.format = d.format;
      }
    }
  }
}
