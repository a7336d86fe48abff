import type { PoolClient } from '@evidence-record/platform';

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

export interface StateRow {
  state_id: string;
  product_id: string;
  observed_from: string;
  classification: 'comparable' | 'presence_only' | 'identity_only';
  serving_size: number | null;
  serving_unit: string | null;
  servings_per_container: number | null;
}

/** Every label state first observed on or before the data-as-of date, oldest first per product. */
export async function statesObservedBy(client: PoolClient, asOf: string): Promise<StateRow[]> {
  const { rows } = await client.query<StateRow>({
    name: 'ledger-states-observed-by',
    text: `SELECT state_id, product_id, observed_from, classification, serving_size, serving_unit, servings_per_container
             FROM history_states WHERE observed_from <= $1::date
            ORDER BY product_id, observed_from, observed_to, state_id`,
    values: [asOf],
  });
  return rows;
}

export interface DeclarationRow {
  state_id: string;
  ingredient_id: string | null;
  declared_name: string;
  amount: number | null;
  unit: string | null;
  in_blend: boolean;
}

export async function declarationsOf(client: PoolClient, stateIds: string[]): Promise<DeclarationRow[]> {
  if (stateIds.length === 0) return [];
  const { rows } = await client.query<DeclarationRow>({
    name: 'ledger-declarations-of',
    text: `SELECT state_id, ingredient_id, declared_name, amount, unit, blend_id IS NOT NULL AS in_blend
             FROM declared_ingredients WHERE state_id = ANY($1::text[])
            ORDER BY state_id, position`,
    values: [stateIds],
  });
  return rows;
}

export interface ListPriceRow {
  product_id: string;
  retailer: string;
  observed_at: string;
  price_cents: number;
  servings_per_container: number;
}

/** List prices observed in the period that carry their own servings per container. */
export async function listPricesBetween(client: PoolClient, from: string, asOf: string): Promise<ListPriceRow[]> {
  const { rows } = await client.query<ListPriceRow>({
    name: 'ledger-list-prices-between',
    text: `SELECT product_id, retailer, observed_at, price_cents, servings_per_container
             FROM price_observations
            WHERE price_basis = 'list' AND servings_per_container IS NOT NULL AND observed_at BETWEEN $1::date AND $2::date
            ORDER BY product_id, observed_at DESC, retailer`,
    values: [from, asOf],
  });
  return rows;
}
