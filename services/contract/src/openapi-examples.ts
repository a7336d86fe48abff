import type { CapabilityName } from './capabilities';
import { MAX_SNAPSHOT_WINDOW_DAYS, METHODOLOGY_VERSION, SEARCH_RESULT_CAP } from './decisions';

/**
 * One example answer per operation for the OpenAPI document, shaped like the
 * demo Record's answers (fictional products). The document's tests check each
 * against its capability's envelope, answer objects closed, so an example
 * cannot show a field the API does not send.
 */
const product = {
  product_id: 'prd_2ywha9ykwyqd',
  name: 'Surge',
  brand_id: 'brd_ironvale',
  brand_name: 'Ironvale Nutrition',
  category: 'pre-workout',
  form: 'powder',
  depth_class: 'TRACKED',
  retired: false,
  retired_on: null,
};
const other = { ...product, product_id: 'prd_r8lqu59yxwon', name: 'Surge Pre-Workout', brand_id: 'brd_vantorra', brand_name: 'Vantorra Sport' };
const state = { state_id: 'hs_4k2m9x7q1c0d', observed_from: '2026-06-02', observed_to: '2026-11-16', classification: 'comparable' };
const signal = {
  signal_id: 'sig_9r4xal80h2ba',
  product: { product_id: product.product_id, name: product.name, brand_id: product.brand_id, brand_name: product.brand_name },
  dimension: 'formula',
  category: 'pre-workout',
  summary: 'Caffeine per serving went from 300 mg to 250 mg.',
  status: 'released',
  observation_window: { start: '2026-10-20', end: '2026-10-27', exact_change_date: null },
  review: { released_at: '2026-11-03', reviewed: true },
  signal_url: 'https://api.evidence-record.example/api/v1/signals/sig_9r4xal80h2ba',
  before: { state_id: 'hs_1a2b3c4d5e6f' },
  after: { state_id: state.state_id },
  corrections: [],
};
const share = (numerator: number, denominator: number, cohort: string) => ({
  share: denominator > 0 ? Math.round((numerator / denominator) * 10_000) / 10_000 : null,
  numerator,
  denominator,
  cohort,
});
const watchItem = {
  product_id: product.product_id,
  name: product.name,
  brand_name: product.brand_name,
  watched_since: '2026-11-20T09:12:44.000Z',
  monitoring_state: 'monitored',
  currently_unreadable: false,
  unreadable_since: null,
  last_read_at: '2026-11-17T06:00:00.000Z',
  last_checked_at: '2026-11-17T06:00:00.000Z',
  next_check_due: '2026-11-24T06:00:00.000Z',
  check_overdue: false,
  check_interval_hours: 168,
};
const edition = { edition_id: 'ed_2026_10', period: '2026-10', status: 'closed', data_as_of: '2026-10-31', count_released: 8 };

