import type { DeclaredLine, LabelSide, ListPriceSide } from '@evidence-record/contract';
import type { Pool } from '@evidence-record/platform';
import type { SignalChange } from '../message';

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
export async function claimAlert(pool: Pool, alertId: string, leaseMs: number): Promise<{ attempt: number; claimedAt: Date } | null> {
  const { rows } = await pool.query<{ attempts: number; claimed_at: Date }>({
    name: 'email-claim-alert',
    text: `UPDATE alerts SET status = 'sending', claimed_at = now(), attempts = attempts + 1
            WHERE alert_id = $1
              AND (status = 'pending' OR (status = 'sending' AND claimed_at <= now() - $2 * interval '1 millisecond'))
              AND (alerts.kind = 'correction' OR EXISTS (SELECT 1 FROM watches w WHERE w.account_id = alerts.account_id AND w.product_id = alerts.product_id))
           RETURNING attempts, claimed_at`,
    values: [alertId, leaseMs],
  });
  const row = rows[0];
  return row ? { attempt: row.attempts, claimedAt: row.claimed_at } : null;
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

/**
 * Both sides of a Signal's change, read at send time like the rest of the
 * email: the label states' declared lines, blends, serving and market flag
 * (worded by the contract's changeLines, which pairs declarations by the rule
 * explain_signal uses), and for a price Signal its two list prices. Nothing
 * travels in the events, so a rolling upgrade never meets a message shape it
 * does not know (decision 0510).
 */
export async function loadSignalChange(pool: Pool, signalId: string): Promise<SignalChange> {
  const { rows: sides } = await pool.query<{ dimension: string; before_state_id: string | null; after_state_id: string | null; before_price_id: number | null; after_price_id: number | null }>({
    name: 'email-signal-sides',
    text: 'SELECT dimension, before_state_id, after_state_id, before_price_id, after_price_id FROM signals WHERE signal_id = $1',
    values: [signalId],
  });
  const s = sides[0];
  if (!s) return { dimension: 'formula', before: null, after: null, prices: null };
  const stateIds = [s.before_state_id, s.after_state_id].filter((id): id is string => id !== null);
  const { rows: lines } = await pool.query<DeclaredLine & { state_id: string }>({
    name: 'email-signal-declarations',
    text: `SELECT d.state_id, d.ingredient_id, d.declared_name, d.amount, d.unit, d.amount_operator AS operator, bl.name AS blend
             FROM declared_ingredients d LEFT JOIN declared_blends bl ON bl.blend_id = d.blend_id
            WHERE d.state_id = ANY($1::text[])
            ORDER BY d.state_id, d.position`,
    values: [stateIds],
  });
  const { rows: states } = await pool.query<{
    state_id: string;
    off_market: boolean;
    serving_size: number | null;
    serving_unit: string | null;
    servings_per_container: number | null;
    serving_description: string | null;
    net_contents: NonNullable<LabelSide['net_contents']>;
    blends: LabelSide['blends'];
  }>({
    name: 'email-signal-states',
    text: `SELECT h.state_id, h.off_market, h.serving_size, h.serving_unit, h.servings_per_container, h.serving_description, h.net_contents,
                  coalesce((SELECT json_agg(json_build_object('name', b.name, 'total_amount', b.total_amount, 'total_unit', b.total_unit) ORDER BY b.blend_id)
                              FROM declared_blends b WHERE b.state_id = h.state_id), '[]'::json) AS blends
             FROM history_states h WHERE h.state_id = ANY($1::text[])`,
    values: [stateIds],
  });
  const side = (stateId: string | null): LabelSide | null => {
    const st = states.find((x) => x.state_id === stateId);
    if (!stateId || !st) return null;
    return {
      lines: lines.filter((l) => l.state_id === stateId),
      blends: st.blends.map((b) => ({ name: b.name, total_amount: b.total_amount === null ? null : Number(b.total_amount), total_unit: b.total_unit })),
      serving: { size: st.serving_size, unit: st.serving_unit, servings_per_container: st.servings_per_container, description: st.serving_description },
      off_market: st.off_market,
      net_contents: st.net_contents,
    };
  };
  let prices: SignalChange['prices'] = null;
  if (s.dimension === 'price' || s.before_price_id !== null || s.after_price_id !== null) {
    const { rows } = await pool.query<ListPriceSide & { observation_id: number }>({
      name: 'email-signal-prices',
      text: 'SELECT observation_id, price_cents, retailer, servings_per_container FROM price_observations WHERE observation_id = ANY($1::bigint[])',
      values: [[s.before_price_id, s.after_price_id].filter((id) => id !== null)],
    });
    const byId = new Map(rows.map((r) => [Number(r.observation_id), r]));
    prices = {
      before: s.before_price_id !== null ? byId.get(Number(s.before_price_id)) ?? null : null,
      after: s.after_price_id !== null ? byId.get(Number(s.after_price_id)) ?? null : null,
    };
  }
  return { dimension: s.dimension, before: side(s.before_state_id), after: side(s.after_state_id), prices };
}
