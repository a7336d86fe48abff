import type { PoolClient } from '@evidence-record/platform';
import { derivationText, servingsOfState, type NetContent } from '@evidence-record/contract';

/**
 * What an edition document is computed from. Only released Signals, public
 * correction facts, list prices and declared label content are selected:
 * never candidates, review notes, operator notes, preserved-source paths or
 * source hashes.
 */
export interface ReleasedSignalRow {
  signal_id: string;
  product_id: string;
  dimension: string;
  summary: string;
  window_start: string;
  window_end: string;
  exact_change_date: string | null;
  released_on: string;
}

export async function signalsReleasedBetween(client: PoolClient, from: string, asOf: string): Promise<ReleasedSignalRow[]> {
  const { rows } = await client.query<ReleasedSignalRow>({
    name: 'ledger-signals-released-between',
    text: `SELECT signal_id, product_id, dimension, summary, window_start, window_end, exact_change_date, released_on
             FROM signals
            WHERE released_on IS NOT NULL AND released_on BETWEEN $1::date AND $2::date
            ORDER BY released_on, signal_id`,
    values: [from, asOf],
  });
  return rows;
}

export interface CorrectionFactRow {
  signal_id: string;
  kind: 'correction' | 'withdrawal';
  recorded_on: string;
  released_on: string;
}

/** Corrections and withdrawals recorded within a date range (of any Signal), without their notes. */
export async function correctionsRecordedBetween(client: PoolClient, from: string, asOf: string): Promise<CorrectionFactRow[]> {
  const { rows } = await client.query<CorrectionFactRow>({
    name: 'ledger-corrections-recorded-between',
    text: `SELECT c.signal_id, c.kind, c.recorded_on, s.released_on
             FROM signal_corrections c JOIN signals s ON s.signal_id = c.signal_id
            WHERE s.released_on IS NOT NULL AND c.recorded_on BETWEEN $1::date AND $2::date
            ORDER BY c.recorded_on, c.correction_id`,
    values: [from, asOf],
  });
  return rows;
}

export interface ProductRow {
  product_id: string;
  name: string;
  brand_name: string;
  depth_class: 'REGISTERED' | 'CAPTURED' | 'TRACKED';
  retired_on: string | null;
  is_demo: boolean;
}

export async function allProducts(client: PoolClient): Promise<ProductRow[]> {
  const { rows } = await client.query<ProductRow>({
    name: 'ledger-all-products',
    text: `SELECT p.product_id, p.name, b.name AS brand_name, p.depth_class, p.retired_on, p.is_demo
             FROM products p JOIN brands b ON b.brand_id = p.brand_id ORDER BY p.product_id`,
  });
  return rows;
}

export interface ProductLabelRow {
  product_id: string;
  /** The newest comparable label state first observed on or before the data-as-of date. */
  comparable_state_id: string | null;
  /** Has any label state that names ingredients (comparable or presence-only) by then. */
  labelled: boolean;
  /** The newest label state of any class by then declares a proprietary blend. */
  newest_has_blend: boolean;
  /** Declared amounts of the benchmark ingredients on the newest comparable label. */
  benchmark_amounts: Array<{ ingredient_id: string; amount: number; unit: string | null }>;
}

const newestFirst = 'ORDER BY product_id, observed_from DESC, observed_to DESC, state_id DESC';

/**
 * Per product, what the benchmarks need from its labels as of the
 * data-as-of date, computed set-wise in the database so an edition over a
 * large Record reads one row per product, not every declared line.
 */
export async function productLabels(client: PoolClient, asOf: string, benchmarkIngredients: string[]): Promise<ProductLabelRow[]> {
  const { rows } = await client.query<ProductLabelRow>({
    name: 'ledger-product-labels',
    text: `WITH newest_comparable AS (
             SELECT DISTINCT ON (product_id) product_id, state_id FROM history_states
              WHERE classification = 'comparable' AND observed_from <= $1::date ${newestFirst}),
           newest_any AS (
             SELECT DISTINCT ON (product_id) product_id, state_id FROM history_states
              WHERE observed_from <= $1::date ${newestFirst}),
           labelled AS (
             SELECT DISTINCT product_id FROM history_states WHERE observed_from <= $1::date AND classification <> 'identity_only'),
           blended AS (
             SELECT DISTINCT d.state_id FROM declared_ingredients d JOIN newest_any n ON n.state_id = d.state_id WHERE d.blend_id IS NOT NULL),
           amounts AS (
             SELECT d.state_id, json_agg(json_build_object('ingredient_id', d.ingredient_id, 'amount', d.amount, 'unit', d.unit) ORDER BY d.position) AS amounts
               FROM declared_ingredients d JOIN newest_comparable n ON n.state_id = d.state_id
              WHERE d.ingredient_id = ANY($2::text[]) AND d.amount IS NOT NULL AND d.amount_operator IS NULL
              GROUP BY d.state_id)
           SELECT p.product_id, nc.state_id AS comparable_state_id, l.product_id IS NOT NULL AS labelled,
                  bl.state_id IS NOT NULL AS newest_has_blend, coalesce(am.amounts, '[]'::json) AS benchmark_amounts
             FROM products p
             LEFT JOIN newest_comparable nc ON nc.product_id = p.product_id
             LEFT JOIN newest_any na ON na.product_id = p.product_id
             LEFT JOIN labelled l ON l.product_id = p.product_id
             LEFT JOIN blended bl ON bl.state_id = na.state_id
             LEFT JOIN amounts am ON am.state_id = nc.state_id
            ORDER BY p.product_id`,
    values: [asOf, benchmarkIngredients],
  });
  return rows;
}

