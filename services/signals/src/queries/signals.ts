import type { SignalFeedQuery } from '@evidence-record/contract';
import { RELEASED_SIGNAL_COLUMNS, RELEASED_SIGNALS, type SignalRow } from '@evidence-record/record-store';
import type { PoolClient } from '@evidence-record/platform';

// The feed's page of released Signals. The columns, the join and the presenter are the Record store's
// (one Signal for every answer); what is the feed's own is the filtering and the keyset paging.

/**
 * The feed's filters, as the contract's query names them: `since` is exclusive (released_on > since),
 * `until` inclusive; `from` is inclusive (the category snapshot's window; no date arithmetic, so 0001-01-01 works).
 */
export type FeedFilters = Omit<SignalFeedQuery, 'limit' | 'cursor'> & { from?: string };

/**
 * One page of released Signals, newest release first, below an optional
 * keyset position. Fetches one row more than the page so the caller knows
 * whether another page exists.
 *
 * The statement holds only the conditions the caller set, and each shape of
 * filter is its own prepared statement: a single statement with
 * `($n IS NULL OR …)` conditions gets one generic plan for every shape, and
 * that plan cannot walk the brand or product index. With the exact shape,
 * a brand page is a range of `signals_brand_feed`, a product page of
 * `signals_product`, and an unfiltered page of `signals_feed`.
 */
export async function releasedSignalsPage(
  client: PoolClient,
  filters: FeedFilters,
  below: { released_on: string; signal_id: string } | null,
  limit: number,
): Promise<SignalRow[]> {
  const conditions = ['s.released_on IS NOT NULL'];
  const values: unknown[] = [];
  let shape = '';
  const add = (value: unknown): string => `$${values.push(value)}`;
  const filter = (value: string | undefined, condition: (param: string) => string): void => {
    shape += value === undefined ? '0' : '1';
    if (value !== undefined) conditions.push(condition(add(value)));
  };
  filter(filters.from, (p) => `s.released_on >= ${p}::date`);
  filter(filters.since, (p) => `s.released_on > ${p}::date`);
  filter(filters.until, (p) => `s.released_on <= ${p}::date`);
  filter(filters.product_id, (p) => `s.product_id = ${p}::text`);
  filter(filters.brand, (p) => `s.brand_id = ${p}::text`);
  filter(filters.dimension, (p) => `s.dimension = ${p}::text`);
  filter(filters.category, (p) => `p.category = ${p}::text`);
  shape += below ? '1' : '0';
  if (below) conditions.push(`(s.released_on, s.signal_id) < (${add(below.released_on)}::date, ${add(below.signal_id)}::text)`);
  const { rows } = await client.query<SignalRow>({
    name: `signals-feed-page-${shape}`,
    text: `SELECT ${RELEASED_SIGNAL_COLUMNS}
             FROM ${RELEASED_SIGNALS}
            WHERE ${conditions.join('\n              AND ')}
            ORDER BY s.released_on DESC, s.signal_id DESC
            LIMIT ${add(limit + 1)}`,
    values,
  });
  return rows;
}
