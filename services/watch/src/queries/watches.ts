import { UNSUBSCRIBE_ISSUE_TIME_MILESTONE } from '@evidence-record/contract';
import { PRODUCT_IDENTITY_COLUMNS, type ProductIdentityRow } from '@evidence-record/record-store';
import type { PoolClient } from '@evidence-record/platform';

/** A watched product's identity: the store's product row without the internal `is_demo`. */
export type ProductRow = ProductIdentityRow;

const productColumns = PRODUCT_IDENTITY_COLUMNS;

export interface WatchItemRow extends ProductRow {
  watched_since: Date;
  monitored_today: boolean;
  span_started_on: string | null;
  sources_total: number;
  sources_unreadable: number;
  unreadable_since: Date | null;
  last_read_at: Date | null;
  last_checked_at: Date | null;
  /** The monitor's next scheduled check over the product's active sources. */
  next_check_due: Date | null;
}

/**
 * The account's watch items with what the monitoring ledger says about each
 * product today. Sources are only counted: their URLs and ids stay inside.
 * $3 narrows to one product (null: every watched product).
 */
export async function listWatchItems(client: PoolClient, accountId: string, today: string, productId: string | null = null): Promise<WatchItemRow[]> {
  const { rows } = await client.query<WatchItemRow>({
    name: 'watch-list-items',
    text: `SELECT ${productColumns}, w.created_at AS watched_since,
                  span.started_on IS NOT NULL AS monitored_today,
                  span.started_on AS span_started_on,
                  src.total AS sources_total,
                  src.unreadable AS sources_unreadable,
                  src.unreadable_since,
                  greatest(src.last_read_at, chk.last_valid_at) AS last_read_at,
                  chk.last_checked_at,
                  src.next_check_due
             FROM watches w
             JOIN products p ON p.product_id = w.product_id
             JOIN brands b ON b.brand_id = p.brand_id
             LEFT JOIN LATERAL (
                  SELECT min(s.started_on) AS started_on FROM monitoring_spans s
                   WHERE s.product_id = w.product_id AND s.started_on <= $2::date AND (s.ended_on IS NULL OR s.ended_on >= $2::date)
                  ) span ON true
             LEFT JOIN LATERAL (
                  SELECT count(*)::int AS total,
                         (count(*) FILTER (WHERE so.health = 'unreadable'))::int AS unreadable,
                         min(so.health_since) FILTER (WHERE so.health = 'unreadable') AS unreadable_since,
                         max(so.last_read_at) AS last_read_at,
                         min(so.next_check_due) FILTER (WHERE so.state = 'active') AS next_check_due
                    FROM sources so WHERE so.product_id = w.product_id
                  ) src ON true
             LEFT JOIN LATERAL (
                  SELECT max(c.checked_at) AS last_checked_at,
                         max(c.checked_at) FILTER (WHERE c.outcome = 'valid') AS last_valid_at
                    FROM monitoring_checks c WHERE c.product_id = w.product_id
                  ) chk ON true
            WHERE w.account_id = $1 AND ($3::text IS NULL OR w.product_id = $3)
            ORDER BY w.created_at, w.product_id`,
    values: [accountId, today, productId],
  });
  return rows;
}

export async function countWatches(client: PoolClient, accountId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>({
    name: 'watch-count',
    text: 'SELECT count(*)::int AS n FROM watches WHERE account_id = $1',
    values: [accountId],
  });
  return rows[0]?.n ?? 0;
}

export async function isWatched(client: PoolClient, accountId: string, productId: string): Promise<boolean> {
  const { rows } = await client.query({
    name: 'watch-is-watched',
    text: 'SELECT 1 FROM watches WHERE account_id = $1 AND product_id = $2',
    values: [accountId, productId],
  });
  return rows.length > 0;
}

/**
 * Since when the account watches the product (null: it does not), and since when unsubscribe links name their
 * issue time (null if that milestone is missing): what decides whether an unsubscribe link still applies.
 */
export async function watchAgainstLink(client: PoolClient, accountId: string, productId: string): Promise<{ watchedSince: Date | null; issueTimesSince: Date | null }> {
  const { rows } = await client.query<{ watched_since: Date | null; issue_times_since: Date | null }>({
    name: 'watch-against-link',
    text: `SELECT (SELECT created_at FROM watches WHERE account_id = $1 AND product_id = $2) AS watched_since,
                  (SELECT reached_at FROM deployment_milestones WHERE name = $3) AS issue_times_since`,
    values: [accountId, productId, UNSUBSCRIBE_ISSUE_TIME_MILESTONE],
  });
  return { watchedSince: rows[0]?.watched_since ?? null, issueTimesSince: rows[0]?.issue_times_since ?? null };
}

/** True when this call added the watch. */
export async function addWatch(client: PoolClient, accountId: string, productId: string): Promise<boolean> {
  const { rowCount } = await client.query({
    name: 'watch-add',
    text: 'INSERT INTO watches (account_id, product_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    values: [accountId, productId],
  });
  return (rowCount ?? 0) > 0;
}

/** True when this call removed the watch. */
export async function removeWatch(client: PoolClient, accountId: string, productId: string): Promise<boolean> {
  const { rowCount } = await client.query({
    name: 'watch-remove',
    text: 'DELETE FROM watches WHERE account_id = $1 AND product_id = $2',
    values: [accountId, productId],
  });
  return (rowCount ?? 0) > 0;
}

/**
 * Future alerts stop with the watch: alerts not yet claimed by the email
 * worker are cancelled. Sent alerts stay as they are (nothing delivered is
 * removed); one being sent right now finishes.
 */
export async function cancelPendingAlerts(client: PoolClient, accountId: string, productId: string): Promise<number> {
  const { rowCount } = await client.query({
    name: 'watch-cancel-pending-alerts',
    text: `UPDATE alerts SET status = 'cancelled', last_error = 'unwatched before delivery'
            WHERE account_id = $1 AND product_id = $2 AND status = 'pending'`,
    values: [accountId, productId],
  });
  return rowCount ?? 0;
}

export type WatchChangeVia = 'api' | 'mcp' | 'email_unsubscribe';

/** Who changed a watchlist and through which door (table watch_changes). */
export interface WatchChangeAuthor {
  via: WatchChangeVia;
  /** The key of an API or MCP call; null for an email unsubscribe, which carries none. */
  keyId: string | null;
  requestId: string;
}

export async function recordWatchChange(client: PoolClient, accountId: string, productId: string, change: 'added' | 'removed', who: WatchChangeAuthor): Promise<void> {
  await client.query({
    name: 'watch-record-change',
    text: 'INSERT INTO watch_changes (account_id, product_id, change, via, key_id, request_id) VALUES ($1, $2, $3, $4, $5, $6)',
    values: [accountId, productId, change, who.via, who.via === 'email_unsubscribe' ? null : who.keyId, who.requestId],
  });
}
