import type { z } from 'zod';
import * as req from './requests';
import type { Scope } from './scopes';

export type CostKind = 'product' | 'signal' | 'ingredient' | 'nothing';
export type ServiceName = 'record' | 'signals' | 'ledger' | 'watch';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * One row of the capability table. Generic in its name and its three
 * schemas, so that a handler mounted on a row receives exactly the params,
 * query and body those schemas produce (CapabilityInput), not `any`.
 */
export interface Capability<
  N extends string = string,
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType | null = z.ZodType | null,
  S extends ServiceName = ServiceName,
> {
  name: N;
  method: HttpMethod;
  /** Express-style path with :params, under /api/v1. */
  path: string;
  scope: Scope;
  cost: CostKind;
  service: S;
  /** MCP tool name (spec: MCP endpoint). */
  tool: string;
  /** One line a person or a model can act on. */
  description: string;
  readOnly: boolean;
  params: P;
  query: Q;
  body: B;
}

const c = <N extends string, P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType | null, S extends ServiceName>(
  name: N,
  def: Omit<Capability<N, P, Q, B, S>, 'name'>,
): Capability<N, P, Q, B, S> => ({ name, ...def });

/** The 18 capabilities: one row each, one implementation each. */
export const capabilityList = [
  c('search_record', { method: 'POST', path: '/api/v1/record/search', scope: 'record:search', cost: 'product', service: 'record', tool: 'record.search', readOnly: true,
    description: 'Answer a free-text question with a small ranked set of matching products and what matched (name, alias or declared ingredient). Never a listing.',
    params: req.EmptyPath, query: req.EmptyQuery, body: req.SearchRecordBody }),
  c('resolve_product', { method: 'POST', path: '/api/v1/products/resolve', scope: 'products:read', cost: 'product', service: 'record', tool: 'products.resolve', readOnly: true,
    description: 'Resolve a brand, product name or alias to one canonical product_id. Never guesses: a generic name answers ambiguous with candidates, an uncovered one unsupported.',
    params: req.EmptyPath, query: req.EmptyQuery, body: req.ResolveProductBody }),
  c('get_product_record', { method: 'GET', path: '/api/v1/products/:product_id', scope: 'products:read', cost: 'product', service: 'record', tool: 'products.get', readOnly: true,
    description: 'The product record: identity, serving configuration, declared ingredients, captured prices and freshness, with dates and limitations.',
    params: req.ProductPath, query: req.EmptyQuery, body: null }),
  c('get_formula_history', { method: 'GET', path: '/api/v1/products/:product_id/history', scope: 'history:read', cost: 'product', service: 'record', tool: 'products.history', readOnly: true,
    description: 'The timeline of captured label states, the depth of recoverable history, which states are comparable, and the approved Signals between them.',
    params: req.ProductPath, query: req.EmptyQuery, body: null }),
  c('explain_signal', { method: 'GET', path: '/api/v1/signals/:signal_id', scope: 'signals:read', cost: 'signal', service: 'signals', tool: 'signals.explain', readOnly: true,
    description: 'One confirmed change: before and after state, observation window, evidence, release date and permanent address.',
    params: req.SignalPath, query: req.EmptyQuery, body: null }),
  c('list_signal_changes', { method: 'GET', path: '/api/v1/signals', scope: 'signals:read', cost: 'signal', service: 'signals', tool: 'signals.list', readOnly: true,
    description: 'Approved Signals newest release first. Poll with since = the newest review.released_at you processed; follow next_cursor until null.',
    params: req.EmptyPath, query: req.SignalFeedQuery, body: null }),
  c('compare_products', { method: 'POST', path: '/api/v1/products/compare', scope: 'comparisons:create', cost: 'product', service: 'record', tool: 'products.compare', readOnly: true,
    description: 'Declared doses of 2 or 3 products side by side, with price per serving as a calculation. Never names a winner; refuses REGISTERED-depth products.',
    params: req.EmptyPath, query: req.EmptyQuery, body: req.CompareProductsBody }),
  c('get_serving_economics', { method: 'GET', path: '/api/v1/products/:product_id/serving-economics', scope: 'economics:read', cost: 'product', service: 'record', tool: 'products.serving_economics', readOnly: true,
    description: 'Price per serving (and per gram of declared ingredients where meaningful) as calculations with operands, list and promotional kept apart.',
    params: req.ProductPath, query: req.EmptyQuery, body: null }),
  c('get_research_context', { method: 'POST', path: '/api/v1/research/context', scope: 'research:read', cost: 'ingredient', service: 'record', tool: 'ingredients.research', readOnly: true,
    description: 'Studied ranges and the published evidence behind them for up to 5 ingredients, or for the ingredients a product declares.',
    params: req.EmptyPath, query: req.EmptyQuery, body: req.IngredientContextBody }),
  c('get_regulatory_context', { method: 'POST', path: '/api/v1/regulatory/context', scope: 'regulatory:read', cost: 'ingredient', service: 'record', tool: 'ingredients.regulatory', readOnly: true,
    description: 'Regulatory records and documented cautions for up to 5 ingredients, or for the ingredients a product declares. A filing is never an approval or a finding of harm.',
    params: req.EmptyPath, query: req.EmptyQuery, body: req.IngredientContextBody }),
  c('get_category_snapshot', { method: 'GET', path: '/api/v1/category/snapshot', scope: 'category:read', cost: 'signal', service: 'signals', tool: 'signals.snapshot', readOnly: true,
    description: 'A summary of approved Signals and coverage for one capped date window, paged with cursor; every proportion names its denominator.',
    params: req.EmptyPath, query: req.CategorySnapshotQuery, body: null }),
  c('list_ledger_editions', { method: 'GET', path: '/api/v1/ledger', scope: 'ledger:read', cost: 'signal', service: 'ledger', tool: 'ledger.list', readOnly: true,
    description: 'The ledger editions: period, status, data-as-of date and count released. Safe to cache: a closed edition never changes.',
    params: req.EmptyPath, query: req.EmptyQuery, body: null }),
  c('get_ledger_edition', { method: 'GET', path: '/api/v1/ledger/:edition_id', scope: 'ledger:read', cost: 'signal', service: 'ledger', tool: 'ledger.get', readOnly: true,
    description: 'One ledger edition: summary, confirmed changes released in the period, category benchmarks with cohorts, serving economics, comparison, limitations and edition_hash.',
    params: req.EditionPath, query: req.EmptyQuery, body: null }),
  c('list_watched_products', { method: 'GET', path: '/api/v1/watch', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.list', readOnly: true,
    description: "The products on the key's account watchlist with monitoring state, last read, next check due and whether the source is unreadable.",
    params: req.EmptyPath, query: req.EmptyQuery, body: null }),
  c('watch_product', { method: 'POST', path: '/api/v1/watch', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.add', readOnly: false,
    description: "Add a covered product to the account's watchlist (idempotent). Alerts arrive by email when Signals on it are released.",
    params: req.EmptyPath, query: req.EmptyQuery, body: req.WatchProductBody }),
  c('unwatch_product', { method: 'DELETE', path: '/api/v1/watch/:product_id', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.remove', readOnly: false,
    description: 'Remove a product from the watchlist (idempotent). Stops future alerts; removes nothing already delivered.',
    params: req.WatchPath, query: req.EmptyQuery, body: null }),
  c('get_watch_receipt', { method: 'GET', path: '/api/v1/watch/receipt', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.receipt', readOnly: true,
    description: 'Monitoring receipt for a month (YYYY-MM, default current): valid checks, empty attempts, recoveries and confirmed Signals per watched product.',
    params: req.EmptyPath, query: req.WatchReceiptQuery, body: null }),
  c('get_record_version', { method: 'GET', path: '/api/v1/record/version', scope: 'framework:read', cost: 'nothing', service: 'record', tool: 'record.version', readOnly: true,
    description: 'Record version, methodology version, supported category, coverage counts and source freshness. Spends no budget.',
    params: req.EmptyPath, query: req.EmptyQuery, body: null }),
] as const;

