import type { ClientBase } from 'pg';
import type { NetContent } from '@evidence-record/contract';

export type PriceBasis = 'list' | 'promotional' | 'subscription' | 'unspecified';

/**
 * One dated price observation. `state_servings` is what the label state the
 * observation was matched to declares, for observations that do not carry
 * their own servings per container.
 */
export interface PriceRow {
  product_id: string;
  observed_at: string;
  retailer: string;
  price_cents: number;
  price_basis: PriceBasis;
  servings_per_container: number | null;
  state_servings: number | null;
  /** The matched state's serving and net contents, from which servings are derived where it declares none (decision 2410). */
  state_serving_size: number | null;
  state_serving_unit: string | null;
  state_net_contents: NetContent[] | null;
  source_url: string | null;
  /** The offer of a page of several the observation's source reads (sources.variant), or null. */
  source_variant: string | null;
}

const priceColumns = `po.product_id, po.observed_at, po.retailer, po.price_cents, po.price_basis, po.servings_per_container,
  hs.servings_per_container AS state_servings, hs.serving_size AS state_serving_size, hs.serving_unit AS state_serving_unit,
  hs.net_contents AS state_net_contents, s.url AS source_url, s.variant AS source_variant`;
const priceJoins = `LEFT JOIN sources s ON s.source_id = po.source_id LEFT JOIN history_states hs ON hs.state_id = po.state_id`;

/** The newest observation of each retailer and price basis: the price context a product record shows. */
export async function newestPricePerRetailerAndBasis(db: ClientBase, productId: string): Promise<PriceRow[]> {
  const { rows } = await db.query<PriceRow>({
    name: 'record-prices-newest-per-retailer-basis',
    text: `SELECT DISTINCT ON (po.retailer, po.price_basis) ${priceColumns}
             FROM price_observations po ${priceJoins}
            WHERE po.product_id = $1
            ORDER BY po.retailer, po.price_basis, po.observed_at DESC, po.observation_id DESC`,
    values: [productId],
  });
  return rows.sort((a, b) => b.observed_at.localeCompare(a.observed_at) || a.retailer.localeCompare(b.retailer));
}

/** The newest observation of each price basis for each product (comparisons). */
export async function newestPricePerBasis(db: ClientBase, productIds: string[]): Promise<PriceRow[]> {
  const { rows } = await db.query<PriceRow>({
    name: 'record-prices-newest-per-basis',
    text: `SELECT DISTINCT ON (po.product_id, po.price_basis) ${priceColumns}
             FROM price_observations po ${priceJoins}
            WHERE po.product_id = ANY($1::text[])
            ORDER BY po.product_id, po.price_basis, po.observed_at DESC, po.observation_id DESC`,
    values: [productIds],
  });
  return rows;
}

/**
 * Every distinct dated observation of a product, oldest first, up to a bound
 * that no real product reaches (weekly reads for decades); `truncated` says if
 * it did. One source's same price on the same day, retailer and basis is one
 * observation however many readings recorded it (a monitor before decision
 * 1008's rule wrote a row per same-day re-reading).
 */
export const PRICE_HISTORY_BOUND = 5000;

export async function priceHistory(db: ClientBase, productId: string): Promise<{ rows: PriceRow[]; truncated: boolean }> {
  const { rows } = await db.query<PriceRow>({
    name: 'record-price-history-distinct',
    text: `SELECT ${priceColumns}
             FROM (SELECT DISTINCT ON (observed_at, price_basis, retailer, source_id, price_cents, servings_per_container) *
                     FROM price_observations
                    WHERE product_id = $1
                    ORDER BY observed_at DESC, price_basis, retailer, source_id, price_cents, servings_per_container, observation_id) po
                  ${priceJoins}
            ORDER BY po.observed_at DESC, po.price_basis, po.retailer, po.observation_id DESC
            LIMIT $2`,
    values: [productId, PRICE_HISTORY_BOUND + 1],
  });
  const truncated = rows.length > PRICE_HISTORY_BOUND;
  return { rows: rows.slice(0, PRICE_HISTORY_BOUND).reverse(), truncated };
}