export const answerExamples: Record<CapabilityName, Record<string, unknown>> = {
  search_record: {
    products: [product],
    coverage: {
      query_normalized: 'ironvale surge caffeine',
      result_cap: SEARCH_RESULT_CAP,
      results: [{ rank: 1, product_id: product.product_id, score: 150, matched: [{ field: 'name', value: 'Surge' }, { field: 'declared_ingredient', value: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine' }] }],
      more_matches: false,
      ingredients_recognised: [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', matched: 'caffeine', by: 'name' }],
    },
  },
  resolve_product: { product, coverage: { identifier_normalized: 'iv surge', matched_on: 'alias', matched_value: 'IV Surge' } },
  get_product_record: {
    product,
    coverage: {
      latest_state: state,
      freshness: { label_observed_to: '2026-11-16', newest_price_observed_at: '2026-11-15' },
      source_health: [{ kind: 'manufacturer', retailer: null, readable: true, since: '2026-01-05', last_read_on: '2026-11-16', last_captured_on: '2026-11-16' }],
    },
  },
  get_formula_history: {
    product,
    history: [
      { ...state, state_id: 'hs_1a2b3c4d5e6f', observed_from: '2026-01-05', observed_to: '2026-10-20', serving: { serving_size: 12, serving_unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' }, declared_ingredient_count: 6, note: null },
      { ...state, serving: { serving_size: 12, serving_unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' }, declared_ingredient_count: 6, note: null },
    ].map((s) => ({ ...s, comparable: true })),
    signals: [signal],
    coverage: {
      depth_class: 'TRACKED',
      depth_of_history: { class: 'comparable_timeline', span_days: 315 },
      first_observed: '2026-01-05',
      last_observed: '2026-11-16',
      states: 2,
      comparable_states: 2,
      comparable_pairs: 1,
      released_signals: 1,
      withdrawn_signals: 0,
    },
  },
  explain_signal: { product, signals: [signal] },
  list_signal_changes: { signals: [signal], next_cursor: null },
  compare_products: {
    products: [product, other],
    comparison: {
      basis: "Amounts per serving as declared on each product's latest label state, in the label's own units.",
      states: [
        { product_id: product.product_id, ...state },
        { product_id: other.product_id, state_id: 'hs_7h8j9k0l1m2n', observed_from: '2026-03-11', observed_to: '2026-11-14', classification: 'comparable' },
      ],
      serving: [
        { product_id: product.product_id, serving_size: 12, serving_unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' },
        { product_id: other.product_id, serving_size: 10.5, serving_unit: 'g', servings_per_container: 25, description: '1 scoop (10.5 g)' },
      ],
      ingredients: [
        {
          ingredient_id: 'ing_caffeine',
          name: 'Caffeine',
          declared: [
            { product_id: product.product_id, declared: true, declared_name: 'Caffeine Anhydrous', amount: 250, unit: 'mg', blend: null },
            { product_id: other.product_id, declared: false, declared_name: null, amount: null, unit: null, blend: null },
          ],
        },
      ],
      blends: [],
      note: 'Not declared means not on the label as captured (undisclosed), not absent from the product.',
    },
  },
  get_serving_economics: {
    product,
    coverage: {
      observations: 12,
      first_observed_at: '2026-01-08',
      last_observed_at: '2026-11-15',
      price_bases_observed: ['list', 'promotional'],
      price_runs: [{ retailer: 'Shelfwise', price_basis: 'list', price: 44.99, first_observed_at: '2026-01-08', last_observed_at: '2026-11-15', observations: 10 }],
      per_gram_basis: { price_basis: 'list', as_of: '2026-11-15' },
    },
  },
  get_research_context: {
    coverage: { ingredients: [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', research_entries: 1 }], from_product_label: null, retired: [] },
  },
  get_regulatory_context: {
    product,
    coverage: {
      ingredients: [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', regulatory_records: 1, documented_cautions: 1 }],
      from_product_label: { product_id: product.product_id, state_id: state.state_id },
      retired: [],
    },
  },
  get_category_snapshot: {
    signals: [signal],
    next_cursor: null,
    coverage: {
      category: 'pre-workout',
      window: { from: '2026-10-26', to: '2026-11-24', days: 30, max_days: MAX_SNAPSHOT_WINDOW_DAYS },
      signals: {
        released_in_window: 1,
        by_dimension: [{ dimension: 'formula', ...share(1, 1, 'Signals released in the window') }],
        by_status: [{ status: 'released', ...share(1, 1, 'Signals released in the window') }],
      },
      products: {
        covered: 40,
        by_depth_class: [{ depth_class: 'TRACKED', ...share(30, 40, 'products in the covered set') }],
        with_signals_in_window: share(1, 40, 'products in the covered set'),
      },
      sources: { total: 95, unreadable: share(1, 95, 'sources'), by_kind: [{ kind: 'manufacturer', total: 40, unreadable: share(1, 40, 'manufacturer sources') }] },
    },
  },
  list_ledger_editions: { ledger: { editions: [{ ...edition, edition_id: 'ed_2026_11', period: '2026-11', status: 'open', data_as_of: '2026-11-24', count_released: 2 }, edition] } },
  get_ledger_edition: {
    signals: [signal],
    ledger: {
      edition: { ...edition, closed_at: '2026-11-03T15:00:00.000Z' },
      document: {
        edition_id: edition.edition_id,
        period: edition.period,
        status: edition.status,
        data_as_of: edition.data_as_of,
        executive_summary: '8 confirmed changes were released in October 2026.',
        confirmed_changes: [
          { signal_id: signal.signal_id, product_id: product.product_id, product_name: 'Ironvale Nutrition Surge', dimension: 'formula', summary: signal.summary, released_at: '2026-10-14', observation_window: signal.observation_window },
        ],
        category_benchmarks: [{ name: 'median declared caffeine per serving', value: 250, unit: 'mg', cohort: { description: 'products with a comparable label declaring caffeine', denominator: 31 } }],
        serving_economics: [],
        product_comparison: [],
        limitations: ['Counts are of released Signals by release date, not by the date of the change.'],
      },
      edition_hash: '3f1c0e5b9d8a7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807f6e5d4c3b2a19080',
      hash_method: { algorithm: 'sha256', encoding: 'hex', over: 'ledger.document', canonical_json: 'object keys sorted recursively by UTF-16 code units; no whitespace; UTF-8 bytes' },
    },
  },
  list_watched_products: { watch: { items: [watchItem], count: 1, limit: 10 } },
  watch_product: { watch: { changed: true, item: watchItem, count: 1, limit: 10 } },
  unwatch_product: { watch: { changed: true, alerts_cancelled: 0, count: 0, limit: 10 } },
  get_watch_receipt: {
    products: [product],
    watch: {
      receipt: {
        period: '2026-10',
        period_start: '2026-10-01',
        period_end: '2026-10-31',
        period_complete: true,
        items: [
          {
            product_id: product.product_id,
            name: product.name,
            brand_name: product.brand_name,
            coverage: { state: 'covered', covered_days: 31, days_in_period: 31, period_complete: true },
            checks: { valid: 4, empty: 0, unreadable: 0, recoveries: 0 },
            confirmed_signals: { count: 1, signal_ids: [signal.signal_id] },
          },
        ],
      },
    },
    coverage: { period: '2026-10', products_total: 1, products_covered: 1, products_partly_covered: 0 },
  },
  get_record_version: {
    coverage: {
      record_version: 'rv_2026_11_24_001',
      methodology_version: METHODOLOGY_VERSION,
      supported_category: 'pre-workout',
      counts: {
        brands: 10,
        products: 42,
        products_by_depth_class: { REGISTERED: 2, CAPTURED: 10, TRACKED: 30 },
        retired_products: 1,
        released_signals: 61,
        withdrawn_signals: 1,
        corrected_signals: 2,
        ingredients: 48,
        history_states: 140,
      },
      source_freshness: {
        newest_observation_on: '2026-11-17',
        newest_label_capture_on: '2026-11-16',
        newest_price_observed_at: '2026-11-15',
        newest_monitoring_check_on: '2026-11-17',
        sources: 95,
        unreadable_sources: 1,
        unreadable_manufacturer_sources: 1,
      },
    },
  },
};
