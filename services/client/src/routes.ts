// Generated from the contract (services/contract) by services/client/scripts/generate.ts from the document's paths.
// Do not edit: a test fails when this file differs from a fresh generation.
/** Method and path of every operation, by operationId (the capability name). */
export const routes = {
  health: {
    method: 'GET',
    path: '/api/v1/health'
  },
  openapi: {
    method: 'GET',
    path: '/api/v1/openapi.json'
  },
  search_record: {
    method: 'POST',
    path: '/api/v1/record/search'
  },
  resolve_product: {
    method: 'POST',
    path: '/api/v1/products/resolve'
  },
  get_product_record: {
    method: 'GET',
    path: '/api/v1/products/{product_id}'
  },
  get_formula_history: {
    method: 'GET',
    path: '/api/v1/products/{product_id}/history'
  },
  explain_signal: {
    method: 'GET',
    path: '/api/v1/signals/{signal_id}'
  },
  list_signal_changes: {
    method: 'GET',
    path: '/api/v1/signals'
  },
  compare_products: {
    method: 'POST',
    path: '/api/v1/products/compare'
  },
  get_serving_economics: {
    method: 'GET',
    path: '/api/v1/products/{product_id}/serving-economics'
  },
  get_research_context: {
    method: 'POST',
    path: '/api/v1/research/context'
  },
  get_regulatory_context: {
    method: 'POST',
    path: '/api/v1/regulatory/context'
  },
  get_category_snapshot: {
    method: 'GET',
    path: '/api/v1/category/snapshot'
  },
  list_ledger_editions: {
    method: 'GET',
    path: '/api/v1/ledger'
  },
  get_ledger_edition: {
    method: 'GET',
    path: '/api/v1/ledger/{edition_id}'
  },
  list_watched_products: {
    method: 'GET',
    path: '/api/v1/watch'
  },
  watch_product: {
    method: 'POST',
    path: '/api/v1/watch'
  },
  unwatch_product: {
    method: 'DELETE',
    path: '/api/v1/watch/{product_id}'
  },
  get_watch_receipt: {
    method: 'GET',
    path: '/api/v1/watch/receipt'
  },
  get_record_version: {
    method: 'GET',
    path: '/api/v1/record/version'
  }
} as const;
