import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetails, answerEnvelopeOf, closedSchema, answerObjectFields, answerObjects, scopes, selfServiceScopes, type CapabilityName } from '@evidence-record/contract';
import { call as callGateway } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';

/**
 * The answer-object schemas (coverage, comparison, ledger, watch, error
 * details) are open to additive fields, so a plain parse would accept a field
 * a service added without describing it. Here every real answer of the demo
 * Record, over HTTP through the gateway, is parsed against a closed copy of
 * its capability's schemas: a field the contract does not describe, a
 * missing one or a wrong type fails, so the schemas cannot drift from what
 * the services answer.
 */
let stack: RunningStack;
let pro: Awaited<ReturnType<typeof issueKey>>;
let free: Awaited<ReturnType<typeof issueKey>>;

beforeAll(async () => {
  // The gateway and the four services that answer capabilities (no MCP, email or monitor needed here).
  stack = await startStack('answers', { services: ['record', 'signals', 'ledger', 'watch', 'gateway'] });
  pro = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'answers pro' });
  free = await issueKey(stack, { plan: 'free', scopes: [...selfServiceScopes], name: 'answers free' });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const closed = closedSchema;

const exercised = new Set<string>();

async function answer(name: CapabilityName, method: string, path: string, body?: unknown) {
  const res = await callGateway(stack, pro.key, method, path, body);
  expect(res.status, `${name} ${path}: ${JSON.stringify(res.body?.error ?? '')}`).toBe(200);
  expect(res.body!.capability).toBe(name);
  expect(answerEnvelopeOf(name).safeParse(res.body).success, name).toBe(true);
  for (const field of answerObjectFields) {
    const value = res.body![field];
    if (value === undefined) continue;
    const schema = answerObjects[name][field];
    expect(schema, `${name} fills ${field}, which the contract does not list for it`).toBeDefined();
    const parsed = closed(schema!).safeParse(value);
    expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), `${name}.${field}`).toEqual([]);
    exercised.add(`${name}.${field}`);
  }
  return res.body!;
}