export interface ComparedStateRow {
  product_id: string;
  state_id: string;
  serving_size: number | null;
  serving_unit: string | null;
  servings_per_container: number | null;
  declared: Array<{ ingredient_id: string | null; declared_name: string; amount: number | null; unit: string | null; operator: string | null }>;
}

/** The newest comparable label (serving and every declared line) of the named products, as of the data-as-of date. */
export async function comparedStates(client: PoolClient, productIds: string[], asOf: string): Promise<ComparedStateRow[]> {
  if (productIds.length === 0) return [];
  const { rows } = await client.query<ComparedStateRow>({
    name: 'ledger-compared-states',
    text: `WITH newest AS (
             SELECT DISTINCT ON (product_id) product_id, state_id, serving_size, serving_unit, servings_per_container FROM history_states
              WHERE product_id = ANY($1::text[]) AND classification = 'comparable' AND observed_from <= $2::date ${newestFirst})
           SELECT n.product_id, n.state_id, n.serving_size, n.serving_unit, n.servings_per_container,
                  coalesce((SELECT json_agg(json_build_object('ingredient_id', d.ingredient_id, 'declared_name', d.declared_name, 'amount', d.amount, 'unit', d.unit, 'operator', d.amount_operator) ORDER BY d.position)
                              FROM declared_ingredients d WHERE d.state_id = n.state_id), '[]'::json) AS declared
             FROM newest n`,
    values: [productIds, asOf],
  });
  return rows;
}

export interface ListPriceRow {
  product_id: string;
  retailer: string;
  observed_at: string;
  price_cents: number;
  servings_per_container: number;
  /** Absent: the observation's own. Else the label state it was matched to declares them, or they are derived from its net contents. */
  servings_source?: string;
}

/**
 * List prices observed in the period with the servings per container they are divided by: the observation's own,
 * else what the label state it was matched to declares or derives from its net contents (decision 2410). A price the
 * monitor reads from a retailer page carries none of its own, so without its label it would never be counted.
 */
export async function listPricesBetween(client: PoolClient, from: string, asOf: string): Promise<ListPriceRow[]> {
  const { rows } = await client.query<{
    product_id: string;
    retailer: string;
    observed_at: string;
    price_cents: number;
    servings_per_container: number | null;
    state_servings: number | null;
    state_serving_size: number | null;
    state_serving_unit: string | null;
    state_net_contents: NetContent[] | null;
  }>({
    name: 'ledger-list-prices-between',
    // Two parts, so that only prices without servings of their own pay for reading their label state.
    text: `SELECT o.product_id, o.retailer, o.observed_at, o.price_cents, o.servings_per_container,
                  NULL::numeric AS state_servings, NULL::numeric AS state_serving_size, NULL::text AS state_serving_unit, NULL::jsonb AS state_net_contents
             FROM price_observations o
            WHERE o.price_basis = 'list' AND o.servings_per_container IS NOT NULL AND o.observed_at BETWEEN $1::date AND $2::date
           UNION ALL
           SELECT o.product_id, o.retailer, o.observed_at, o.price_cents, NULL::numeric,
                  h.servings_per_container, h.serving_size, h.serving_unit, h.net_contents
             FROM price_observations o JOIN history_states h ON h.state_id = o.state_id
            WHERE o.price_basis = 'list' AND o.servings_per_container IS NULL AND o.observed_at BETWEEN $1::date AND $2::date
              AND (h.servings_per_container IS NOT NULL OR jsonb_array_length(h.net_contents) > 0)
            ORDER BY product_id, observed_at DESC, retailer`,
    values: [from, asOf],
  });
  const out: ListPriceRow[] = [];
  for (const r of rows) {
    const base = { product_id: r.product_id, retailer: r.retailer, observed_at: r.observed_at, price_cents: r.price_cents };
    if (r.servings_per_container !== null) {
      out.push({ ...base, servings_per_container: Number(r.servings_per_container) });
      continue;
    }
    const s = servingsOfState({ servings_per_container: r.state_servings, serving_size: r.state_serving_size, serving_unit: r.state_serving_unit, net_contents: r.state_net_contents });
    if (s) out.push({ ...base, servings_per_container: s.value, servings_source: s.derived ? `derived: ${derivationText(s.derived)}` : 'label state' });
  }
  return out;
}
