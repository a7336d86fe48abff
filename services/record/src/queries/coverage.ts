import type { ClientBase } from 'pg';
import { storedSourceKindNames, storedSourceKinds } from '@evidence-record/contract';

/** The stored kinds answers name `manufacturer` (a DSLD label is the manufacturer's declared label). */
const manufacturerKinds = storedSourceKindNames.filter((k) => storedSourceKinds[k].answers_as === 'manufacturer');

/** Counts over the whole Record. Every table read here is a Record table, so one record version has one answer. */
export interface CoverageRow {
  brands: number;
  products: number;
  products_by_depth: Record<string, number> | null;
  retired_products: number;
  demo_products: number;
  released_signals: number;
  withdrawn_signals: number;
  corrected_signals: number;
  ingredients: number;
  history_states: number;
  newest_capture_on: string | null;
  newest_price_observed_at: string | null;
  newest_check_on: string | null;
  sources: number;
  unreadable_sources: number;
  unreadable_manufacturer_sources: number;
}

export async function recordCoverage(db: ClientBase): Promise<CoverageRow> {
  const day = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const { rows } = await db.query<CoverageRow>({
    name: 'record-coverage',
    text: `
      SELECT (SELECT count(*)::int FROM brands) AS brands,
             (SELECT count(*)::int FROM products) AS products,
             (SELECT json_object_agg(depth_class, n) FROM (SELECT depth_class, count(*)::int AS n FROM products GROUP BY depth_class) d) AS products_by_depth,
             (SELECT count(*)::int FROM products WHERE retired_on IS NOT NULL) AS retired_products,
             (SELECT count(*)::int FROM products WHERE is_demo) AS demo_products,
             (SELECT count(*)::int FROM signals WHERE released_on IS NOT NULL) AS released_signals,
             (SELECT count(*)::int FROM signals WHERE released_on IS NOT NULL AND status = 'withdrawn') AS withdrawn_signals,
             (SELECT count(*)::int FROM signals WHERE released_on IS NOT NULL AND status = 'corrected') AS corrected_signals,
             (SELECT count(*)::int FROM ingredients) AS ingredients,
             (SELECT count(*)::int FROM history_states) AS history_states,
             ${day('(SELECT max(observed_at) FROM captures)')} AS newest_capture_on,
             (SELECT max(observed_at) FROM price_observations) AS newest_price_observed_at,
             ${day('(SELECT max(checked_at) FROM monitoring_checks)')} AS newest_check_on,
             (SELECT count(*)::int FROM sources) AS sources,
             (SELECT count(*)::int FROM sources WHERE health = 'unreadable') AS unreadable_sources,
             (SELECT count(*)::int FROM sources WHERE health = 'unreadable' AND kind = ANY($1::text[])) AS unreadable_manufacturer_sources`,
    values: [manufacturerKinds],
  });
  return rows[0]!;
}
