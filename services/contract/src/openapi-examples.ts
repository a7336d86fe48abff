/**
 * The fictional products, states and Signals the OpenAPI document's example
 * answers are made of, shaped like the demo Record's answers. Each
 * capability's module builds its example answer from these (`examples`); the
 * document's tests check each against its capability's envelope, answer
 * objects closed, so an example cannot show a field the API does not send.
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

export const example = { product, other, state, signal, share, watchItem, edition };
