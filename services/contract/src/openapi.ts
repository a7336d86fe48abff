import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { answerObjects } from './answers';
import { capabilityList, type Capability, type CapabilityName } from './capabilities';
import * as decisions from './decisions';
import { AnswerEnvelope, ErrorEnvelope, HealthAnswer, emptyFactArrays } from './envelope';
import { errorCatalogue, errorCodes, type ErrorCode } from './errors';
import { CACHE_CONTROL, headers } from './headers';
import { answerExamples } from './openapi-examples';

const toOpenApiPath = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');

/**
 * Where the changelog lives: deprecations are announced there (spec:
 * Versioning). The project has no public web address yet, so the link is the
 * file's place in the repository, which ships with the client package.
 */
export const CHANGELOG_URL = 'CHANGELOG.md';

/**
 * The decisions on what the spec leaves open, stated in words inside the
 * document (a consumer has the document, not this repository).
 */
export const decisionTexts = {
  default_page_size: `list_signal_changes and get_category_snapshot answer ${decisions.DEFAULT_PAGE_SIZE} items per page when limit is not given; limit is at most ${decisions.MAX_PAGE_SIZE}.`,
  snapshot_window: `A category snapshot window is at most ${decisions.MAX_SNAPSHOT_WINDOW_DAYS} days, both ends inclusive; with neither from nor to it covers the last ${decisions.DEFAULT_SNAPSHOT_WINDOW_DAYS} days of releases.`,
  search_result_cap: `search_record answers with at most ${decisions.SEARCH_RESULT_CAP} products and never pages: it is not a listing.`,
  signal_dimensions: `Signal dimensions are ${decisions.signalDimensions.join(', ')}; an open enum: new members may appear.`,
  categories: `The Record covers one category, ${decisions.SUPPORTED_CATEGORY}; an open enum.`,
  ingredient_identity:
    'A declared line\'s ingredient_id is the canonical ingredient it is identified as: by the label row\'s UNII, then its DSLD ingredient group (and form), then its printed name. A line matching no ingredient, or two, has none (never a guess). Identity is curated: at a later record_version a line may gain or change its ingredient_id; its declared_name and amount never change, and such a change is never a Signal.',
  brand_filter: 'The brand filter takes a brand id (brd_…) as it appears in ProductIdentity.brand_id, never a brand name.',
  depth_classes: 'REGISTERED: known to exist, no comparable label (refused by comparison). CAPTURED: one or more captured label states. TRACKED: monitored over time.',
  history_state_classes: 'comparable: a full label with amounts. presence_only: ingredients named, amounts not fully readable. identity_only: no label content.',
  edition_statuses: 'A ledger edition is open (computed live, changes until it closes) or closed (never changes; its edition_hash stays valid).',
  price_bases: 'An observed price is list, promotional, subscription or unspecified; only list is ever called a list price, and a promotional-versus-list difference is never a price change.',
  watch_receipt_period: 'period is a UTC calendar month, YYYY-MM; default the current month. A month that has not started is invalid_request; the current month is partial up to today.',
  watch_check_schedule: 'The sources of a monitored product are read weekly: next_check_due is the last check plus 7 days.',
  refused_comparison: 'A comparison naming a REGISTERED product is an HTTP 200 answer with status "refused", the named products, no comparison object and a limitation naming the REGISTERED product (the same on MCP).',
  watch_refusals: 'Watch calls from a key whose organization is not bound to exactly one account: 403 account_binding_required. A non-entitled account: 403 plan_entitlement_required. Beyond the watch limit: 409 watch_limit_reached. A retired product: 409 product_not_watchable; an id not in the Record: 404 not_found.',
  extraction_pattern: 'Requests that match a pattern of copying the Record are refused with 429 extraction_pattern_refused and Retry-After (a cool-down); continuing suspends the key (403 key_suspended).',
  cursor: `A cursor is opaque, signed by the service, bound to the filters it was issued for and valid ${decisions.CURSOR_TTL_SECONDS / 3600} hours; any other cursor, or one sent with different filters, is invalid_request.`,
  path_ids: 'Path ids are canonical ids only; a name or alias in a path is invalid_request naming the field (resolve names with resolve_product first).',
  error_documentation: 'error.documentation is a relative address into this document: /api/v1/openapi.json#/x-error-codes/<code>.',
  rate_headers: 'RateLimit-* describe the rate window (minute, hour or day) closest to exhaustion for this key; they are sent on every response to a request made with a valid key, refusals included.',
  budget: 'A successful answer spends one unit of the organization\'s daily budget per distinct entity it names (product, signal or ingredient: the x-cost of the operation); naming it again the same UTC day costs nothing. The budget resets at 00:00 UTC; a 429 extraction_limit_reached says how long until then in Retry-After.',
  mcp_protocol_versions: `The MCP endpoint (POST /mcp) accepts protocol versions ${decisions.MCP_PROTOCOL_VERSIONS.join(', ')}.`,
  source_kinds: `A source's kind in every answer (SourceReference.kind, source health, coverage by kind) is one of ${decisions.answerSourceKinds.join(', ')}: a DSLD label is the manufacturer's declared label, an offer page a retailer's.`,
  research_and_regulatory:
    'Research context and regulatory records are curated entries with a permanent entry_id (rsc_…, reg_…), an authority, a date (YYYY, YYYY-MM or YYYY-MM-DD) and an https reference on an allow-list of authorities\' and publishers\' domains. A correction keeps each corrected field\'s value before and after (corrections[].changes); a retired entry is not served as current and is named in coverage.retired and limitations with its date and reason. A regulatory record is never an approval, a warning about a product or a finding of harm; a documented caution is the authority\'s own, referenced on its own domain. Each change is a new record_version.',
  signal_address_page: 'A Signal\'s address (signal_url, GET /api/v1/signals/{signal_id}) opened without a valid key by a client that prefers text/html to application/json (a browser following the address cited in an alert email) answers the same 401, with the same headers and Vary: Accept, as a short HTML page saying what the address is and how to read it with a key (REST and MCP); it names nothing of the Record. Any other Accept (application/json, */*, none) gets the JSON envelope.',
  additive_change: 'Additive changes ship without notice: new fields, new capabilities, new members of enums documented as open (error codes, dimensions, categories). Objects in answers are open: ignore fields you do not know. A breaking change gets a new path; deprecations are announced in the changelog and keep their old value for at least 90 days.',
} as const;

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

