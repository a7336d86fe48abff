import type { PoolClient } from '@evidence-record/platform';
import type { NetContent } from '@evidence-record/contract';

/** What explain_signal shows on each side of a change: states, declared ingredients, readings, list prices. */
export interface StateRow {
  state_id: string;
  product_id: string;
  observed_from: string;
  observed_to: string;
  classification: 'comparable' | 'presence_only' | 'identity_only';
  serving_size: number | null;
  serving_unit: string | null;
  servings_per_container: number | null;
  serving_description: string | null;
  net_contents: NetContent[];
  note: string | null;
  declared_ingredient_count: number;
}

export async function historyStates(client: PoolClient, stateIds: string[]): Promise<Map<string, StateRow>> {
  const { rows } = await client.query<StateRow>({
    name: 'signals-history-states',
    text: `SELECT h.state_id, h.product_id, h.observed_from, h.observed_to, h.classification, h.serving_size, h.serving_unit,
                  h.servings_per_container, h.serving_description, h.net_contents, h.note,
                  (SELECT count(*)::int FROM declared_ingredients d WHERE d.state_id = h.state_id) AS declared_ingredient_count
             FROM history_states h WHERE h.state_id = ANY($1::text[])`,
    values: [stateIds],
  });
  return new Map(rows.map((r) => [r.state_id, r]));
}

export interface DeclaredIngredientRow {
  state_id: string;
  position: number;
  ingredient_id: string | null;
  declared_name: string;
  amount: number | null;
  unit: string | null;
  /** null for the amount itself; '<' for "<1 g" (decision 2430). Compared, so a bound that changes is a difference. */
  operator: string | null;
  blend: string | null;
}

export async function declaredIngredients(client: PoolClient, stateIds: string[]): Promise<DeclaredIngredientRow[]> {
  const { rows } = await client.query<DeclaredIngredientRow>({
    name: 'signals-declared-ingredients',
    text: `SELECT d.state_id, d.position, d.ingredient_id, d.declared_name, d.amount, d.unit, d.amount_operator AS operator, bl.name AS blend
             FROM declared_ingredients d LEFT JOIN declared_blends bl ON bl.blend_id = d.blend_id
            WHERE d.state_id = ANY($1::text[])
            ORDER BY d.state_id, d.position`,
    values: [stateIds],
  });
  return rows;
}

export interface ReadingRow {
  state_id: string;
  url: string;
  kind: string;
  readable: boolean;
  observed_on: string;
  observed_at: Date;
}

/**
 * Every capture that read each state: the one that established it and the
 * later ones that confirmed the same label. Preserved-source paths and
 * content hashes are not selected.
 */
export async function stateReadings(client: PoolClient, stateIds: string[]): Promise<ReadingRow[]> {
  const { rows } = await client.query<ReadingRow>({
    name: 'signals-state-readings',
    text: `WITH readings AS (
               SELECT state_id, capture_id FROM history_states WHERE state_id = ANY($1::text[]) AND capture_id IS NOT NULL
               UNION
               SELECT state_id, capture_id FROM state_readings WHERE state_id = ANY($1::text[]))
           SELECT r.state_id, s.url, s.kind, s.health = 'readable' AS readable,
                  (c.observed_at AT TIME ZONE 'UTC')::date AS observed_on, c.observed_at
             FROM readings r JOIN captures c ON c.capture_id = r.capture_id JOIN sources s ON s.source_id = c.source_id
            ORDER BY c.observed_at`,
    values: [stateIds],
  });
  return rows;
}

export interface PriceRow {
  observation_id: number;
  product_id: string;
  retailer: string;
  observed_at: string;
  price_cents: number;
  currency: 'USD';
  price_basis: 'list' | 'promotional' | 'subscription' | 'unspecified';
  servings_per_container: number | null;
  state_servings_per_container: number | null;
  /** The matched state's serving and net contents, from which servings are derived where it declares none (decision 2410). */
  state_serving_size: number | null;
  state_serving_unit: string | null;
  state_net_contents: NetContent[] | null;
  source_url: string | null;
  /** The offer of a page of several the observation's source reads (sources.variant), or null. */
  source_variant: string | null;
  source_kind: string | null;
  source_readable: boolean | null;
}

const priceColumns = `o.observation_id, o.product_id, o.retailer, o.observed_at, o.price_cents, o.currency, o.price_basis,
  o.servings_per_container, h.servings_per_container AS state_servings_per_container,
  h.serving_size AS state_serving_size, h.serving_unit AS state_serving_unit, h.net_contents AS state_net_contents,
  s.url AS source_url, s.variant AS source_variant, s.kind AS source_kind, s.health = 'readable' AS source_readable`;
const priceFrom = `price_observations o LEFT JOIN sources s ON s.source_id = o.source_id LEFT JOIN history_states h ON h.state_id = o.state_id`;

export async function priceObservations(client: PoolClient, ids: number[]): Promise<Map<number, PriceRow>> {
  const { rows } = await client.query<PriceRow>({
    name: 'signals-price-observations',
    text: `SELECT ${priceColumns} FROM ${priceFrom} WHERE o.observation_id = ANY($1::bigint[])`,
    values: [ids],
  });
  return new Map(rows.map((r) => [r.observation_id, r]));
}

/**
 * For a price Signal recorded without explicit sides: the last list price
 * observed on or before the window start and the first on or after its end.
 */
export async function listPricesAroundWindow(
  client: PoolClient,
  productId: string,
  windowStart: string,
  windowEnd: string,
): Promise<{ before: PriceRow | null; after: PriceRow | null }> {
  const { rows } = await client.query<PriceRow & { side: 'before' | 'after' }>({
    name: 'signals-list-prices-around-window',
    text: `(SELECT 'before' AS side, ${priceColumns} FROM ${priceFrom}
             WHERE o.product_id = $1 AND o.price_basis = 'list' AND o.observed_at <= $2::date
             ORDER BY o.observed_at DESC, o.observation_id DESC LIMIT 1)
           UNION ALL
           (SELECT 'after' AS side, ${priceColumns} FROM ${priceFrom}
             WHERE o.product_id = $1 AND o.price_basis = 'list' AND o.observed_at >= $3::date
             ORDER BY o.observed_at, o.observation_id LIMIT 1)`,
    values: [productId, windowStart, windowEnd],
  });
  return { before: rows.find((r) => r.side === 'before') ?? null, after: rows.find((r) => r.side === 'after') ?? null };
}
