import { AlertRequestedEvent } from '@evidence-record/contract';
import { ensureStreams, natsClient, natsConnectOptions, type Pool } from '@evidence-record/platform';

/**
 * Operator side of the alerts: list dead letters, show one alert, replay a
 * dead (or stuck pending) alert. Used by `npm run -s admin -- alert …`
 * (beside listAlerts in reads.ts); the email worker, which sends them, never
 * needs these (decision 2250).
 */
export interface AlertView {
  alert_id: string;
  signal_id: string;
  account_id: string;
  product_id: string;
  email: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  claimed_at: string | null;
  sent_at: string | null;
  smtp_message_id: string | null;
}

const columns = (a: string) => `${a}alert_id, ${a}signal_id, ${a}account_id, ${a}product_id, ${a}email, ${a}status, ${a}attempts, ${a}last_error,
  to_char(${a}created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(${a}claimed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS claimed_at,
  to_char(${a}sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS sent_at,
  ${a}smtp_message_id`;

export async function listDeadLetters(pool: Pool, limit = 100): Promise<{ dead_letters: AlertView[]; count: number; total: number }> {
  const { rows } = await pool.query<AlertView>(`SELECT ${columns('')} FROM alerts WHERE status = 'dead' ORDER BY created_at, alert_id LIMIT $1`, [limit]);
  const total = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM alerts WHERE status = 'dead'`);
  return { dead_letters: rows, count: rows.length, total: total.rows[0]?.n ?? 0 };
}

export async function showAlert(pool: Pool, alertId: string): Promise<(AlertView & { still_watching: boolean; signal_summary: string }) | null> {
  const { rows } = await pool.query<AlertView & { still_watching: boolean; signal_summary: string }>(
    `SELECT ${columns('a.')},
            EXISTS (SELECT 1 FROM watches w WHERE w.account_id = a.account_id AND w.product_id = a.product_id) AS still_watching,
            s.summary AS signal_summary
       FROM alerts a JOIN signals s ON s.signal_id = a.signal_id
      WHERE a.alert_id = $1`,
    [alertId],
  );
  return rows[0] ?? null;
}

export class ReplayRefused extends Error {
  override name = 'ReplayRefused';
}

/**
 * Puts a dead (or stuck pending) alert back in the queue with a fresh
 * attempt budget, and publishes it under a new message id: the original id
 * is still inside JetStream's duplicate window and would be dropped.
 * A sent or cancelled alert is never replayed.
 */
export async function replayAlert(
  pool: Pool,
  natsUrl: string,
  natsPrefix: string,
  alertId: string,
  opts: { streamReplicas?: number } = {},
): Promise<{ alert_id: string; status: 'pending'; msg_id: string; previous_status: string }> {
  // Reach NATS first: if it is away, nothing changes and the operator can simply retry.
  const nc = await natsClient().connect({ ...natsConnectOptions(natsUrl), name: 'admin-alert-replay', timeout: 5_000, maxReconnectAttempts: 2 });
  try {
    // NATS_STREAM_REPLICAS applies if this call creates the streams; existing ones keep theirs (decision 2340).
    const names = await ensureStreams(nc, natsPrefix, { replicas: opts.streamReplicas ?? 1 });
    const { rows } = await pool.query<{ previous_status: string; signal_id: string; account_id: string; product_id: string }>(
      `UPDATE alerts a SET status = 'pending', attempts = 0, claimed_at = NULL
         FROM (SELECT alert_id, status AS previous_status FROM alerts WHERE alert_id = $1 FOR UPDATE) prev
        WHERE a.alert_id = prev.alert_id AND a.status IN ('dead', 'pending')
        RETURNING prev.previous_status, a.signal_id, a.account_id, a.product_id`,
      [alertId],
    );
    const row = rows[0];
    if (!row) {
      const current = await pool.query<{ status: string }>('SELECT status FROM alerts WHERE alert_id = $1', [alertId]);
      const status = current.rows[0]?.status;
      throw new ReplayRefused(status ? `alert ${alertId} is ${status}; only dead or pending alerts are replayed` : `no alert ${alertId}`);
    }
    const event = AlertRequestedEvent.parse({ alert_id: alertId, signal_id: row.signal_id, account_id: row.account_id, product_id: row.product_id });
    // A pending alert with no message (publish failed here) is replayed again by rerunning this command.
    const msgId = `${alertId}:replay:${Date.now()}`;
    await nc.jetstream().publish(names.alerts.requested, natsClient().JSONCodec().encode(event), { msgID: msgId, timeout: 5_000 });
    return { alert_id: alertId, status: 'pending', msg_id: msgId, previous_status: row.previous_status };
  } finally {
    await nc.close();
  }
}
