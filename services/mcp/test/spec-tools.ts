/**
 * The spec's MCP tool table (spec: MCP endpoint): the 18 tools and the
 * capability each one calls, written out as the spec writes it. Each
 * capability's module (services/contract/src/capabilities/) names its tool
 * on its own; the tool tests check the modules and the catalogue against
 * this table, so a tool renamed in a module, or one the spec does not have,
 * fails a test.
 */
export const mcpToolTable = {
  'record.search': 'search_record',
  'products.resolve': 'resolve_product',
  'products.get': 'get_product_record',
  'products.history': 'get_formula_history',
  'signals.explain': 'explain_signal',
  'signals.list': 'list_signal_changes',
  'products.compare': 'compare_products',
  'products.serving_economics': 'get_serving_economics',
  'ingredients.research': 'get_research_context',
  'ingredients.regulatory': 'get_regulatory_context',
  'signals.snapshot': 'get_category_snapshot',
  'ledger.list': 'list_ledger_editions',
  'ledger.get': 'get_ledger_edition',
  'watchlist.list': 'list_watched_products',
  'watchlist.add': 'watch_product',
  'watchlist.remove': 'unwatch_product',
  'watchlist.receipt': 'get_watch_receipt',
  'record.version': 'get_record_version',
} as const;
