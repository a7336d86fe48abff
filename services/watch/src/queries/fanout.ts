import type { Pool } from '@evidence-record/platform';

export interface ReleaseRow {
  status: 'released' | 'corrected' | 'withdrawn';
  released_at: Date | null;
}

/** When the Signal was released (the moment its release batch was published). */
export async function findRelease(pool: Pool, signalId: string): Promise<ReleaseRow | null> {
  const { rows } = await pool.query<ReleaseRow>({
    name: 'fanout-find-release',
    text: `SELECT s.status, rb.released_at
             FROM signals s LEFT JOIN release_batches rb ON rb.batch_id = s.batch_id
            WHERE s.signal_id = $1`,
    values: [signalId],
  });
  return rows[0] ?? null;
}

/**
 * One alert row per account whose watch on the product existed at release
 * time, in one statement (10,000 watchers are one round trip). The alert id
 * is derived from Signal and account, so a re-run inserts nothing new. The
 * release time is compared inside Postgres: a JavaScript Date would drop its
 * microseconds and lose a watch made in the same millisecond.
 */
export async function insertAlertsForWatchers(pool: Pool, signalId: string, productId: string): Promise<number> {
  const { rowCount } = await pool.query({
    name: 'fanout-insert-alerts',
    text: `INSERT INTO alerts (alert_id, signal_id, account_id, product_id, email)
           SELECT 'alr_' || left(encode(sha256(convert_to($1 || ':' || w.account_id, 'UTF8')), 'hex'), 24),
                  $1, w.account_id, w.product_id, a.email
             FROM watches w JOIN accounts a ON a.account_id = w.account_id
             JOIN signals s ON s.signal_id = $1
             JOIN release_batches rb ON rb.batch_id = s.batch_id
            WHERE w.product_id = $2 AND w.created_at <= rb.released_at
           ON CONFLICT DO NOTHING`,
    values: [signalId, productId],
  });
  return rowCount ?? 0;
}

export interface PendingAlertRow {
  alert_id: string;
  account_id: string;
  product_id: string;
}

/**
 * Alerts of this Signal still waiting for the email worker. Publishing them
 * again after a crash is harmless: the message id is the alert id, and the
 * worker skips anything no longer pending.
 */
export async function pendingAlerts(pool: Pool, signalId: string): Promise<PendingAlertRow[]> {
  const { rows } = await pool.query<PendingAlertRow>({
    name: 'fanout-pending-alerts',
    text: `SELECT alert_id, account_id, product_id FROM alerts WHERE signal_id = $1 AND status = 'pending' AND kind = 'release' ORDER BY alert_id`,
    values: [signalId],
  });
  return rows;
}
