/**
 * Smoke: one VU, one iteration, every capability once (plus health, the
 * OpenAPI document, auth and CORS refusals, and the MCP entrance), with full
 * envelope and header checks. Any failed check fails the run.
 *
 *   k6 run -e BASE_URL=http://127.0.0.1:8080 -e API_KEY=sk_... load-tests/scenarios/smoke.ts
 *
 * API_KEY needs every scope and an organization bound to one account (the demo
 * key `npm run up` prints). Skip groups a key is not entitled to with
 * SMOKE_SKIP=ledger,watch,mcp.
 */
import http from 'k6/http';
import { check, group } from 'k6';
import { Counter } from 'k6/metrics';
import type { Options } from 'k6/options';
import {
  Api,
  MCP_TOOLS,
  SLO_MS,
  bodyJson,
  checkEnvelope,
  checkRefusal,
  checkToolCall,
  config,
  currentPeriod,
  daysAgo,
  discoverFixtures,
  envList,
  findComparablePairs,
  get,
  getArray,
  getString,
  hasNoCorsHeaders,
  isObject,
  mcpRequest,
  mcpToolCall,
  requireKey,
  restHeaders,
  scaled,
} from '../lib/common.ts';
import type { Fixtures, Json } from '../lib/common.ts';

const skipped = new Counter('smoke_skipped');

export const options: Options = {
  scenarios: {
    smoke: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '2m' },
  },
  thresholds: {
    'checks{scenario:smoke}': ['rate==1'],
    'http_req_failed{scenario:smoke}': ['rate==0'],
    // Single samples: a generous bound so a smoke run also catches a pathological endpoint.
    'http_req_duration{scenario:smoke}': [`max<${scaled(SLO_MS.get_category_snapshot.p99 * 2)}`],
  },
};

const SKIP = envList('SMOKE_SKIP');

export function setup(): Fixtures {
  const key = requireKey('API_KEY', config.apiKey);
  const f = discoverFixtures(key, 3, 1);
  if (f.productIds.length === 0) {
    throw new Error('no product ids: set PRODUCT_IDS or PRODUCT_NAMES, or seed Signals so /api/v1/signals can be read');
  }
  if (f.productNames.length === 0) f.productNames = [f.productIds[0] as string];
  f.comparablePairs = findComparablePairs(key, f.productIds, 1);
  return f;
}

