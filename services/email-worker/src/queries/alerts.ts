import type { Pool } from '@evidence-record/platform';

export type AlertStatus = 'pending' | 'sending' | 'sent' | 'cancelled' | 'dead';

export interface AlertRow {
  alert_id: string;
  signal_id: string;
  account_id: string;
  product_id: string;
  email: string;
  status: AlertStatus;
  /** 'correction': a notice about a correction or withdrawal (correction.ts), sent whether or not the account still watches. */
  kind: 'release' | 'correction';
  attempts: number;
  /** The account still watches the product (unwatching before delivery cancels). */
  watching: boolean;
  /** A 'sending' claim younger than the lease: another worker is on it. */
  lease_live: boolean;
  lease_remaining_ms: number | null;
  summary: string;
  dimension: string;
  window_start: string;
  window_end: string;
  exact_change_date: string | null;
  released_on: string | null;
  signal_status: 'released' | 'corrected' | 'withdrawn';
  product_name: string;
  brand_name: string;
}

/** The alert with what its email says. Lease arithmetic uses the database clock, shared by every replica. */
export async function loadAlert(pool: Pool, alertId: string, leaseMs: number): Promise<AlertRow | null> {
  const { rows } = await pool.query<AlertRow>({
    name: 'email-load-alert',
    text: `SELECT a.alert_id, a.signal_id, a.account_id, a.product_id, a.email, a.status, a.kind, a.attempts,
                  EXISTS (SELECT 1 FROM watches w WHERE w.account_id = a.account_id AND w.product_id = a.product_id) AS watching,
                  (a.status = 'sending' AND a.claimed_at > now() - $2 * interval '1 millisecond') AS lease_live,
                  CASE WHEN a.status = 'sending'
                       THEN greatest(0, extract(epoch FROM (a.claimed_at + $2 * interval '1 millisecond' - now())) * 1000)::int END AS lease_remaining_ms,
                  s.summary, s.dimension, s.window_start, s.window_end, s.exact_change_date, s.released_on, s.status AS signal_status,
                  p.name AS product_name, b.name AS brand_name
             FROM alerts a
             JOIN signals s ON s.signal_id = a.signal_id
             JOIN products p ON p.product_id = a.product_id
             JOIN brands b ON b.brand_id = p.brand_id
            WHERE a.alert_id = $1`,
    values: [alertId, leaseMs],
  });
  return rows[0] ?? null;
}

/**
 * Claims the alert for one send, in one statement: only a pending alert, or
 * one whose previous claim outlived the lease, and only while the account
 * still watches the product. Two workers can never both hold the claim.
 * Returns the attempt number, or null when the claim was not granted.
 */
export async function claimAlert(pool: Pool, alertId: string, leaseMs: number): Promise<number | null> {
  const { rows } = await pool.query<{ attempts: number }>({
    name: 'email-claim-alert',
    text: `UPDATE alerts SET status = 'sending', claimed_at = now(), attempts = attempts + 1
            WHERE alert_id = $1
              AND (status = 'pending' OR (status = 'sending' AND claimed_at <= now() - $2 * interval '1 millisecond'))
              AND (alerts.kind = 'correction' OR EXISTS (SELECT 1 FROM watches w WHERE w.account_id = alerts.account_id AND w.product_id = alerts.product_id))
           RETURNING attempts`,
    values: [alertId, leaseMs],
  });
  return rows[0]?.attempts ?? null;
}

/** Cancels an alert nobody is sending (pending, or a claim past its lease). */
export async function cancelAlert(pool: Pool, alertId: string, reason: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: 'email-cancel-alert',
    text: `UPDATE alerts SET status = 'cancelled', last_error = $2
            WHERE alert_id = $1
              AND (status = 'pending' OR (status = 'sending' AND claimed_at <= now() - $3 * interval '1 millisecond'))`,
    values: [alertId, reason, leaseMs],
  });
  return (rowCount ?? 0) > 0;
}

/** Delivery is recorded only after the SMTP server accepted the message. */
export async function markSent(pool: Pool, alertId: string, smtpMessageId: string): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: 'email-mark-sent',
    text: `UPDATE alerts SET status = 'sent', sent_at = now(), smtp_message_id = $2, last_error = NULL
            WHERE alert_id = $1 AND status = 'sending'`,
    values: [alertId, smtpMessageId],
  });
  return (rowCount ?? 0) > 0;
}

/**
 * A failed send: the alert waits (pending, unclaimed) for the next attempt.
 * When the SMTP server was unreachable the attempt is given back: the
 * server never saw the message, so an outage cannot use up its attempts.
 */
export async function markRetry(pool: Pool, alertId: string, error: string, giveAttemptBack: boolean): Promise<void> {
  await pool.query({
    name: 'email-mark-retry',
    text: `UPDATE alerts SET status = 'pending', claimed_at = NULL, last_error = $2,
                  attempts = attempts - CASE WHEN $3::boolean THEN 1 ELSE 0 END
            WHERE alert_id = $1 AND status = 'sending'`,
    values: [alertId, error, giveAttemptBack],
  });
}

/** A permanent rejection or too many attempts: a dead letter for the operator. */
export async function markDead(pool: Pool, alertId: string, error: string): Promise<void> {
  await pool.query({
    name: 'email-mark-dead',
    text: `UPDATE alerts SET status = 'dead', last_error = $2 WHERE alert_id = $1 AND status = 'sending'`,
    values: [alertId, error],
  });
}
