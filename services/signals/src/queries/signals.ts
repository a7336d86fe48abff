import type { SignalFeedQuery } from '@evidence-record/contract';
import type { ReleasedSignalColumns, SignalProductNames } from '@evidence-record/record-store';
import type { PoolClient } from '@evidence-record/platform';

/**
 * Reads of released Signals. Every query here requires `released_on IS NOT
 * NULL`: a Signal row exists only for an approved candidate (schema trigger),
 * and it surfaces only once it has been released in a dated batch.
 */
export interface SignalRow extends ReleasedSignalColumns, SignalProductNames {
  before_price_id: number | null;
  after_price_id: number | null;
}

const signalColumns = `
  s.signal_id, s.product_id, p.name AS product_name, p.brand_id, b.name AS brand_name, p.category,
  s.dimension, s.summary, s.status, s.window_start, s.window_end, s.exact_change_date, s.released_on,
  s.before_state_id, s.after_state_id, s.before_price_id, s.after_price_id`;

export async function findReleasedSignal(client: PoolClient, signalId: string): Promise<SignalRow | null> {
  const { rows } = await client.query<SignalRow>({
    name: 'signals-find-released',
    text: `SELECT ${signalColumns}
             FROM signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
            WHERE s.signal_id = $1 AND s.released_on IS NOT NULL`,
    values: [signalId],
  });
  return rows[0] ?? null;
}

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
    text: `SELECT ${signalColumns}
             FROM signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
            WHERE ${conditions.join('\n              AND ')}
            ORDER BY s.released_on DESC, s.signal_id DESC
            LIMIT ${add(limit + 1)}`,
    values,
  });
  return rows;
}

export interface CorrectionRow {
  signal_id: string;
  kind: 'correction' | 'withdrawal';
  recorded_on: string;
  public_note: string;
  summary_before: string | null;
  summary_after: string | null;
}

/** Public corrections only: the operator note never leaves the operator side. */
export async function correctionsOf(client: PoolClient, signalIds: string[]): Promise<Map<string, CorrectionRow[]>> {
  const out = new Map<string, CorrectionRow[]>();
  if (signalIds.length === 0) return out;
  const { rows } = await client.query<CorrectionRow>({
    name: 'signals-corrections',
    text: `SELECT signal_id, kind, recorded_on, public_note, summary_before, summary_after
             FROM signal_corrections WHERE signal_id = ANY($1::text[])
            ORDER BY recorded_on, correction_id`,
    values: [signalIds],
  });
  for (const r of rows) out.set(r.signal_id, [...(out.get(r.signal_id) ?? []), r]);
  return out;
}
