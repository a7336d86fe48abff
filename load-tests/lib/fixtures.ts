/** Fixtures: which ids the scenarios name, from the environment or discovered through the API in setup(). */
import { fail } from 'k6';
import { Api } from './api.ts';
import { config, envInt, requireKey } from './config.ts';
import { bodyJson, errorCode, get, getArray, getString } from './json.ts';

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
