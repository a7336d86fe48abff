import type { Pool } from '@evidence-record/platform';

/** A source as the sources page reads it: the source, its product, the monitor's schedule and its checks. */
export interface SourceRow {
  source_id: number;
  product_id: string;
  brand_name: string;
  product_name: string;
  /** `manufacturer`/`retailer`: written by capture imports; `dsld_label`/`offer_page`: given to the monitor. */
  kind: 'manufacturer' | 'retailer' | 'dsld_label' | 'offer_page';
  retailer: string | null;
  url: string;
  /** The one offer of a page of several an offer_page source reads (its sku, GTIN or MPN), or null. */
  variant: string | null;
  health: 'readable' | 'unreadable';
  health_since: Date;
  last_read_at: Date | null;
  /** `active` or `paused` (the monitor reads only active sources with a next check). */
  state: 'active' | 'paused';
  cadence_days: number;
  /** Null: the monitor was never given this source (only capture imports name it). */
  next_check_due: Date | null;
  /** The newest check of the source (the monitor's, or one recorded with a capture import or the seed). */
  last_outcome: 'valid' | 'empty' | 'unreadable' | null;
  last_checked_at: Date | null;
  /** Why the newest check read nothing or could not read the source (null for a valid one, or one recorded without a reason). */
  last_reason: string | null;
  /** Checks in a row, newest first, that could not read the source (0 when the newest could). */
  unreadable_run: number;
}

/** Every source, unreadable first, then by product. */
export async function sourceRows(pool: Pool): Promise<SourceRow[]> {
  const { rows } = await pool.query<SourceRow>(
    `SELECT s.source_id::int AS source_id, s.product_id, b.name AS brand_name, p.name AS product_name, s.kind, s.retailer, s.url, s.variant,
            s.health, s.health_since, s.last_read_at, s.state, extract(epoch FROM s.cadence)::float8 / 86400 AS cadence_days, s.next_check_due,
            coalesce(last.outcome, s.last_outcome) AS last_outcome, coalesce(last.checked_at, s.last_checked_at) AS last_checked_at,
            CASE WHEN last.outcome <> 'valid' THEN last.reason END AS last_reason,
            greatest(s.consecutive_unreadable,
              (SELECT count(*)::int FROM monitoring_checks m
                WHERE m.source_id = s.source_id AND m.outcome = 'unreadable'
                  AND m.checked_at > coalesce((SELECT max(r.checked_at) FROM monitoring_checks r WHERE r.source_id = s.source_id AND r.outcome <> 'unreadable'), '-infinity'))) AS unreadable_run
       FROM sources s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
       LEFT JOIN LATERAL (SELECT m.outcome, m.checked_at, m.reason FROM monitoring_checks m WHERE m.source_id = s.source_id ORDER BY m.checked_at DESC LIMIT 1) last ON true
      ORDER BY s.health DESC, b.name, p.name, s.source_id`,
  );
  return rows;
}

export type SourceState = 'unreadable' | 'overdue' | 'scheduled' | 'paused' | 'not_monitored';

/**
 * A source's state as a curator needs it: unreadable wins; a monitored
 * source is overdue when its next check is in the past (as
 * `check_overdue` says in a watch item) and scheduled when it is ahead; a
 * source the monitor was never given is not monitored (capture imports
 * read it), and a paused one is paused.
 */
export function sourceState(s: Pick<SourceRow, 'health' | 'state' | 'next_check_due'>, now: Date): SourceState {
  if (s.health === 'unreadable') return 'unreadable';
  if (s.next_check_due === null) return 'not_monitored';
  if (s.state === 'paused') return 'paused';
  return s.next_check_due.getTime() < now.getTime() ? 'overdue' : 'scheduled';
}

/** What the source carries: a label (manufacturer page, DSLD label) or an offer (retailer page, offer page). */
export function sourceCarries(kind: SourceRow['kind']): 'label' | 'offer' {
  return kind === 'manufacturer' || kind === 'dsld_label' ? 'label' : 'offer';
}

/** Where the reading comes from, in words: `DSLD label`, `offer page`, `manufacturer page`, `retailer page`. */
export function sourceOrigin(kind: SourceRow['kind']): string {
  return { dsld_label: 'DSLD label', offer_page: 'offer page', manufacturer: 'manufacturer page', retailer: 'retailer page' }[kind];
}
