import type { PoolClient } from '@evidence-record/platform';

/**
 * What an edition document is computed from, read as of its data-as-of date.
 * Only released Signals, public correction notes, list prices and declared
 * label content are selected: never candidates, review notes, operator notes,
 * preserved-source paths or source hashes.
 */
export interface ReleasedSignalRow {
  signal_id: string;
  product_id: string;
  product_name: string;
  brand_id: string;
  brand_name: string;
  category: string;
  dimension: string;
  summary: string;
  window_start: string;
  window_end: string;
  exact_change_date: string | null;
  released_on: string;
  status: 'released' | 'corrected' | 'withdrawn';
  before_state_id: string | null;
  after_state_id: string | null;
}

export async function signalsReleasedBetween(client: PoolClient, from: string, asOf: string): Promise<ReleasedSignalRow[]> {
  const { rows } = await client.query<ReleasedSignalRow>({
    name: 'ledger-signals-released-between',
    text: `SELECT s.signal_id, s.product_id, p.name AS product_name, p.brand_id, b.name AS brand_name, p.category, s.dimension, s.summary,
                  s.window_start, s.window_end, s.exact_change_date, s.released_on, s.status, s.before_state_id, s.after_state_id
             FROM signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
            WHERE s.released_on IS NOT NULL AND s.released_on BETWEEN $1::date AND $2::date
            ORDER BY s.released_on, s.signal_id`,
    values: [from, asOf],
  });
  return rows;
}

export interface PublicCorrectionRow {
  signal_id: string;
  kind: 'correction' | 'withdrawal';
  recorded_on: string;
  public_note: string;
}

export async function publicCorrections(client: PoolClient, signalIds: string[], asOf: string): Promise<PublicCorrectionRow[]> {
  if (signalIds.length === 0) return [];
  const { rows } = await client.query<PublicCorrectionRow>({
    name: 'ledger-public-corrections',
    text: `SELECT signal_id, kind, recorded_on, public_note FROM signal_corrections
            WHERE signal_id = ANY($1::text[]) AND recorded_on <= $2::date
            ORDER BY signal_id, recorded_on, correction_id`,
    values: [signalIds, asOf],
  });
  return rows;
}

export interface CoveredProductRow {
  product_id: string;
  name: string;
  brand_name: string;
  depth_class: 'REGISTERED' | 'CAPTURED' | 'TRACKED';
}

export async function coveredProducts(client: PoolClient, asOf: string, category: string): Promise<CoveredProductRow[]> {
  const { rows } = await client.query<CoveredProductRow>({
    name: 'ledger-covered-products',
    text: `SELECT p.product_id, p.name, b.name AS brand_name, p.depth_class
             FROM products p JOIN brands b ON b.brand_id = p.brand_id
            WHERE (p.retired_on IS NULL OR p.retired_on > $1::date) AND p.category = $2
            ORDER BY p.product_id`,
    values: [asOf, category],
  });
  return rows;
}

export interface ListPriceRow {
  observation_id: number;
  product_id: string;
  retailer: string;
  observed_at: string;
  price_cents: number;
  servings_per_container: number | null;
  servings_source: 'price observation' | 'declared serving configuration' | null;
}

/** Each product's newest list price observed within the period (never a promotional price). */
export async function newestListPrices(client: PoolClient, from: string, asOf: string): Promise<ListPriceRow[]> {
  const { rows } = await client.query<ListPriceRow>({
    name: 'ledger-newest-list-prices',
    text: `SELECT DISTINCT ON (o.product_id)
                  o.observation_id, o.product_id, o.retailer, o.observed_at, o.price_cents,
                  coalesce(o.servings_per_container, h.servings_per_container) AS servings_per_container,
                  CASE WHEN o.servings_per_container IS NOT NULL THEN 'price observation'
                       WHEN h.servings_per_container IS NOT NULL THEN 'declared serving configuration' END AS servings_source
             FROM price_observations o LEFT JOIN history_states h ON h.state_id = o.state_id
            WHERE o.price_basis = 'list' AND o.observed_at BETWEEN $1::date AND $2::date
            ORDER BY o.product_id, o.observed_at DESC, o.retailer, o.observation_id DESC`,
    values: [from, asOf],
  });
  return rows;
}

export interface StateInForceRow {
  product_id: string;
  state_id: string;
  observed_from: string;
  observed_to: string;
  serving_size: number | null;
  serving_unit: string | null;
  servings_per_container: number | null;
  blends: number;
}

/** Each product's newest comparable label state first observed on or before the data-as-of date. */
export async function comparableStatesInForce(client: PoolClient, asOf: string): Promise<StateInForceRow[]> {
  const { rows } = await client.query<StateInForceRow>({
    name: 'ledger-comparable-states-in-force',
    text: `SELECT DISTINCT ON (h.product_id) h.product_id, h.state_id, h.observed_from, least(h.observed_to, $1::date) AS observed_to,
                  h.serving_size, h.serving_unit, h.servings_per_container,
                  (SELECT count(*)::int FROM declared_blends b WHERE b.state_id = h.state_id) AS blends
             FROM history_states h
            WHERE h.classification = 'comparable' AND h.observed_from <= $1::date
            ORDER BY h.product_id, h.observed_from DESC, h.state_id DESC`,
    values: [asOf],
  });
  return rows;
}

export interface DeclarationRow {
  state_id: string;
  position: number;
  ingredient_id: string | null;
  ingredient_name: string | null;
  declared_name: string;
  amount: number | null;
  unit: string | null;
}

export async function declarationsOf(client: PoolClient, stateIds: string[]): Promise<DeclarationRow[]> {
  if (stateIds.length === 0) return [];
  const { rows } = await client.query<DeclarationRow>({
    name: 'ledger-declarations-of',
    text: `SELECT d.state_id, d.position, d.ingredient_id, i.name AS ingredient_name, d.declared_name, d.amount, d.unit
             FROM declared_ingredients d LEFT JOIN ingredients i ON i.ingredient_id = d.ingredient_id
            WHERE d.state_id = ANY($1::text[])
            ORDER BY d.state_id, d.position`,
    values: [stateIds],
  });
  return rows;
}