/** Every refusal an operation can return, from the gateway's checks and its capability's handler. */
export function refusalsOf(cap: Capability): ErrorCode[] {
  const codes: ErrorCode[] = ['invalid_credentials', 'insufficient_scope', 'plan_entitlement_required', 'key_suspended', 'invalid_request', 'payload_too_large', 'rate_limited', 'extraction_pattern_refused', 'internal_error'];
  if (cap.cost !== 'nothing') codes.push('extraction_limit_reached');
  if (cap.scope === 'watch:manage') codes.push('account_binding_required');
  if (notFoundBy.has(cap.name as CapabilityName)) codes.push('not_found');
  if (cap.name === 'watch_product') codes.push('watch_limit_reached', 'product_not_watchable');
  return codes;
}

/**
 * The capabilities whose handler answers 404 not_found: an id (in the path
 * or the body) the Record does not hold. unwatch_product is not one: removing
 * a watch that does not exist succeeds (spec, Behaviours 9).
 */
const notFoundBy = new Set<CapabilityName>([
  'get_product_record',
  'get_formula_history',
  'get_serving_economics',
  'explain_signal',
  'compare_products',
  'get_research_context',
  'get_regulatory_context',
  'get_ledger_edition',
  'watch_product',
]);

/** Parameters described once by name: meaning, default and format. */
const parameterDocs: Record<string, { description: string; example: unknown; default?: unknown }> = {
  product_id: { description: 'Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.', example: 'prd_0a1b2c3d4e5f' },
  signal_id: { description: 'Signal id, sig_ and 12 base-36 characters. A Signal that is not approved answers not_found, the same as an invented id.', example: 'sig_0a1b2c3d4e5f' },
  edition_id: { description: 'Ledger edition id, ed_YYYY_MM (the edition\'s UTC month).', example: 'ed_2026_10' },
  since: {
    description:
      'Release date, YYYY-MM-DD (UTC), exclusive: only Signals released after this date. Store the newest review.released_at you processed and pass it here on the next run; release dates never move. Default: no lower bound.',
    example: '2026-11-01',
  },
  until: { description: 'Release date, YYYY-MM-DD (UTC), inclusive: only Signals released on or before this date. Default: no upper bound.', example: '2026-11-30' },
  brand: { description: decisionTexts.brand_filter, example: 'brd_ironvale' },
  dimension: { description: decisionTexts.signal_dimensions, example: 'formula' },
  category: { description: decisionTexts.categories, example: decisions.SUPPORTED_CATEGORY },
  limit: { description: `Page size, 1 to ${decisions.MAX_PAGE_SIZE}; default ${decisions.DEFAULT_PAGE_SIZE}.`, example: decisions.DEFAULT_PAGE_SIZE, default: decisions.DEFAULT_PAGE_SIZE },
  cursor: {
    description: `next_cursor of the previous page. ${decisionTexts.cursor} Follow next_cursor until it is null.`,
    example: 'c1.eyJyIjoiMjAyNi0xMS0wMyJ9.sig',
  },
  from: { description: `First release date of the window, YYYY-MM-DD (UTC), inclusive. ${decisionTexts.snapshot_window}`, example: '2026-10-01' },
  to: { description: 'Last release date of the window, YYYY-MM-DD (UTC), inclusive. Default: today, or from plus the maximum window.', example: '2026-10-31' },
  period: { description: decisionTexts.watch_receipt_period, example: '2026-10' },
};

const requestExamples: Partial<Record<CapabilityName, unknown>> = {
  search_record: { query: 'caffeine and beta-alanine pre-workout' },
  resolve_product: { identifier: 'Ironvale Surge' },
  compare_products: { product_ids: ['prd_0a1b2c3d4e5f', 'prd_1b2c3d4e5f6g'] },
  get_research_context: { ingredient_ids: ['ing_caffeine', 'ing_beta_alanine'] },
  get_regulatory_context: { product_id: 'prd_0a1b2c3d4e5f' },
  watch_product: { product_id: 'prd_0a1b2c3d4e5f' },
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
    ...answerExamples[cap.name as CapabilityName],
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
    const objects = answerObjects[cap.name];
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
          ? { body: { required: true, description: 'JSON, at most 8192 bytes; unknown properties are refused.', content: { 'application/json': { schema: cap.body, example: requestExamples[cap.name] } } } }
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
  const paths = doc.paths as Record<string, Record<string, { parameters?: Array<Record<string, unknown>> }>>;
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      for (const p of op.parameters ?? []) {
        const d = typeof p.name === 'string' ? parameterDocs[p.name] : undefined;
        if (!d) continue;
        p.description = d.description;
        p.example = d.example;
        const schema = p.schema as Record<string, unknown>;
        if (d.default !== undefined) schema.default = d.default;
        if (p.name === 'period') schema.format = 'YYYY-MM';
      }
    }
  }
}