export default function (f: Fixtures): void {
  const api = new Api(config.apiKey);
  const p0 = f.productIds[0] as string;

  group('health and description (no key)', () => {
    const anon = new Api(null);
    const h = anon.health();
    const hb = bodyJson(h);
    check(
      h,
      {
        'health HTTP 200': (r) => r.status === 200,
        'health status is ok': () => getString(hb, 'status') === 'ok',
        'health api_version is a string': () => typeof get(hb, 'api_version') === 'string',
        'health: no Access-Control-* headers': (r) => hasNoCorsHeaders(r),
      },
      { capability: 'health' },
    );

    const o = anon.openapi();
    const ob = bodyJson(o);
    const paths = get(ob, 'paths');
    check(
      o,
      {
        'openapi.json HTTP 200': (r) => r.status === 200,
        'openapi is 3.1.x': () => /^3\.1\./.test(getString(ob, 'openapi') ?? ''),
        'openapi has paths': () => isObject(paths) && Object.keys(paths).length > 0,
        'openapi describes products/resolve': () =>
          isObject(paths) && Object.keys(paths).some((p) => /\/products\/resolve$/.test(p)),
      },
      { capability: 'openapi' },
    );
  });

  group('auth and CORS refusals', () => {
    const noKey = new Api(null, { expectedStatuses: [401] }).getRecordVersion();
    checkRefusal(noKey, 401, 'invalid_credentials', { capability: 'get_record_version' });
    const badKey = new Api('sk_test_k6smoke_notavalidsecret', { expectedStatuses: [401] }).getRecordVersion();
    checkRefusal(badKey, 401, 'invalid_credentials', { capability: 'get_record_version' });

    // A browser preflight must get no CORS grant, whatever the status.
    const pre = http.options(`${config.baseUrl}/api/v1/products/resolve`, null, {
      headers: restHeaders(null, {
        Origin: 'https://k6-smoke.invalid',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      }),
      tags: { capability: 'resolve_product', name: 'OPTIONS /api/v1/products/resolve' },
      responseCallback: http.expectedStatuses({ min: 200, max: 499 }),
    });
    check(pre, { 'preflight: no Access-Control-* headers': (r) => hasNoCorsHeaders(r) });
  });

  group('record and products', () => {
    checkEnvelope(api.getRecordVersion(), 'get_record_version');
    checkEnvelope(api.searchRecord(f.productNames[0] ?? 'pre-workout'), 'search_record');

    const resolved = api.resolveProduct(f.productNames[0] as string);
    checkEnvelope(resolved, 'resolve_product');
    const rb = bodyJson(resolved);
    check(resolved, {
      'resolve: supported names product.product_id; ambiguous lists candidates; unsupported has no product': () => {
        const status = getString(rb, 'status');
        if (status === 'ambiguous') return (getArray(rb, 'candidates') ?? []).length > 0 && !getString(rb, 'product.product_id');
        if (status === 'unsupported') return !getString(rb, 'product.product_id');
        return (getString(rb, 'product.product_id') ?? '') !== '';
      },
    });

    checkEnvelope(api.getProductRecord(p0), 'get_product_record');
    checkEnvelope(api.getFormulaHistory(p0), 'get_formula_history');
    checkEnvelope(api.getServingEconomics(p0), 'get_serving_economics');
    checkEnvelope(api.getResearchContext({ product_id: p0 }), 'get_research_context');
    checkEnvelope(api.getRegulatoryContext({ product_id: p0 }), 'get_regulatory_context');

    const pair = f.comparablePairs[0] ?? (f.productIds.length >= 2 ? f.productIds.slice(0, 2) : null);
    if (pair) {
      const cmp = new Api(config.apiKey, { expectedStatuses: [400, 409, 422] }).compareProducts(pair);
      if (cmp.status === 200) {
        checkEnvelope(cmp, 'compare_products');
      } else {
        // No pair compared in setup (e.g. REGISTERED depth): the refusal must still be a well-formed envelope.
        const cb = bodyJson(cmp);
        check(cmp, {
          'compare refusal is an envelope with status refused and error.code': () =>
            getString(cb, 'status') === 'refused' && (getString(cb, 'error.code') ?? '') !== '',
        });
      }
    } else {
      skipped.add(1, { capability: 'compare_products' });
    }
  });

  group('signals and category', () => {
    const feed = api.listSignalChanges({ limit: 5 });
    checkEnvelope(feed, 'list_signal_changes');
    const fb = bodyJson(feed);
    check(feed, {
      'feed: signals is an array of at most 5': () => (getArray(fb, 'signals') ?? [null, null, null, null, null, null]).length <= 5,
      'feed: next_cursor is a string or null': () => {
        const c = get(fb, 'next_cursor');
        return c === undefined || c === null || typeof c === 'string';
      },
      'feed: newest first by review.released_at': () => isSortedDesc(getArray(fb, 'signals') ?? []),
      'feed: every Signal has signal_id, product_id, signal_url, released_at': () =>
        (getArray(fb, 'signals') ?? []).every(
          (s) =>
            !!getString(s, 'signal_id') &&
            !!getString(s, 'product.product_id') &&
            !!getString(s, 'signal_url') &&
            !!getString(s, 'review.released_at'),
        ),
    });

    const sig = f.signalIds[0];
    if (sig) {
      checkEnvelope(api.explainSignal(sig), 'explain_signal');
    } else {
      skipped.add(1, { capability: 'explain_signal' });
    }
    checkEnvelope(api.getCategorySnapshot({ from: daysAgo(30), to: daysAgo(0), limit: 5 }), 'get_category_snapshot');
  });

  if (SKIP.indexOf('ledger') === -1) {
    group('ledger', () => {
      const list = api.listLedgerEditions();
      checkEnvelope(list, 'list_ledger_editions');
      const editions = getArray(bodyJson(list), 'ledger.editions');
      check(list, { 'ledger.editions is an array': () => editions !== undefined });
      const editionId = config.editionId || editionIdOf(editions?.[0]);
      if (editionId) {
        checkEnvelope(api.getLedgerEdition(editionId), 'get_ledger_edition');
      } else {
        skipped.add(1, { capability: 'get_ledger_edition' });
      }
    });
  } else {
    skipped.add(2, { capability: 'ledger' });
  }

  if (SKIP.indexOf('watch') === -1) {
    group('watch (leaves the watchlist as it found it)', () => watchRoundTrip(api, f));
  } else {
    skipped.add(5, { capability: 'watch' });
  }

  if (SKIP.indexOf('mcp') === -1) {
    group('MCP entrance', () => {
      const list = mcpRequest(config.apiKey, 'tools/list', {});
      const tools = (getArray(list.message, 'result.tools') ?? []).map((t) => getString(t, 'name') ?? '');
      check(list, {
        'tools/list HTTP 200': (r) => r.res.status === 200,
        'tools/list names all 18 tools': () => Object.keys(MCP_TOOLS).every((t) => tools.indexOf(t) !== -1),
      });
      checkToolCall(mcpToolCall(config.apiKey, 'record.version', {}), 'record.version');
      checkToolCall(mcpToolCall(config.apiKey, 'products.resolve', { identifier: f.productNames[0] as string }), 'products.resolve');
    });
  } else {
    skipped.add(1, { capability: 'mcp' });
  }
}

