import type { PoolClient } from '@evidence-record/platform';
import { PRODUCT_IDENTITY_COLUMNS } from '@evidence-record/record-store';
import type { Span } from '../monitoring';
import type { ProductRow } from './watches';

export async function watchedProducts(client: PoolClient, accountId: string): Promise<ProductRow[]> {
  const { rows } = await client.query<ProductRow>({
    name: 'receipt-watched-products',
    text: `SELECT ${PRODUCT_IDENTITY_COLUMNS}
             FROM watches w
             JOIN products p ON p.product_id = w.product_id
             JOIN brands b ON b.brand_id = p.brand_id
            WHERE w.account_id = $1
            ORDER BY w.created_at, w.product_id`,
    values: [accountId],
  });
  return rows;
}

export async function monitoringSpans(client: PoolClient, productIds: string[]): Promise<Map<string, Span[]>> {
  const { rows } = await client.query<Span & { product_id: string }>({
    name: 'receipt-spans',
    text: 'SELECT product_id, started_on, ended_on FROM monitoring_spans WHERE product_id = ANY ($1::text[]) ORDER BY started_on',
    values: [productIds],
  });
  const out = new Map<string, Span[]>();
  for (const r of rows) {
    const list = out.get(r.product_id) ?? [];
    list.push({ started_on: r.started_on, ended_on: r.ended_on });
    out.set(r.product_id, list);
  }
  return out;
}

export interface CheckCounts {
  valid: number;
  empty: number;
  unreadable: number;
  recoveries: number;
}

/** Check outcomes per product from `start` (inclusive) to `endExclusive`, both dates. */
export async function checkCounts(client: PoolClient, productIds: string[], start: string, endExclusive: string): Promise<Map<string, CheckCounts>> {
  const { rows } = await client.query<CheckCounts & { product_id: string }>({
    name: 'receipt-check-counts',
    text: `SELECT product_id,
                  (count(*) FILTER (WHERE outcome = 'valid'))::int AS valid,
                  (count(*) FILTER (WHERE outcome = 'empty'))::int AS empty,
                  (count(*) FILTER (WHERE outcome = 'unreadable'))::int AS unreadable,
                  (count(*) FILTER (WHERE recovered))::int AS recoveries
             FROM monitoring_checks
            WHERE product_id = ANY ($1::text[])
              AND checked_at >= ($2::date)::timestamp AT TIME ZONE 'UTC'
              AND checked_at < ($3::date)::timestamp AT TIME ZONE 'UTC'
            GROUP BY product_id`,
    values: [productIds, start, endExclusive],
  });
  return new Map(rows.map((r) => [r.product_id, { valid: r.valid, empty: r.empty, unreadable: r.unreadable, recoveries: r.recoveries }]));
}

/** Signals released in the period (withdrawn ones are not confirmed changes). */
export async function releasedSignals(client: PoolClient, productIds: string[], start: string, end: string): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ product_id: string; signal_id: string }>({
    name: 'receipt-released-signals',
    text: `SELECT product_id, signal_id FROM signals
            WHERE product_id = ANY ($1::text[]) AND released_on BETWEEN $2::date AND $3::date AND status <> 'withdrawn'
            ORDER BY released_on, signal_id`,
    values: [productIds, start, end],
  });
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.product_id, [...(out.get(r.product_id) ?? []), r.signal_id]);
  return out;
}
