import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { capabilityList } from './capabilities';
import * as decisions from './decisions';
import { AnswerEnvelope, ErrorEnvelope, HealthAnswer } from './envelope';
import { errorCatalogue } from './errors';
import { headers } from './headers';

const toOpenApiPath = (path: string) => path.replace(/:([a-z_]+)/g, '{$1}');

/**
 * The OpenAPI 3.1 description, generated from the same zod schemas that
 * validate requests. The decisions on what the spec leaves open travel in it.
 */
export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  // zod v4 `meta({ id })` names a component without patching zod's prototype.
  const answer = AnswerEnvelope.meta({ id: 'AnswerEnvelope' });
  const refusal = ErrorEnvelope.meta({ id: 'ErrorEnvelope' });
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer sk_{environment}_{keyId}_{secret}' });
  registry.registerComponent('securitySchemes', 'serviceKey', { type: 'apiKey', in: 'header', name: 'X-Service-Key', description: 'The bare key, no Bearer prefix.' });

  const refusals = (codes: string[]) =>
    Object.fromEntries(
      [...new Set(codes.map((c) => errorCatalogue[c as keyof typeof errorCatalogue].status))].map((status) => [
        String(status),
        {
          description: codes.filter((c) => errorCatalogue[c as keyof typeof errorCatalogue].status === status).join(', '),
          content: { 'application/json': { schema: refusal } },
        },
      ]),
    );

  registry.registerPath({
    method: 'get',
    path: '/api/v1/health',
    operationId: 'health',
    summary: 'Health: 200 while the service is serving. No key. Says nothing about source readability.',
    responses: { 200: { description: 'Serving', content: { 'application/json': { schema: HealthAnswer } } } },
  });

  for (const cap of capabilityList) {
    const common = ['invalid_credentials', 'insufficient_scope', 'plan_entitlement_required', 'key_suspended', 'rate_limited', 'extraction_pattern_refused', 'invalid_request', 'payload_too_large', 'method_not_allowed', 'internal_error'];
    if (cap.cost !== 'nothing') common.push('extraction_limit_reached');
    if (cap.path.includes(':') && cap.service !== 'watch') common.push('not_found');
    if (cap.service === 'watch') common.push('account_binding_required');
    if (cap.name === 'watch_product') common.push('watch_limit_reached', 'product_not_watchable', 'not_found');
    // A product id the Record does not hold; a product merely not watched succeeds unchanged.
    if (cap.name === 'unwatch_product') common.push('not_found');
    registry.registerPath({
      method: cap.method.toLowerCase() as 'get' | 'post' | 'delete',
      path: toOpenApiPath(cap.path),
      operationId: cap.name,
      summary: cap.description,
      description: `Scope \`${cap.scope}\`. Budget cost: ${cap.cost}. MCP tool \`${cap.tool}\` (legacy name \`service_${cap.name}\`).`,
      security: [{ bearer: [] }, { serviceKey: [] }],
      'x-scope': cap.scope,
      'x-cost': cap.cost,
      'x-mcp-tool': cap.tool,
      request: {
        params: cap.params as never,
        query: cap.query as never,
        ...(cap.body ? { body: { required: true, content: { 'application/json': { schema: cap.body } } } } : {}),
      },
      responses: {
        200: {
          description: 'An answer about the Record. Every status except supported is still a real answer.',
          headers: {
            'RateLimit-Limit': { schema: { type: 'integer' } },
            'RateLimit-Remaining': { schema: { type: 'integer' } },
            'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the reported window resets' },
            'RateLimit-Policy': { schema: { type: 'string' }, description: 'minute, hour or day: the window closest to exhaustion' },
            'X-Request-Id': { schema: { type: 'string' } },
            'Cache-Control': { schema: { type: 'string', const: 'private, no-store, max-age=0, must-revalidate' } },
          },
          content: { 'application/json': { schema: answer } },
        },
        ...refusals(common),
      },
    } as never);
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  const doc = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Evidence Record API',
      version: decisions.API_VERSION,
      description:
        'Answers about a dated, evidence-backed Record of U.S. pre-workout supplement labels and prices. No export, no listing, no free-form query. ' +
        decisions.DISCLAIMER,
    },
    servers: [{ url: serverUrl }],
  }) as unknown as Record<string, unknown>;

  return {
    ...doc,
    'x-error-codes': Object.fromEntries(Object.entries(errorCatalogue).map(([code, e]) => [code, { http_status: e.status, meaning: e.message, caller_action: e.action }])),
    'x-decisions': {
      default_page_size: decisions.DEFAULT_PAGE_SIZE,
      max_page_size: decisions.MAX_PAGE_SIZE,
      max_snapshot_window_days: decisions.MAX_SNAPSHOT_WINDOW_DAYS,
      default_snapshot_window_days: decisions.DEFAULT_SNAPSHOT_WINDOW_DAYS,
      search_result_cap: decisions.SEARCH_RESULT_CAP,
      signal_dimensions: decisions.signalDimensions,
      categories: decisions.categories,
      brand_filter: 'a brand_id (brd_…) as it appears in ProductIdentity.brand_id',
      depth_classes: decisions.depthClasses,
      history_state_classes: decisions.historyStateClasses,
      edition_statuses: decisions.editionStatuses,
      price_bases: decisions.priceBases,
      watch_receipt_period: 'YYYY-MM, default the current UTC month; a month that has not started is invalid_request; the current month is partial up to today',
      watch_check_schedule: 'sources of a monitored product are read weekly: next_check_due = last check + 7 days',
      refused_comparison: 'HTTP 200 answer with status "refused", the named products, no comparison, and a limitation naming the REGISTERED product',
      cursor: `opaque, signed by the service, bound to the filters it was issued for, valid ${decisions.CURSOR_TTL_SECONDS} seconds`,
      budget_entities_header: headers.budgetEntities,
      mcp_protocol_versions: decisions.MCP_PROTOCOL_VERSIONS,
      docs: 'docs/decisions/ in the repository',
    },
  };
}
