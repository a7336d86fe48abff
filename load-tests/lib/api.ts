/**
 * The REST client the scenarios drive: one `call` for every operation, its
 * method and path read from the table generated from the contract
 * (./capabilities.ts), and a named method per capability for the arguments
 * the scenarios pass. Every request is tagged with `capability` and a
 * templated `name` (`GET /api/v1/products/{product_id}`): ids never reach a
 * metric tag, so series stay bounded.
 */
import http from 'k6/http';
import type { Response } from 'k6/http';
import { operations } from './capabilities.ts';
import { config } from './config.ts';
import type { Capability } from './contract.ts';
import type { Json, JsonObject } from './json.ts';

export function restHeaders(key: string | null, extra?: { [h: string]: string }): { [h: string]: string } {
  const h: { [h: string]: string } = {
    Accept: 'application/json',
    'User-Agent': config.userAgent,
  };
  if (key !== null && key !== '') h['Authorization'] = `Bearer ${key}`;
  if (extra) for (const k in extra) h[k] = extra[k] as string;
  return h;
}

type ResponseCallback = ReturnType<typeof http.expectedStatuses>;

/** 200 plus the given statuses count as "expected" for http_req_failed. */
export function expect(...statuses: number[]): ResponseCallback {
  return http.expectedStatuses(200, ...statuses);
}

export type Query = { [k: string]: string | number | undefined };

function queryString(q: Query | undefined): string {
  if (!q) return '';
  const parts: string[] = [];
  for (const k in q) {
    const v = q[k];
    if (v === undefined || v === '') continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export interface ApiOptions {
  /** Extra tags on every request (e.g. `soak_phase`, `stress_stage`). */
  tags?: { [k: string]: string };
  /** Statuses besides 200 that do not count as failed requests. */
  expectedStatuses?: number[];
  /** Extra request headers (e.g. `Origin`). */
  headers?: { [h: string]: string };
}

/** The names of the `{params}` in a path template. */
type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}` ? K | PathParams<Rest> : never;

/** What one call sends: the path parameters its path names, a query, a JSON body. */
export interface CallArgs<C extends Capability> {
  path?: { [K in PathParams<(typeof operations)[C]['path']>]: string };
  query?: Query;
  body?: Json;
}

export class Api {
  readonly key: string | null;
  readonly opts: ApiOptions;

  constructor(key: string | null, opts: ApiOptions = {}) {
    this.key = key;
    this.opts = opts;
  }

  /** Any operation by its name, e.g. `call('get_product_record', { path: { product_id } })`. */
  call<C extends Capability>(capability: C, args: CallArgs<C> = {}): Response {
    const op = operations[capability];
    const params: { [k: string]: string } = args.path ?? {};
    const path = op.path.replace(/\{([a-z_]+)\}/g, (_m: string, name: string) => encodeURIComponent(params[name] ?? ''));
    const tags: { [k: string]: string } = { capability, name: `${op.method} ${op.path}` };
    if (this.opts.tags) for (const k in this.opts.tags) tags[k] = this.opts.tags[k] as string;
    const extra: { [h: string]: string } = {};
    if (args.body !== undefined) extra['Content-Type'] = 'application/json';
    if (this.opts.headers) for (const k in this.opts.headers) extra[k] = this.opts.headers[k] as string;
    const request = {
      headers: restHeaders(this.key, extra),
      tags,
      responseCallback: expect(...(this.opts.expectedStatuses ?? [])),
    };
    const url = `${config.baseUrl}${path}${queryString(args.query)}`;
    return http.request(op.method, url, args.body === undefined ? null : JSON.stringify(args.body), request);
  }

  health(): Response {
    return this.call('health');
  }

  openapi(): Response {
    return this.call('openapi');
  }

  searchRecord(query: string): Response {
    return this.call('search_record', { body: { query } });
  }

  resolveProduct(identifier: string): Response {
    return this.call('resolve_product', { body: { identifier } });
  }

  getProductRecord(productId: string): Response {
    return this.call('get_product_record', { path: { product_id: productId } });
  }

  getFormulaHistory(productId: string): Response {
    return this.call('get_formula_history', { path: { product_id: productId } });
  }

  explainSignal(signalId: string): Response {
    return this.call('explain_signal', { path: { signal_id: signalId } });
  }

  listSignalChanges(q: {
    since?: string;
    until?: string;
    product_id?: string;
    brand?: string;
    dimension?: string;
    category?: string;
    limit?: number;
    cursor?: string;
  } = {}): Response {
    return this.call('list_signal_changes', { query: q });
  }

  compareProducts(productIds: string[]): Response {
    return this.call('compare_products', { body: { product_ids: productIds } });
  }

  getServingEconomics(productId: string): Response {
    return this.call('get_serving_economics', { path: { product_id: productId } });
  }

  getResearchContext(args: { ingredient_ids?: string[]; product_id?: string }): Response {
    return this.call('get_research_context', { body: contextBody(args) });
  }

  getRegulatoryContext(args: { ingredient_ids?: string[]; product_id?: string }): Response {
    return this.call('get_regulatory_context', { body: contextBody(args) });
  }

  getCategorySnapshot(q: { from?: string; to?: string; limit?: number; cursor?: string } = {}): Response {
    return this.call('get_category_snapshot', { query: q });
  }

  listLedgerEditions(): Response {
    return this.call('list_ledger_editions');
  }

  getLedgerEdition(editionId: string): Response {
    return this.call('get_ledger_edition', { path: { edition_id: editionId } });
  }

  listWatchedProducts(): Response {
    return this.call('list_watched_products');
  }

  watchProduct(productId: string): Response {
    return this.call('watch_product', { body: { product_id: productId } });
  }

  unwatchProduct(productId: string): Response {
    return this.call('unwatch_product', { path: { product_id: productId } });
  }

  getWatchReceipt(period?: string): Response {
    return this.call('get_watch_receipt', { query: { period } });
  }

  getRecordVersion(): Response {
    return this.call('get_record_version');
  }
}

function contextBody(args: { ingredient_ids?: string[]; product_id?: string }): Json {
  // Request bodies reject unknown properties, and `undefined` must not be sent as a key.
  const b: JsonObject = {};
  if (args.ingredient_ids !== undefined) b['ingredient_ids'] = args.ingredient_ids;
  if (args.product_id !== undefined) b['product_id'] = args.product_id;
  return b;
}
