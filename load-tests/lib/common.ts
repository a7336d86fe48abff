/**
 * Shared helpers for the Evidence Record k6 scenarios.
 *
 * - configuration from the environment (`__ENV`),
 * - request headers for REST and MCP,
 * - one request builder per capability (tagged `capability` + a low-cardinality `name`),
 * - envelope / refusal / header checks,
 * - fixture discovery (product ids, names, Signal ids) with env overrides,
 * - the realistic capability mix shared by the sustained, stress and soak scenarios,
 * - SLO thresholds per capability.
 *
 * Written for k6's own TypeScript support: only `k6/*` imports (and the contract's
 * self-contained MCP tool table, by path), no Node APIs,
 * ES2020 syntax, `import type` for anything that is only a type.
 */
import http from 'k6/http';
import type { Response } from 'k6/http';
import { check, fail, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import type { Threshold } from 'k6/options';
import { durationMs, splitSequence, splitSet } from './lists.ts';
// The one file outside load-tests the scenarios read: self-contained, so k6 (and bundle.sh's esbuild) load it by path.
import { mcpToolTable } from '../../services/contract/src/mcp-tools.ts';

export { durationMs };

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

function env(name: string): string | undefined {
  const v = __ENV[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function envString(name: string, fallback: string): string {
  return env(name) ?? fallback;
}

export function envInt(name: string, fallback: number): number {
  const v = env(name);
  if (v === undefined) return fallback;
  const n = parseInt(v, 10);
  if (!isFinite(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

export function envFloat(name: string, fallback: number): number {
  const v = env(name);
  if (v === undefined) return fallback;
  const n = parseFloat(v);
  if (!isFinite(n)) throw new Error(`${name} must be a number, got "${v}"`);
  return n;
}

export function envBool(name: string, fallback: boolean): boolean {
  const v = env(name);
  if (v === undefined) return fallback;
  return /^(1|true|yes|on)$/i.test(v);
}

/** A comma-separated set (fixture ids, names to skip): empty entries dropped, duplicates removed, order kept. */
export function envList(name: string): string[] {
  return splitSet(env(name));
}

/** A comma-separated sequence (stages): every entry kept, repeats included, in order. */
export function envSequence(name: string): string[] {
  return splitSequence(env(name));
}

export interface Config {
  /** Gateway base URL without a trailing slash. */
  baseUrl: string;
  /** Key for load and smoke traffic: every scope, on a plan with high windows and budgets. */
  apiKey: string;
  /** A free-plan key (rate-limit scenario; budget scenario falls back to it). */
  freeKey: string;
  /** A free-plan key of an organization whose product budget is untouched today. */
  budgetKey: string;
  productIds: string[];
  signalIds: string[];
  productNames: string[];
  ingredientIds: string[];
  editionId: string;
  /** Pages of the Signal feed read at most during discovery (25 Signals a page). */
  discoveryMaxPages: number;
  /** Multiplies every latency SLO (e.g. 2 on a laptop, 0.5 for a tighter gate). */
  sloScale: number;
  mcpProtocolVersion: string;
  userAgent: string;
}

function loadConfig(): Config {
  const freeKey = envString('FREE_KEY', '');
  return {
    baseUrl: envString('BASE_URL', 'http://127.0.0.1:8080').replace(/\/+$/, ''),
    apiKey: envString('API_KEY', ''),
    freeKey,
    budgetKey: envString('BUDGET_KEY', freeKey),
    productIds: envList('PRODUCT_IDS'),
    signalIds: envList('SIGNAL_IDS'),
    productNames: envList('PRODUCT_NAMES'),
    ingredientIds: envList('INGREDIENT_IDS'),
    editionId: envString('EDITION_ID', ''),
    discoveryMaxPages: envInt('DISCOVERY_MAX_PAGES', 4),
    sloScale: envFloat('SLO_SCALE', 1),
    mcpProtocolVersion: envString('MCP_PROTOCOL_VERSION', '2025-06-18'),
    userAgent: envString('USER_AGENT', 'evidence-record-k6/1'),
  };
}

export const config: Config = loadConfig();

export function requireKey(name: 'API_KEY' | 'FREE_KEY' | 'BUDGET_KEY', value: string): string {
  if (value === '') {
    fail(`${name} is not set. Pass it with -e ${name}=sk_... (see load-tests/README.md).`);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Contract constants (from the spec)
// ---------------------------------------------------------------------------

export const REQUEST_ID_PATTERN = /^req_[0-9a-f]{24}$/;
export const CACHE_CONTROL = 'private, no-store, max-age=0, must-revalidate';
export const ANSWER_STATUSES = ['supported', 'partial', 'stale', 'under_review', 'ambiguous', 'unsupported', 'refused'];
/** Envelope arrays that are always present ("yes" in the Required column). */
export const REQUIRED_ARRAYS = [
  'verified_facts',
  'commercial_facts',
  'calculations',
  'research_context',
  'regulatory_records',
  'documented_cautions',
  'limitations',
  'source_references',
];
export const REQUIRED_STRINGS = [
  'request_id',
  'capability',
  'status',
  'summary',
  'record_version',
  'record_as_of',
  'record_timestamp',
  'methodology_version',
  'disclaimer',
];

export type Capability =
  | 'health'
  | 'openapi'
  | 'search_record'
  | 'resolve_product'
  | 'get_product_record'
  | 'get_formula_history'
  | 'explain_signal'
  | 'list_signal_changes'
  | 'compare_products'
  | 'get_serving_economics'
  | 'get_research_context'
  | 'get_regulatory_context'
  | 'get_category_snapshot'
  | 'list_ledger_editions'
  | 'get_ledger_edition'
  | 'list_watched_products'
  | 'watch_product'
  | 'unwatch_product'
  | 'get_watch_receipt'
  | 'get_record_version';

/** The 18 MCP tools and the capability each one maps to: the spec's table, kept once in the contract. */
export const MCP_TOOLS: { [tool: string]: Capability } = mcpToolTable;

// ---------------------------------------------------------------------------
// Latency SLOs (milliseconds, before SLO_SCALE)
// ---------------------------------------------------------------------------

export interface Slo {
  p95: number;
  p99: number;
}

export const SLO_MS: { [c in Capability]: Slo } = {
  health: { p95: 100, p99: 250 },
  openapi: { p95: 300, p99: 800 },
  search_record: { p95: 400, p99: 1000 },
  resolve_product: { p95: 300, p99: 800 },
  get_product_record: { p95: 300, p99: 800 },
  get_formula_history: { p95: 400, p99: 1000 },
  explain_signal: { p95: 300, p99: 800 },
  list_signal_changes: { p95: 400, p99: 1000 },
  compare_products: { p95: 500, p99: 1200 },
  get_serving_economics: { p95: 300, p99: 800 },
  get_research_context: { p95: 400, p99: 1000 },
  get_regulatory_context: { p95: 400, p99: 1000 },
  get_category_snapshot: { p95: 500, p99: 1200 },
  list_ledger_editions: { p95: 300, p99: 800 },
  get_ledger_edition: { p95: 500, p99: 1200 },
  list_watched_products: { p95: 300, p99: 800 },
  watch_product: { p95: 400, p99: 1000 },
  unwatch_product: { p95: 400, p99: 1000 },
  get_watch_receipt: { p95: 400, p99: 1000 },
  get_record_version: { p95: 150, p99: 400 },
};

/** The whole realistic mix (any capability), for per-phase and per-stage thresholds. */
export const MIX_SLO: Slo = { p95: 400, p99: 1000 };

/** An MCP `tools/call` goes MCP service -> gateway -> capability, so it gets its own, looser SLO. */
export const MCP_TOOLS_CALL_SLO: Slo = { p95: 600, p99: 1500 };
export const MCP_PROTOCOL_SLO: Slo = { p95: 200, p99: 500 };

export function scaled(ms: number): number {
  return Math.round(ms * config.sloScale);
}

export function latencyThresholds(slo: Slo): Threshold[] {
  return [`p(95)<${scaled(slo.p95)}`, `p(99)<${scaled(slo.p99)}`];
}

/**
 * `http_req_duration{scenario:S,capability:C}` p95/p99 for each capability,
 * plus an overall error-rate SLO for the scenario.
 */
export function capabilityThresholds(
  scenario: string,
  capabilities: Capability[],
  maxErrorRate: number,
): { [metric: string]: Threshold[] } {
  const out: { [metric: string]: Threshold[] } = {
    [`http_req_failed{scenario:${scenario}}`]: [`rate<${maxErrorRate}`],
    [`checks{scenario:${scenario}}`]: [`rate>${1 - maxErrorRate}`],
  };
  for (const c of capabilities) {
    out[`http_req_duration{scenario:${scenario},capability:${c}}`] = latencyThresholds(SLO_MS[c]);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Custom metrics shared by several scenarios
// ---------------------------------------------------------------------------

/**
 * 429s (rate_limited, extraction_limit_reached, extraction_pattern_refused)
 * seen by traffic that should never hit a limit: the key's plan is too small
 * for the load profile, or the mix looks like copying. Tagged with `code`.
 */
export const limitRefusals = new Counter('limit_refusals');
/** Any non-2xx that is not a limit refusal, tagged with `code` (error.code or `http_<status>`). */
export const otherRefusals = new Counter('other_refusals');

// ---------------------------------------------------------------------------
// Small JSON helpers (no `any`)
// ---------------------------------------------------------------------------

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parse a response body as JSON; null when there is no body or it is not JSON. */
export function bodyJson(res: Response): Json | null {
  if (typeof res.body !== 'string' || res.body.length === 0) return null;
  try {
    return JSON.parse(res.body) as Json;
  } catch (_e) {
    return null;
  }
}

export function bodyObject(res: Response): JsonObject | null {
  const b = bodyJson(res);
  return isObject(b) ? b : null;
}

/** `get(obj, 'a.b.0.c')`: walks objects and arrays, undefined when absent. */
export function get(v: Json | null | undefined, path: string): Json | undefined {
  let cur: Json | null | undefined = v;
  for (const key of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      const i = parseInt(key, 10);
      cur = isFinite(i) ? cur[i] : undefined;
    } else if (typeof cur === 'object') {
      cur = cur[key];
    } else {
      return undefined;
    }
  }
  return cur === null ? null : cur;
}

export function getString(v: Json | null | undefined, path: string): string | undefined {
  const x = get(v, path);
  return typeof x === 'string' ? x : undefined;
}

export function getArray(v: Json | null | undefined, path: string): Json[] | undefined {
  const x = get(v, path);
  return Array.isArray(x) ? x : undefined;
}

/** Case-insensitive header lookup (k6 canonicalises names, e.g. `Ratelimit-Limit`). */
export function header(res: Response, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const k in res.headers) {
    if (k.toLowerCase() === wanted) return res.headers[k];
  }
  return undefined;
}

export function headerNames(res: Response): string[] {
  return Object.keys(res.headers);
}

export function hasNoCorsHeaders(res: Response): boolean {
  return headerNames(res).every((h) => h.toLowerCase().indexOf('access-control-') !== 0);
}

export function isNonNegativeInt(v: string | undefined): boolean {
  return v !== undefined && /^\d+$/.test(v.trim());
}

/** Retry-After in seconds (delta-seconds form), or null when absent/unparseable. */
export function retryAfterSeconds(res: Response): number | null {
  const v = header(res, 'Retry-After');
  if (v === undefined || !/^\d+$/.test(v.trim())) return null;
  return parseInt(v.trim(), 10);
}

export function errorCode(res: Response): string | undefined {
  return getString(bodyJson(res), 'error.code');
}

// ---------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------

/** k6-style duration ("90s", "2m", "1h30m", "500ms") in milliseconds. */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function daysAgo(n: number): string {
  return isoDate(new Date(Date.now() - n * 86400000));
}

/** Current UTC month as YYYY-MM (watch receipt period). */
export function currentPeriod(): string {
  return new Date().toISOString().slice(0, 7);
}

export function secondsUntilUtcMidnight(now: number = Date.now()): number {
  const d = new Date(now);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Math.ceil((next - now) / 1000);
}

/** Sleep until `offsetSeconds` past the next UTC minute boundary. */
export function sleepUntilNextMinute(offsetSeconds: number): void {
  const now = Date.now();
  const next = (Math.floor(now / 60000) + 1) * 60000 + offsetSeconds * 1000;
  sleep((next - now) / 1000);
}

// ---------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------

export function restHeaders(key: string | null, extra?: { [h: string]: string }): { [h: string]: string } {
  const h: { [h: string]: string } = {
    Accept: 'application/json',
    'User-Agent': config.userAgent,
  };
  if (key !== null && key !== '') h['Authorization'] = `Bearer ${key}`;
  if (extra) for (const k in extra) h[k] = extra[k] as string;
  return h;
}

export function mcpHeaders(key: string | null, extra?: { [h: string]: string }): { [h: string]: string } {
  const h: { [h: string]: string } = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': config.mcpProtocolVersion,
    'User-Agent': config.userAgent,
  };
  if (key !== null && key !== '') h['Authorization'] = `Bearer ${key}`;
  if (extra) for (const k in extra) h[k] = extra[k] as string;
  return h;
}

// ---------------------------------------------------------------------------
// REST capability request builders
// ---------------------------------------------------------------------------

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

/**
 * One method per capability. Every request is tagged with `capability` and a
 * templated `name` (ids never reach a metric tag, so series stay bounded).
 */
export class Api {
  readonly key: string | null;
  readonly opts: ApiOptions;

  constructor(key: string | null, opts: ApiOptions = {}) {
    this.key = key;
    this.opts = opts;
  }

  request(
    method: 'GET' | 'POST' | 'DELETE' | 'OPTIONS',
    path: string,
    capability: Capability,
    route: string,
    body?: Json,
    query?: Query,
  ): Response {
    const tags: { [k: string]: string } = { capability, name: route };
    if (this.opts.tags) for (const k in this.opts.tags) tags[k] = this.opts.tags[k] as string;
    const extra: { [h: string]: string } = {};
    if (body !== undefined) extra['Content-Type'] = 'application/json';
    if (this.opts.headers) for (const k in this.opts.headers) extra[k] = this.opts.headers[k] as string;
    const params = {
      headers: restHeaders(this.key, extra),
      tags,
      responseCallback: expect(...(this.opts.expectedStatuses ?? [])),
    };
    const url = `${config.baseUrl}${path}${queryString(query)}`;
    return http.request(method, url, body === undefined ? null : JSON.stringify(body), params);
  }

  health(): Response {
    return this.request('GET', '/api/v1/health', 'health', 'GET /api/v1/health');
  }

  openapi(): Response {
    return this.request('GET', '/api/v1/openapi.json', 'openapi', 'GET /api/v1/openapi.json');
  }

  searchRecord(query: string): Response {
    return this.request('POST', '/api/v1/record/search', 'search_record', 'POST /api/v1/record/search', { query });
  }

  resolveProduct(identifier: string): Response {
    return this.request('POST', '/api/v1/products/resolve', 'resolve_product', 'POST /api/v1/products/resolve', {
      identifier,
    });
  }

  getProductRecord(productId: string): Response {
    return this.request(
      'GET',
      `/api/v1/products/${encodeURIComponent(productId)}`,
      'get_product_record',
      'GET /api/v1/products/{product_id}',
    );
  }

  getFormulaHistory(productId: string): Response {
    return this.request(
      'GET',
      `/api/v1/products/${encodeURIComponent(productId)}/history`,
      'get_formula_history',
      'GET /api/v1/products/{product_id}/history',
    );
  }

  explainSignal(signalId: string): Response {
    return this.request(
      'GET',
      `/api/v1/signals/${encodeURIComponent(signalId)}`,
      'explain_signal',
      'GET /api/v1/signals/{signal_id}',
    );
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
    return this.request('GET', '/api/v1/signals', 'list_signal_changes', 'GET /api/v1/signals', undefined, q);
  }

  compareProducts(productIds: string[]): Response {
    return this.request('POST', '/api/v1/products/compare', 'compare_products', 'POST /api/v1/products/compare', {
      product_ids: productIds,
    });
  }

  getServingEconomics(productId: string): Response {
    return this.request(
      'GET',
      `/api/v1/products/${encodeURIComponent(productId)}/serving-economics`,
      'get_serving_economics',
      'GET /api/v1/products/{product_id}/serving-economics',
    );
  }

  getResearchContext(args: { ingredient_ids?: string[]; product_id?: string }): Response {
    return this.request(
      'POST',
      '/api/v1/research/context',
      'get_research_context',
      'POST /api/v1/research/context',
      contextBody(args),
    );
  }

  getRegulatoryContext(args: { ingredient_ids?: string[]; product_id?: string }): Response {
    return this.request(
      'POST',
      '/api/v1/regulatory/context',
      'get_regulatory_context',
      'POST /api/v1/regulatory/context',
      contextBody(args),
    );
  }

  getCategorySnapshot(q: { from?: string; to?: string; limit?: number; cursor?: string } = {}): Response {
    return this.request(
      'GET',
      '/api/v1/category/snapshot',
      'get_category_snapshot',
      'GET /api/v1/category/snapshot',
      undefined,
      q,
    );
  }

  listLedgerEditions(): Response {
    return this.request('GET', '/api/v1/ledger', 'list_ledger_editions', 'GET /api/v1/ledger');
  }

  getLedgerEdition(editionId: string): Response {
    return this.request(
      'GET',
      `/api/v1/ledger/${encodeURIComponent(editionId)}`,
      'get_ledger_edition',
      'GET /api/v1/ledger/{edition_id}',
    );
  }

  listWatchedProducts(): Response {
    return this.request('GET', '/api/v1/watch', 'list_watched_products', 'GET /api/v1/watch');
  }

  watchProduct(productId: string): Response {
    return this.request('POST', '/api/v1/watch', 'watch_product', 'POST /api/v1/watch', { product_id: productId });
  }

  unwatchProduct(productId: string): Response {
    return this.request(
      'DELETE',
      `/api/v1/watch/${encodeURIComponent(productId)}`,
      'unwatch_product',
      'DELETE /api/v1/watch/{product_id}',
    );
  }

  getWatchReceipt(period?: string): Response {
    return this.request(
      'GET',
      '/api/v1/watch/receipt',
      'get_watch_receipt',
      'GET /api/v1/watch/receipt',
      undefined,
      { period },
    );
  }

  getRecordVersion(): Response {
    return this.request('GET', '/api/v1/record/version', 'get_record_version', 'GET /api/v1/record/version');
  }
}

function contextBody(args: { ingredient_ids?: string[]; product_id?: string }): Json {
  // Request bodies reject unknown properties, and `undefined` must not be sent as a key.
  const b: JsonObject = {};
  if (args.ingredient_ids !== undefined) b['ingredient_ids'] = args.ingredient_ids;
  if (args.product_id !== undefined) b['product_id'] = args.product_id;
  return b;
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

/**
 * Checks on a 200 answer envelope. `full` also checks every required field
 * and the response headers the spec promises on every capability response.
 * Check names are generic; the `capability` tag separates them in metrics.
 */
export function checkEnvelope(res: Response, capability: Capability, mode: 'full' | 'lite' = 'full'): boolean {
  const b = bodyObject(res);
  const tags = { capability };
  const lite: { [name: string]: (r: Response) => boolean } = {
    'HTTP 200': (r) => r.status === 200,
    'request_id matches ^req_[0-9a-f]{24}$': () => REQUEST_ID_PATTERN.test(getString(b, 'request_id') ?? ''),
    'status is an answer status': () => ANSWER_STATUSES.indexOf(getString(b, 'status') ?? '') !== -1,
    'record_version is a non-empty string': () => (getString(b, 'record_version') ?? '') !== '',
  };
  if (mode === 'lite') return check(res, lite, tags);

  const full: { [name: string]: (r: Response) => boolean } = {
    ...lite,
    'capability field names the capability': () => getString(b, 'capability') === capability,
    'disclaimer is a non-empty string': () => (getString(b, 'disclaimer') ?? '') !== '',
    'required string fields present': () => REQUIRED_STRINGS.every((f) => typeof get(b, f) === 'string'),
    'required arrays present': () => REQUIRED_ARRAYS.every((f) => Array.isArray(get(b, f))),
    'confidence is an object': () => isObject(get(b, 'confidence')),
    'ambiguous answers carry candidates': () =>
      getString(b, 'status') !== 'ambiguous' || Array.isArray(get(b, 'candidates')),
    'X-Request-Id present': (r) => (header(r, 'X-Request-Id') ?? '') !== '',
    'X-Request-Id equals body request_id': (r) => header(r, 'X-Request-Id') === getString(b, 'request_id'),
    ...rateLimitHeaderChecks(),
    'Cache-Control is private, no-store, max-age=0, must-revalidate': (r) =>
      normaliseList(header(r, 'Cache-Control')) === normaliseList(CACHE_CONTROL),
    'no Access-Control-* headers': (r) => hasNoCorsHeaders(r),
  };
  return check(res, full, tags);
}

function normaliseList(v: string | undefined): string {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .join(', ');
}

export function rateLimitHeaderChecks(): { [name: string]: (r: Response) => boolean } {
  return {
    'RateLimit-Limit is an integer': (r) => isNonNegativeInt(header(r, 'RateLimit-Limit')),
    'RateLimit-Remaining is an integer': (r) => isNonNegativeInt(header(r, 'RateLimit-Remaining')),
    'RateLimit-Reset is an integer': (r) => isNonNegativeInt(header(r, 'RateLimit-Reset')),
    'RateLimit-Policy present': (r) => (header(r, 'RateLimit-Policy') ?? '') !== '',
  };
}

/** Checks on a refusal: HTTP status, `status: refused`, `error.code`, envelope basics. */
export function checkRefusal(res: Response, httpStatus: number, code: string, tags: { [k: string]: string } = {}): boolean {
  const b = bodyObject(res);
  const sets: { [name: string]: (r: Response) => boolean } = {
    [`HTTP ${httpStatus}`]: (r) => r.status === httpStatus,
    [`error.code is ${code}`]: () => getString(b, 'error.code') === code,
    'refusal status is refused': () => getString(b, 'status') === 'refused',
    'refusal request_id matches pattern': () => REQUEST_ID_PATTERN.test(getString(b, 'request_id') ?? ''),
    'refusal carries disclaimer and record_version': () =>
      (getString(b, 'disclaimer') ?? '') !== '' && typeof get(b, 'record_version') === 'string',
    'refusal error.message is a string': () => typeof get(b, 'error.message') === 'string',
    'refusal limitations is an array': () => Array.isArray(get(b, 'limitations')),
  };
  if (httpStatus === 429) {
    sets['429 carries Retry-After (seconds)'] = (r) => retryAfterSeconds(r) !== null;
  }
  return check(res, sets, tags);
}

/**
 * Count a non-200 from traffic that expected 200 into `limit_refusals` or
 * `other_refusals`, tagged with the code. Returns the code (or null on 200).
 */
export function classify(res: Response, capability: Capability): string | null {
  if (res.status === 200) return null;
  const code = errorCode(res) ?? (res.status === 0 ? `network_${res.error_code}` : `http_${res.status}`);
  if (res.status === 429) limitRefusals.add(1, { code, capability });
  else otherRefusals.add(1, { code, capability });
  return code;
}

// ---------------------------------------------------------------------------
// Fixtures: which ids the scenarios name
// ---------------------------------------------------------------------------

export interface Fixtures {
  productIds: string[];
  /** Identifiers passed to resolve_product (PRODUCT_NAMES, else names seen in the feed). */
  productNames: string[];
  signalIds: string[];
  ingredientIds: string[];
  /** Pairs that compare_products answered with 200 during setup. */
  comparablePairs: string[][];
}

function pushUnique(list: string[], v: string | undefined): void {
  if (v !== undefined && v !== '' && list.indexOf(v) === -1) list.push(v);
}

/**
 * Build fixtures from env, resolving PRODUCT_NAMES and then reading the
 * Signal feed (newest first, up to DISCOVERY_MAX_PAGES pages of 25) until at
 * least `minProducts` product ids and `minSignals` Signal ids are known.
 *
 * Uses `key` (normally API_KEY): discovery spends Signal and product budget,
 * so never point it at the free key under test.
 */
export function discoverFixtures(key: string, minProducts: number, minSignals: number): Fixtures {
  const api = new Api(key, { tags: { phase: 'setup' } });
  const productIds = config.productIds.slice();
  const productNames = config.productNames.slice();
  const signalIds = config.signalIds.slice();

  for (const name of config.productNames) {
    const res = api.resolveProduct(name);
    const b = bodyJson(res);
    if (res.status === 200 && getString(b, 'status') !== 'ambiguous') {
      pushUnique(productIds, getString(b, 'product.product_id'));
    } else if (res.status !== 200) {
      console.warn(`discovery: resolve "${name}" -> HTTP ${res.status} ${errorCode(res) ?? ''}`);
    }
  }

  let cursor: string | undefined;
  for (let page = 0; page < config.discoveryMaxPages; page++) {
    if (productIds.length >= minProducts && signalIds.length >= minSignals && productNames.length > 0) break;
    const res = api.listSignalChanges({ limit: 25, cursor });
    if (res.status !== 200) {
      console.warn(`discovery: GET /api/v1/signals -> HTTP ${res.status} ${errorCode(res) ?? ''}`);
      break;
    }
    const b = bodyJson(res);
    for (const s of getArray(b, 'signals') ?? []) {
      pushUnique(signalIds, getString(s, 'signal_id'));
      pushUnique(productIds, getString(s, 'product.product_id'));
      pushUnique(productNames, getString(s, 'product.name'));
    }
    const next = get(b, 'next_cursor');
    if (typeof next !== 'string' || next === '') break;
    cursor = next;
  }

  return { productIds, productNames, signalIds, ingredientIds: config.ingredientIds.slice(), comparablePairs: [] };
}

/** Try up to `maxPairs` adjacent pairs; keep the ones compare_products answers with 200. */
export function findComparablePairs(key: string, productIds: string[], maxPairs: number): string[][] {
  const api = new Api(key, { tags: { phase: 'setup' }, expectedStatuses: [400, 403, 404, 409, 422] });
  const pairs: string[][] = [];
  for (let i = 0; i + 1 < productIds.length && pairs.length < maxPairs && i < maxPairs * 3; i++) {
    const pair = [productIds[i] as string, productIds[i + 1] as string];
    const res = api.compareProducts(pair);
    if (res.status === 200 && getString(bodyJson(res), 'status') !== 'refused') pairs.push(pair);
  }
  return pairs;
}

/** Fixtures for the load scenarios (sustained, stress, soak). Fails early with a readable message. */
export function loadSetup(): Fixtures {
  const key = requireKey('API_KEY', config.apiKey);
  const health = new Api(null, { tags: { phase: 'setup' } }).health();
  if (health.status !== 200) fail(`health check failed: HTTP ${health.status} at ${config.baseUrl}/api/v1/health`);
  const f = discoverFixtures(key, envInt('FIXTURE_PRODUCTS', 8), 1);
  if (f.productIds.length === 0) {
    fail('no product ids: set PRODUCT_IDS or PRODUCT_NAMES, or make sure /api/v1/signals returns Signals for API_KEY');
  }
  if (f.productNames.length === 0) {
    console.warn('no product names to resolve: resolve_product will use product ids as identifiers');
    f.productNames = f.productIds.slice(0, 5);
  }
  f.comparablePairs = findComparablePairs(key, f.productIds, 3);
  if (f.comparablePairs.length === 0) {
    console.warn('no pair answered compare_products with 200; compare is dropped from the mix');
  }
  console.info(
    `fixtures: ${f.productIds.length} products, ${f.productNames.length} names, ` +
      `${f.signalIds.length} signals, ${f.comparablePairs.length} comparable pairs`,
  );
  return f;
}

// ---------------------------------------------------------------------------
// Randomness and the realistic mix
// ---------------------------------------------------------------------------

export function pick<T>(items: T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(Math.random() * items.length)] as T;
}

export interface Weighted<T> {
  weight: number;
  value: T;
}

export function pickWeighted<T>(items: Weighted<T>[]): T {
  let total = 0;
  for (const i of items) total += i.weight;
  let r = Math.random() * total;
  for (const i of items) {
    r -= i.weight;
    if (r < 0) return i.value;
  }
  return (items[items.length - 1] as Weighted<T>).value;
}

export type MixOp =
  | 'resolve'
  | 'product'
  | 'history'
  | 'signals_feed'
  | 'economics'
  | 'compare'
  | 'research'
  | 'regulatory'
  | 'record_version';

/** Default weights (percent of iterations). Override with MIX="resolve=20,product=18,...". */
export const DEFAULT_MIX: { [op in MixOp]: number } = {
  resolve: 20,
  product: 18,
  history: 8,
  signals_feed: 14,
  economics: 10,
  compare: 6,
  research: 6,
  regulatory: 6,
  record_version: 12,
};

export const MIX_CAPABILITY: { [op in MixOp]: Capability } = {
  resolve: 'resolve_product',
  product: 'get_product_record',
  history: 'get_formula_history',
  signals_feed: 'list_signal_changes',
  economics: 'get_serving_economics',
  compare: 'compare_products',
  research: 'get_research_context',
  regulatory: 'get_regulatory_context',
  record_version: 'get_record_version',
};

export function mixFromEnv(): Weighted<MixOp>[] {
  const weights: { [op: string]: number } = { ...DEFAULT_MIX };
  for (const entry of envList('MIX')) {
    const [op, w] = entry.split('=');
    if (op === undefined || w === undefined || !(op in DEFAULT_MIX)) {
      throw new Error(`MIX entry "${entry}" is not op=weight with op in ${Object.keys(DEFAULT_MIX).join('|')}`);
    }
    weights[op] = parseFloat(w);
  }
  const out: Weighted<MixOp>[] = [];
  for (const op in weights) {
    const w = weights[op] as number;
    if (w > 0) out.push({ weight: w, value: op as MixOp });
  }
  return out;
}

/** Capabilities the mix can touch (for per-capability thresholds). */
export function mixCapabilities(mix: Weighted<MixOp>[]): Capability[] {
  return mix.map((m) => MIX_CAPABILITY[m.value]);
}

/**
 * One iteration of realistic traffic: a single capability call chosen by
 * weight, checked in `lite` mode, with non-200s classified into
 * limit_refusals / other_refusals.
 */
export function mixedIteration(api: Api, f: Fixtures, mix: Weighted<MixOp>[]): void {
  let op = pickWeighted(mix);
  if (op === 'compare' && f.comparablePairs.length === 0) op = 'product';
  let res: Response;
  switch (op) {
    case 'resolve':
      res = api.resolveProduct(pick(f.productNames));
      break;
    case 'product':
      res = api.getProductRecord(pick(f.productIds));
      break;
    case 'history':
      res = api.getFormulaHistory(pick(f.productIds));
      break;
    case 'signals_feed':
      // Half the polls read the head of the feed, half pass a stored `since`.
      res = Math.random() < 0.5 ? api.listSignalChanges({ limit: 10 }) : api.listSignalChanges({ since: daysAgo(30), limit: 25 });
      break;
    case 'economics':
      res = api.getServingEconomics(pick(f.productIds));
      break;
    case 'compare':
      res = api.compareProducts(pick(f.comparablePairs));
      break;
    case 'research':
      res = api.getResearchContext(contextArgs(f));
      break;
    case 'regulatory':
      res = api.getRegulatoryContext(contextArgs(f));
      break;
    case 'record_version':
      res = api.getRecordVersion();
      break;
  }
  const capability = MIX_CAPABILITY[op];
  checkEnvelope(res, capability, 'lite');
  classify(res, capability);
}

function contextArgs(f: Fixtures): { ingredient_ids?: string[]; product_id?: string } {
  if (f.ingredientIds.length > 0 && Math.random() < 0.5) {
    return { ingredient_ids: f.ingredientIds.slice(0, 5) };
  }
  return { product_id: pick(f.productIds) };
}

// ---------------------------------------------------------------------------
// MCP (JSON-RPC 2.0 over Streamable HTTP, stateless)
// ---------------------------------------------------------------------------

let rpcSeq = 0;

export interface RpcResult {
  res: Response;
  /** The JSON-RPC message (from a JSON body, or the first `data:` event of an SSE body). */
  message: JsonObject | null;
  id: number;
}

/** Parse a JSON body, or fall back to the first SSE `data:` line (the spec says a POST never streams). */
export function rpcMessage(res: Response): JsonObject | null {
  const direct = bodyObject(res);
  if (direct) return direct;
  if (typeof res.body !== 'string') return null;
  for (const line of res.body.split('\n')) {
    if (line.indexOf('data:') === 0) {
      try {
        const v = JSON.parse(line.slice(5).trim()) as Json;
        if (isObject(v)) return v;
      } catch (_e) {
        return null;
      }
    }
  }
  return null;
}

export function mcpRequest(
  key: string | null,
  method: string,
  params: JsonObject | undefined,
  opts: { tags?: { [k: string]: string }; headers?: { [h: string]: string }; expectedStatuses?: number[] } = {},
): RpcResult {
  rpcSeq += 1;
  const id = __VU * 1000000 + rpcSeq;
  const payload: JsonObject = { jsonrpc: '2.0', id, method };
  if (params !== undefined) payload['params'] = params;
  const tags: { [k: string]: string } = {
    name: 'POST /mcp',
    mcp_method: method.replace(/\//g, '_'),
  };
  if (method === 'tools/call' && params && typeof params['name'] === 'string') tags['mcp_tool'] = params['name'];
  if (opts.tags) for (const k in opts.tags) tags[k] = opts.tags[k] as string;
  const res = http.post(`${config.baseUrl}/mcp`, JSON.stringify(payload), {
    headers: mcpHeaders(key, opts.headers),
    tags,
    responseCallback: expect(...(opts.expectedStatuses ?? [])),
  });
  return { res, message: rpcMessage(res), id };
}

export function mcpToolCall(
  key: string,
  tool: string,
  args: JsonObject,
  opts: { tags?: { [k: string]: string } } = {},
): RpcResult {
  return mcpRequest(key, 'tools/call', { name: tool, arguments: args }, opts);
}

/** Checks on a successful `tools/call` whose structuredContent is an answer envelope. */
export function checkToolCall(r: RpcResult, tool: string, mode: 'full' | 'lite' = 'full'): boolean {
  const m = r.message;
  const sc = get(m, 'result.structuredContent');
  const tags = { mcp_tool: tool };
  const sets: { [name: string]: (x: RpcResult) => boolean } = {
    'MCP HTTP 200': (x) => x.res.status === 200,
    'JSON-RPC 2.0 result with matching id': () => get(m, 'jsonrpc') === '2.0' && get(m, 'id') === r.id && isObject(get(m, 'result')),
    'tools/call result is not an error': () => get(m, 'result.isError') !== true,
    'structuredContent.request_id matches ^req_[0-9a-f]{24}$': () => REQUEST_ID_PATTERN.test(getString(sc, 'request_id') ?? ''),
    'structuredContent.status is an answer status': () => ANSWER_STATUSES.indexOf(getString(sc, 'status') ?? '') !== -1,
    'structuredContent.record_version present': () => (getString(sc, 'record_version') ?? '') !== '',
  };
  if (mode === 'full') {
    const cap = MCP_TOOLS[tool];
    sets['structuredContent.capability names the capability'] = () => cap === undefined || getString(sc, 'capability') === cap;
    sets['structuredContent.disclaimer present'] = () => (getString(sc, 'disclaimer') ?? '') !== '';
    sets['result.content[0] is text'] = () => getString(m, 'result.content.0.type') === 'text';
    sets['MCP response is application/json (never a stream)'] = (x) =>
      (header(x.res, 'Content-Type') ?? '').toLowerCase().indexOf('application/json') === 0;
    sets['no Mcp-Session-Id issued'] = (x) => header(x.res, 'Mcp-Session-Id') === undefined;
  }
  return check(r, sets, tags);
}

/** Arguments for the MCP tools the scenarios call (REST field names, as for products.resolve). */
export function toolArgs(tool: string, f: Fixtures): JsonObject {
  switch (tool) {
    case 'products.resolve':
      return { identifier: pick(f.productNames) };
    case 'products.get':
    case 'products.history':
    case 'products.serving_economics':
      return { product_id: pick(f.productIds) };
    case 'signals.list':
      return { limit: 10 };
    case 'record.version':
    default:
      return {};
  }
}
