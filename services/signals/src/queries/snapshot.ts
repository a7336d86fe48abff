import { answerSourceKind } from '@evidence-record/contract';
import type { PoolClient } from '@evidence-record/platform';

/** Counts over one release-date window and over the covered set, for the category snapshot. */
export interface WindowCounts {
  by_dimension: Array<{ dimension: string; count: number }>;
  by_status: Array<{ status: string; count: number }>;
  products_with_signals: number;
}

export async function windowCounts(client: PoolClient, from: string, to: string, category: string): Promise<WindowCounts> {
  const { rows } = await client.query<{ grouping: 'dimension' | 'status' | 'products'; key: string | null; count: number }>({
    name: 'snapshot-window-counts',
    text: `WITH w AS (
             SELECT s.signal_id, s.dimension, s.status, s.product_id, p.retired_on
               FROM signals s JOIN products p ON p.product_id = s.product_id
              WHERE s.released_on IS NOT NULL AND s.released_on BETWEEN $1::date AND $2::date AND p.category = $3)
           SELECT 'dimension' AS grouping, dimension AS key, count(*)::int AS count FROM w GROUP BY dimension
           UNION ALL
           SELECT 'status', status, count(*)::int FROM w GROUP BY status
           UNION ALL
           SELECT 'products', NULL, count(DISTINCT product_id) FILTER (WHERE retired_on IS NULL)::int FROM w`,
    values: [from, to, category],
  });
  return {
    by_dimension: rows.filter((r) => r.grouping === 'dimension').map((r) => ({ dimension: r.key!, count: r.count })),
    by_status: rows.filter((r) => r.grouping === 'status').map((r) => ({ status: r.key!, count: r.count })),
    products_with_signals: rows.find((r) => r.grouping === 'products')?.count ?? 0,
  };
}

export interface CoverageCounts {
  products_by_depth: Array<{ depth_class: string; count: number }>;
  sources_by_kind: Array<{ kind: string; total: number; unreadable: number }>;
}

/** The covered set today: products not retired, and the health of their sources. */
export async function coverageCounts(client: PoolClient, category: string): Promise<CoverageCounts> {
  const products = await client.query<{ depth_class: string; count: number }>({
    name: 'snapshot-products-by-depth',
    text: `SELECT depth_class, count(*)::int AS count FROM products
            WHERE retired_on IS NULL AND category = $1 GROUP BY depth_class ORDER BY depth_class`,
    values: [category],
  });
  const sources = await client.query<{ kind: string; total: number; unreadable: number }>({
    name: 'snapshot-sources-by-kind',
    text: `SELECT s.kind, count(*)::int AS total, count(*) FILTER (WHERE s.health = 'unreadable')::int AS unreadable
             FROM sources s JOIN products p ON p.product_id = s.product_id
            WHERE p.retired_on IS NULL AND p.category = $1
            GROUP BY s.kind ORDER BY s.kind`,
    values: [category],
  });
  // Counted under the contract's kinds (decision 1008): DSLD labels are manufacturer sources, offer pages retailer ones.
  const byKind = new Map<string, { kind: string; total: number; unreadable: number }>();
  for (const r of sources.rows) {
    const kind = answerSourceKind(r.kind);
    const k = byKind.get(kind) ?? { kind, total: 0, unreadable: 0 };
    k.total += r.total;
    k.unreadable += r.unreadable;
    byKind.set(kind, k);
  }
  return { products_by_depth: products.rows, sources_by_kind: [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind)) };
}
