// Generated from the contract (services/contract) by services/client/scripts/generate.ts --document.
// Committed, and self-contained (no imports, ES2020), so that k6 loads it by path from a plain clone and
// bundle.sh inlines it; a test fails while it is stale. Do not edit: run
// npx tsx services/client/scripts/generate.ts --document after a contract change.

/** Every operation by name (a capability, health, openapi): method, path with {params}, MCP tool. */
export const operations = {
  health: {
    method: 'GET',
    path: '/api/v1/health',
    tool: null
  },
  openapi: {
    method: 'GET',
    path: '/api/v1/openapi.json',
    tool: null
  },
  search_record: {
    method: 'POST',
    path: '/api/v1/record/search',
    tool: 'record.search'
  },
  resolve_product: {
    method: 'POST',
    path: '/api/v1/products/resolve',
    tool: 'products.resolve'
  },
  get_product_record: {
    method: 'GET',
    path: '/api/v1/products/{product_id}',
    tool: 'products.get'
  },
  get_formula_history: {
    method: 'GET',
    path: '/api/v1/products/{product_id}/history',
    tool: 'products.history'
  },
  explain_signal: {
    method: 'GET',
    path: '/api/v1/signals/{signal_id}',
    tool: 'signals.explain'
  },
  list_signal_changes: {
    method: 'GET',
    path: '/api/v1/signals',
    tool: 'signals.list'
  },
  compare_products: {
    method: 'POST',
    path: '/api/v1/products/compare',
    tool: 'products.compare'
  },
  get_serving_economics: {
    method: 'GET',
    path: '/api/v1/products/{product_id}/serving-economics',
    tool: 'products.serving_economics'
  },
  get_research_context: {
    method: 'POST',
    path: '/api/v1/research/context',
    tool: 'ingredients.research'
  },
  get_regulatory_context: {
    method: 'POST',
    path: '/api/v1/regulatory/context',
    tool: 'ingredients.regulatory'
  },
  get_category_snapshot: {
    method: 'GET',
    path: '/api/v1/category/snapshot',
    tool: 'signals.snapshot'
  },
  list_ledger_editions: {
    method: 'GET',
    path: '/api/v1/ledger',
    tool: 'ledger.list'
  },
  get_ledger_edition: {
    method: 'GET',
    path: '/api/v1/ledger/{edition_id}',
    tool: 'ledger.get'
  },
  list_watched_products: {
    method: 'GET',
    path: '/api/v1/watch',
    tool: 'watchlist.list'
  },
  watch_product: {
    method: 'POST',
    path: '/api/v1/watch',
    tool: 'watchlist.add'
  },
  unwatch_product: {
    method: 'DELETE',
    path: '/api/v1/watch/{product_id}',
    tool: 'watchlist.remove'
  },
  get_watch_receipt: {
    method: 'GET',
    path: '/api/v1/watch/receipt',
    tool: 'watchlist.receipt'
  },
  get_record_version: {
    method: 'GET',
    path: '/api/v1/record/version',
    tool: 'record.version'
  }
} as const;
