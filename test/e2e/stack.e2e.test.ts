import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, capabilityList, scopes, selfServiceScopes } from '@evidence-record/contract';
import { call as callGateway, releaseSignalOn } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * The whole stack as separate processes, driven only over HTTP through the
 * gateway with keys issued by the operator CLI — exactly as a client would.
 */
let stack: RunningStack;
let pro: Awaited<ReturnType<typeof issueKey>>;
let free: Awaited<ReturnType<typeof issueKey>>;

const call = (key: string | null, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => callGateway(stack, key, method, path, body, extra);

function expectCapabilityHeaders(res: { headers: Headers; body: Record<string, unknown> | null }) {
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'x-request-id']) expect(res.headers.get(h), h).toBeTruthy();
  expect(res.headers.get('cache-control')).toBe('private, no-store, max-age=0, must-revalidate');
  expect(res.headers.get('x-request-id')).toBe(res.body?.request_id);
  expect(res.headers.get('x-budget-entities')).toBeNull();
  for (const [name] of res.headers) expect(name.startsWith('access-control-'), name).toBe(false);
}

async function mcp(key: string, method: string, params: unknown) {
  const res = await fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  expect(res.headers.get('mcp-session-id')).toBeNull();
  return (await res.json()) as { result?: any; error?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  stack = await startStack('e2e');
  pro = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'e2e pro' });
  free = await issueKey(stack, { plan: 'free', scopes: [...selfServiceScopes], name: 'e2e free' });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the running stack, driven as a client', () => {
  it('serves health and the OpenAPI document without a key, and every documented route', async () => {
    const health = await call(null, 'GET', '/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', api_version: expect.any(String) });
    const doc = await call(null, 'GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body!.openapi).toBe('3.1.0');
    for (const [path, ops] of Object.entries(doc.body!.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) {
        const concrete = path.replace('{product_id}', 'prd_000000000000').replace('{signal_id}', 'sig_000000000000').replace('{edition_id}', 'ed_2020_01');
        const res = await call(pro.key, method.toUpperCase(), concrete, method === 'get' || method === 'delete' ? undefined : {});
        expect(res.body?.error?.code, `${method} ${path}`).not.toBe('unsupported_capability');
        expect(res.status, `${method} ${path}`).not.toBe(405);
      }
    }
  });

  it('answers all 18 capabilities with valid envelopes and the documented headers', async () => {
    const resolved = await call(pro.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
    expect(resolved.status).toBe(200);
    const productId = resolved.body!.product.product_id as string;
    const feed = await call(pro.key, 'GET', '/api/v1/signals?limit=3');
    const signalId = feed.body!.signals[0].signal_id as string;
    const ledger = await call(pro.key, 'GET', '/api/v1/ledger');
    const editionId = ledger.body!.ledger.editions[0].edition_id as string;
    const record = await call(pro.key, 'GET', `/api/v1/products/${productId}`);
    const ingredientIds = (record.body!.verified_facts as Array<{ value: { ingredient_id?: string | null } }>)
      .map((f) => f.value.ingredient_id)
      .filter((id): id is string => typeof id === 'string')
      .slice(0, 2);
    const other = await call(pro.key, 'POST', '/api/v1/record/search', { query: 'beta-alanine' });
    const otherId = (other.body!.products as Array<{ product_id: string }>).find((p) => p.product_id !== productId)!.product_id;

    const requests: Record<string, [string, string, unknown?]> = {
      search_record: ['POST', '/api/v1/record/search', { query: 'citrulline' }],
      resolve_product: ['POST', '/api/v1/products/resolve', { identifier: 'Pre-Workout' }],
      get_product_record: ['GET', `/api/v1/products/${productId}`],
      get_formula_history: ['GET', `/api/v1/products/${productId}/history`],
      explain_signal: ['GET', `/api/v1/signals/${signalId}`],
      list_signal_changes: ['GET', '/api/v1/signals?limit=5'],
      compare_products: ['POST', '/api/v1/products/compare', { product_ids: [productId, otherId] }],
      get_serving_economics: ['GET', `/api/v1/products/${productId}/serving-economics`],
      get_research_context: ['POST', '/api/v1/research/context', { ingredient_ids: ingredientIds }],
      get_regulatory_context: ['POST', '/api/v1/regulatory/context', { product_id: productId }],
      get_category_snapshot: ['GET', '/api/v1/category/snapshot?from=2026-09-01&to=2026-11-20&limit=5'],
      list_ledger_editions: ['GET', '/api/v1/ledger'],
      get_ledger_edition: ['GET', `/api/v1/ledger/${editionId}`],
      watch_product: ['POST', '/api/v1/watch', { product_id: productId }],
      list_watched_products: ['GET', '/api/v1/watch'],
      get_watch_receipt: ['GET', '/api/v1/watch/receipt'],
      unwatch_product: ['DELETE', `/api/v1/watch/${productId}`],
      get_record_version: ['GET', '/api/v1/record/version'],
    };
    expect(Object.keys(requests).sort()).toEqual(capabilityList.map((c) => c.name).sort());
    const versions = new Set<string>();
    for (const [capability, [method, path, body]] of Object.entries(requests)) {
      const res = await call(pro.key, method, path, body);
      expect(res.status, `${capability}: ${JSON.stringify(res.body?.error ?? {})}`).toBe(200);
      const parsed = AnswerEnvelope.safeParse(res.body);
      expect(parsed.success, `${capability}: ${parsed.error?.message}`).toBe(true);
      expect(res.body!.capability).toBe(capability);
      expectCapabilityHeaders(res);
      versions.add(res.body!.record_version as string);
    }
    expect(versions.size).toBe(1);
  });

  it('keeps every answer inside its key: scopes, plan and budget', async () => {
    const ledger = await call(free.key, 'GET', '/api/v1/ledger');
    expect(ledger.status).toBe(403);
    expect(ledger.body!.error.code).toBe('insufficient_scope');
    expect(ledger.body!.error.details.required_scope).toBe('ledger:read');
    expect(ErrorEnvelope.safeParse(ledger.body).success).toBe(true);
    expectCapabilityHeaders(ledger);

    // The free plan's product budget is 15 distinct products per UTC day, shared by the organisation.
    const search = await call(free.key, 'POST', '/api/v1/record/search', { query: 'pre workout' });
    expect(search.status).toBe(200);
    const feed = await call(pro.key, 'GET', '/api/v1/signals?limit=25');
    const productIds = [...new Set((feed.body!.signals as Array<{ product: { product_id: string } }>).map((s) => s.product.product_id))];
    const results = [];
    for (const id of productIds.slice(0, 20)) results.push(await call(free.key, 'GET', `/api/v1/products/${id}`));
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.body!.error.code).toBe('extraction_limit_reached');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('turns a released Signal on a watched product into exactly one alert email', async () => {
    const resolved = await call(pro.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
    const productId = resolved.body!.product.product_id as string;
    const watched = await call(pro.key, 'POST', '/api/v1/watch', { product_id: productId });
    expect(watched.status).toBe(200);

    const feedBefore = await call(pro.key, 'GET', '/api/v1/signals?limit=1');
    const newestReleased = feedBefore.body!.signals[0].review.released_at as string;

    // An operator imports a new label reading, opens a candidate, reviews it and releases it (operator CLI).
    const { signalId } = await releaseSignalOn(stack, pro.key, productId);

    // The poller that stored the newest released_at gets exactly the new Signal.
    const poll = await call(pro.key, 'GET', `/api/v1/signals?since=${newestReleased}`);
    expect((poll.body!.signals as Array<{ signal_id: string }>).map((s) => s.signal_id)).toEqual([signalId]);

    await waitFor('the alert email', () => stack.smtp.messages.some((m) => m.raw.includes(signalId)), 30_000, 250).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1500)); // let any duplicate arrive before counting
    const alerts = stack.smtp.messages.filter((m) => m.raw.includes(signalId));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.raw).toContain(`/api/v1/signals/${signalId}`);
    await call(pro.key, 'DELETE', `/api/v1/watch/${productId}`);
  }, 90_000);

  it('answers MCP tool calls through the gateway with the REST envelope, refusals included', async () => {
    const list = await mcp(pro.key, 'tools/list', {});
    expect(list.result.tools).toHaveLength(18);
    const ok = await mcp(pro.key, 'tools/call', { name: 'products.resolve', arguments: { identifier: 'IV Surge' } });
    expect(ok.result.isError).toBeFalsy();
    expect(AnswerEnvelope.safeParse(ok.result.structuredContent).success).toBe(true);
    expect(JSON.parse(ok.result.content[0].text)).toEqual(ok.result.structuredContent);

    const rest = await call(pro.key, 'GET', '/api/v1/products/prd_zzzzzzzzzzzz');
    const viaMcp = await mcp(pro.key, 'tools/call', { name: 'service_get_product_record', arguments: { product_id: 'prd_zzzzzzzzzzzz' } });
    expect(rest.status).toBe(404);
    expect(viaMcp.result.isError).toBe(true);
    expect(viaMcp.result.structuredContent.error.code).toBe(rest.body!.error.code);
  });
});