describe('answer objects of the demo Record match the contract exactly', () => {
  it('record capabilities: search, resolve, product record, history, comparison, economics, research, regulatory, version', async () => {
    await answer('search_record', 'POST', '/api/v1/record/search', { query: 'caffeine beta-alanine pre-workout' });
    await answer('search_record', 'POST', '/api/v1/record/search', { query: 'qqzx vvwy' });
    for (const identifier of ['IV Surge', 'Surge', 'Tallowfen Performance', 'No Such Product At All']) {
      await answer('resolve_product', 'POST', '/api/v1/products/resolve', { identifier });
    }
    // Tracked, unreadable manufacturer source, REGISTERED, retired, proprietary blend, named without an amount.
    const products = ['prd_2ywha9ykwyqd', 'prd_h7j8vad62q6a', 'prd_ydn6ostie4kc', 'prd_2vo4zev50wx4', 'prd_nyn2dw5b6b4e', 'prd_qs7dvqa92v42'];
    for (const id of products) {
      await answer('get_product_record', 'GET', `/api/v1/products/${id}`);
      await answer('get_formula_history', 'GET', `/api/v1/products/${id}/history`);
      await answer('get_serving_economics', 'GET', `/api/v1/products/${id}/serving-economics`);
    }
    const compared = await answer('compare_products', 'POST', '/api/v1/products/compare', { product_ids: ['prd_2ywha9ykwyqd', 'prd_r8lqu59yxwon', 'prd_q85dzqi3myap'] });
    expect(compared.comparison.blends.length).toBeGreaterThan(0);
    await answer('compare_products', 'POST', '/api/v1/products/compare', { product_ids: ['prd_qs7dvqa92v42', 'prd_nyn2dw5b6b4e'] });
    const refused = await answer('compare_products', 'POST', '/api/v1/products/compare', { product_ids: ['prd_2ywha9ykwyqd', 'prd_ydn6ostie4kc'] });
    expect([refused.status, refused.comparison]).toEqual(['refused', undefined]);
    for (const kind of ['research', 'regulatory'] as const) {
      const name = kind === 'research' ? 'get_research_context' : 'get_regulatory_context';
      await answer(name, 'POST', `/api/v1/${kind}/context`, { ingredient_ids: ['ing_caffeine', 'ing_beta_alanine', 'ing_not_in_record'] });
      await answer(name, 'POST', `/api/v1/${kind}/context`, { product_id: 'prd_2ywha9ykwyqd' });
      await answer(name, 'POST', `/api/v1/${kind}/context`, { product_id: 'prd_ydn6ostie4kc' });
    }
    await answer('get_record_version', 'GET', '/api/v1/record/version');
  });

  it('signals, snapshot and ledger', async () => {
    const feed = await answer('list_signal_changes', 'GET', '/api/v1/signals?limit=5');
    await answer('explain_signal', 'GET', `/api/v1/signals/${feed.signals[0].signal_id}`);
    await answer('get_category_snapshot', 'GET', '/api/v1/category/snapshot');
    await answer('get_category_snapshot', 'GET', '/api/v1/category/snapshot?from=2026-08-01&to=2026-10-31&limit=3');
    await answer('list_ledger_editions', 'GET', '/api/v1/ledger');
    for (const id of ['ed_2026_09', 'ed_2026_10', 'ed_2026_11']) await answer('get_ledger_edition', 'GET', `/api/v1/ledger/${id}`);
  });

  it('watch: list, add (new and again), receipts (whole and partly covered months), remove (watched and not)', async () => {
    await answer('list_watched_products', 'GET', '/api/v1/watch');
    for (const id of ['prd_2ywha9ykwyqd', 'prd_e8wc6axyqxp9', 'prd_h7j8vad62q6a']) await answer('watch_product', 'POST', '/api/v1/watch', { product_id: id });
    await answer('watch_product', 'POST', '/api/v1/watch', { product_id: 'prd_2ywha9ykwyqd' });
    await answer('list_watched_products', 'GET', '/api/v1/watch');
    await answer('get_watch_receipt', 'GET', '/api/v1/watch/receipt');
    const august = await answer('get_watch_receipt', 'GET', '/api/v1/watch/receipt?period=2026-08');
    expect(august.coverage.products_partly_covered).toBeGreaterThan(0);
    await answer('unwatch_product', 'DELETE', '/api/v1/watch/prd_2ywha9ykwyqd');
    await answer('unwatch_product', 'DELETE', '/api/v1/watch/prd_2ywha9ykwyqd');
  });

  it('refusal details match the contract exactly', async () => {
    const refusals = [
      await callGateway(stack, pro.key, 'GET', '/api/v1/products/prd_zzzzzzzzzzzz'),
      await callGateway(stack, pro.key, 'POST', '/api/v1/products/compare', { product_ids: ['prd_zzzzzzzzzzzz', 'prd_2ywha9ykwyqd'] }),
      await callGateway(stack, pro.key, 'GET', '/api/v1/signals?limit=99'),
      await callGateway(stack, pro.key, 'POST', '/api/v1/record/search', { query: 'x', extra: 1 }),
      await callGateway(stack, free.key, 'GET', '/api/v1/ledger'),
      await callGateway(stack, pro.key, 'POST', '/api/v1/watch', { product_id: 'prd_zzzzzzzzzzzz' }),
    ];
    for (const r of refusals) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      const parsed = closed(ErrorDetails).safeParse(r.body!.error.details);
      expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), r.body!.error.code).toEqual([]);
    }
  });

  it('exercised every answer object the contract lists, against a real answer', () => {
    const listed = Object.entries(answerObjects).flatMap(([name, objects]) => Object.keys(objects).map((field) => `${name}.${field}`));
    expect(listed.filter((entry) => !exercised.has(entry))).toEqual([]);
  });
});
