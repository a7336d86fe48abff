/**
 * One valid call per tool and the REST request it must become. Shared by
 * the stand-in test and the end-to-end test (which swaps in real ids).
 */
export interface ToolCallCase {
  tool: string;
  capability: string;
  args: Record<string, unknown>;
  rest: { method: string; path: string; query?: Record<string, string>; body?: unknown };
}

export interface CaseIds {
  productId: string;
  otherProductId: string;
  signalId: string;
  editionId: string;
  ingredientId: string;
  brandId: string;
  period: string;
}

export const standinIds: CaseIds = {
  productId: 'prd_abc123def456',
  otherProductId: 'prd_0123456789zz',
  signalId: 'sig_a1b2c3d4e5f6',
  editionId: 'ed_2026_10',
  ingredientId: 'ing_caffeine',
  brandId: 'brd_acme',
  period: '2026-10',
};

export function toolCallCases(ids: CaseIds = standinIds): ToolCallCase[] {
  return [
    { tool: 'record.search', capability: 'search_record', args: { query: 'caffeine' }, rest: { method: 'POST', path: '/api/v1/record/search', body: { query: 'caffeine' } } },
    { tool: 'products.resolve', capability: 'resolve_product', args: { identifier: 'Acme Blast' }, rest: { method: 'POST', path: '/api/v1/products/resolve', body: { identifier: 'Acme Blast' } } },
    { tool: 'products.get', capability: 'get_product_record', args: { product_id: ids.productId }, rest: { method: 'GET', path: `/api/v1/products/${ids.productId}` } },
    { tool: 'products.history', capability: 'get_formula_history', args: { product_id: ids.productId }, rest: { method: 'GET', path: `/api/v1/products/${ids.productId}/history` } },
    { tool: 'signals.explain', capability: 'explain_signal', args: { signal_id: ids.signalId }, rest: { method: 'GET', path: `/api/v1/signals/${ids.signalId}` } },
    {
      tool: 'signals.list',
      capability: 'list_signal_changes',
      args: { since: '2020-01-01', limit: 5 },
      rest: { method: 'GET', path: '/api/v1/signals', query: { since: '2020-01-01', limit: '5' } },
    },
    {
      tool: 'products.compare',
      capability: 'compare_products',
      args: { product_ids: [ids.productId, ids.otherProductId] },
      rest: { method: 'POST', path: '/api/v1/products/compare', body: { product_ids: [ids.productId, ids.otherProductId] } },
    },
    { tool: 'products.serving_economics', capability: 'get_serving_economics', args: { product_id: ids.productId }, rest: { method: 'GET', path: `/api/v1/products/${ids.productId}/serving-economics` } },
    {
      tool: 'ingredients.research',
      capability: 'get_research_context',
      args: { ingredient_ids: [ids.ingredientId] },
      rest: { method: 'POST', path: '/api/v1/research/context', body: { ingredient_ids: [ids.ingredientId] } },
    },
    {
      tool: 'ingredients.regulatory',
      capability: 'get_regulatory_context',
      args: { product_id: ids.productId },
      rest: { method: 'POST', path: '/api/v1/regulatory/context', body: { product_id: ids.productId } },
    },
    { tool: 'signals.snapshot', capability: 'get_category_snapshot', args: { limit: 3 }, rest: { method: 'GET', path: '/api/v1/category/snapshot', query: { limit: '3' } } },
    { tool: 'ledger.list', capability: 'list_ledger_editions', args: {}, rest: { method: 'GET', path: '/api/v1/ledger' } },
    { tool: 'ledger.get', capability: 'get_ledger_edition', args: { edition_id: ids.editionId }, rest: { method: 'GET', path: `/api/v1/ledger/${ids.editionId}` } },
    { tool: 'watchlist.list', capability: 'list_watched_products', args: {}, rest: { method: 'GET', path: '/api/v1/watch' } },
    { tool: 'watchlist.add', capability: 'watch_product', args: { product_id: ids.productId }, rest: { method: 'POST', path: '/api/v1/watch', body: { product_id: ids.productId } } },
    { tool: 'watchlist.remove', capability: 'unwatch_product', args: { product_id: ids.productId }, rest: { method: 'DELETE', path: `/api/v1/watch/${ids.productId}` } },
    { tool: 'watchlist.receipt', capability: 'get_watch_receipt', args: { period: ids.period }, rest: { method: 'GET', path: '/api/v1/watch/receipt', query: { period: ids.period } } },
    { tool: 'record.version', capability: 'get_record_version', args: {}, rest: { method: 'GET', path: '/api/v1/record/version' } },
  ];
}