/** Any row of the table, with its own name and schemas. */
export type CapabilityRow = (typeof capabilityList)[number];
export type CapabilityName = CapabilityRow['name'];
/** The row named N. */
export type CapabilityOf<N extends CapabilityName> = Extract<CapabilityRow, { name: N }>;
/** The capabilities one service answers. */
export type ServiceCapabilityName<S extends ServiceName> = Extract<CapabilityRow, { service: S }>['name'];

/**
 * What a capability's handler receives once its row's schemas accepted the
 * request: the parsed path parameters, query and body (undefined where the
 * row takes no body), and the capability's own name, so that answers and
 * refusals name it without repeating it as a literal. Over several rows it is
 * the union of each row's input, told apart by `capability`.
 */
export type CapabilityInput<C extends Capability = Capability> = C extends Capability
  ? {
      capability: C['name'];
      params: z.output<C['params']>;
      query: z.output<C['query']>;
      body: C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
    }
  : never;

export const capabilities = Object.fromEntries(capabilityList.map((cap) => [cap.name, cap])) as {
  readonly [N in CapabilityName]: CapabilityOf<N>;
};

export function capabilityByTool(tool: string): Capability | undefined {
  return capabilityList.find((cap) => cap.tool === tool || `service_${cap.name}` === tool);
}

export const HEALTH_PATH = '/api/v1/health';
export const OPENAPI_PATH = '/api/v1/openapi.json';