/**
 * Exercise all four watch capabilities without changing the account's list:
 * watching an already-watched product and unwatching a product that is not
 * watched are both idempotent successes. Only when no fixture product is
 * already watched do we add one and remove it again.
 */
function watchRoundTrip(api: Api, f: Fixtures): void {
  const before = api.listWatchedProducts();
  checkEnvelope(before, 'list_watched_products');
  const watchedText = JSON.stringify(get(bodyJson(before), 'watch') ?? null);
  const alreadyWatched = f.productIds.filter((id) => watchedText.indexOf(id) !== -1);
  const notWatched = f.productIds.filter((id) => watchedText.indexOf(id) === -1);

  if (alreadyWatched.length > 0) {
    checkEnvelope(api.watchProduct(alreadyWatched[0] as string), 'watch_product');
    if (notWatched.length > 0) {
      checkEnvelope(api.unwatchProduct(notWatched[0] as string), 'unwatch_product');
    } else {
      skipped.add(1, { capability: 'unwatch_product' });
    }
  } else {
    const id = f.productIds[0] as string;
    checkEnvelope(api.watchProduct(id), 'watch_product');
    checkEnvelope(api.watchProduct(id), 'watch_product'); // idempotent
    checkEnvelope(api.unwatchProduct(id), 'unwatch_product');
    checkEnvelope(api.unwatchProduct(id), 'unwatch_product'); // idempotent
  }

  const receipt = api.getWatchReceipt(currentPeriod());
  checkEnvelope(receipt, 'get_watch_receipt');
}

function editionIdOf(e: Json | undefined): string | undefined {
  return getString(e, 'edition_id') ?? getString(e, 'id');
}

function isSortedDesc(signals: Json[]): boolean {
  const dates = signals.map((s) => getString(s, 'review.released_at') ?? '');
  for (let i = 1; i < dates.length; i++) {
    if ((dates[i] as string) > (dates[i - 1] as string)) return false;
  }
  return true;
}
