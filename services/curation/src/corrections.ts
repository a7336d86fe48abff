import { createHash } from 'node:crypto';
import { ALERT_REQUESTED, AlertRequestedEvent, systemClock, utcDate, type Clock } from '@evidence-record/contract';
import { withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { CurationRefused, NotFound } from './errors';
import { operatorText, publicText } from './text';

export interface CorrectionInput {
  signal_id: string;
  /** Public: shown with the Signal in every answer that names it, and in the correction email. */
  note: string;
  /** Operator-side only; never leaves the Record's operator tables. */
  operatorNote?: string;
  /** A corrected summary; id, address, release date and the released summary never change. */
  summary?: string;
  /** Who recorded it (operator side): the CLI's --by, the console's signed-in operator. */
  by?: string;
  clock?: Clock;
}

export interface CorrectionResult {
  signal_id: string;
  kind: 'correction' | 'withdrawal';
  correction_id: number;
  recorded_on: string;
  summary_before: string | null;
  summary_after: string | null;
  /** Correction notices queued: one per account that was emailed an alert for this Signal. */
  notices: number;
  event_ids: string[];
  record_version: string | null;
}

/** The stable id of the one notice an account gets about one correction. */
export function correctionNoticeId(correctionId: number, accountId: string): string {
  return `alr_${createHash('sha256').update(`correction:${correctionId}:${accountId}`, 'utf8').digest('hex').slice(0, 24)}`;
}

/**
 * One correction notice per account that was emailed an alert for the Signal
 * (sent, or being sent right now), stored with its request in the outbox in
 * the correction's own transaction: the relay publishes each request to the
 * ALERTS stream with msg id = alert id, and the email worker sends it once.
 */
async function queueNotices(client: PoolClient, signalId: string, correctionId: number): Promise<string[]> {
  const { rows } = await client.query<{ account_id: string; product_id: string; email: string }>(
    `SELECT DISTINCT ON (a.account_id) a.account_id, a.product_id, acc.email
       FROM alerts a JOIN accounts acc ON acc.account_id = a.account_id
      WHERE a.signal_id = $1 AND a.kind = 'release' AND a.status IN ('sent', 'sending')
      ORDER BY a.account_id`,
    [signalId],
  );
  const ids: string[] = [];

  for (const r of rows) {
    const alertId = correctionNoticeId(correctionId, r.account_id);
    const inserted = await client.query(
      `INSERT INTO alerts (alert_id, signal_id, account_id, product_id, email, kind, correction_id)
       VALUES ($1, $2, $3, $4, $5, 'correction', $6) ON CONFLICT DO NOTHING`,
      [alertId, signalId, r.account_id, r.product_id, r.email, correctionId],
    );
    if (!inserted.rowCount) continue;
    const event = AlertRequestedEvent.parse({ alert_id: alertId, signal_id: signalId, account_id: r.account_id, product_id: r.product_id });
    await client.query('INSERT INTO event_outbox (event_id, subject_kind, payload) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [alertId, ALERT_REQUESTED, event]);
    ids.push(alertId);
  }
  return ids;
}

/**
 * Corrects or withdraws a released Signal. Neither re-releases it: the
 * Signal keeps its id, address and release date, so a poller that already
 * processed it never receives it again; the change is visible as a
 * correction on the Signal itself, which keeps the text it replaced.
 */
async function amend(pool: Pool, kind: 'correction' | 'withdrawal', input: CorrectionInput): Promise<CorrectionResult> {
  const note = publicText('the public note', input.note, 1000);
  if (kind === 'withdrawal' && input.summary !== undefined) throw new CurationRefused('a withdrawal does not change the summary', 'invalid_input');
  const summary = input.summary === undefined ? null : publicText('the corrected summary', input.summary, 400);
  const operatorNote = input.operatorNote?.trim() ? operatorText('the operator note', input.operatorNote) : null;
  const by = input.by ? operatorText('who recorded it', input.by, 200) : null;
  const recordedOn = utcDate((input.clock ?? systemClock)());
  const { result, record_version } = await withRecordChange(pool, `Signal ${input.signal_id} ${kind}`, async (client) => {
    const { rows } = await client.query<{ status: string; released_on: string | null; summary: string }>(
      'SELECT status, released_on, summary FROM signals WHERE signal_id = $1 FOR UPDATE',
      [input.signal_id],
    );
    const signal = rows[0];
    if (!signal) throw new NotFound(`no Signal ${input.signal_id}`);
    if (signal.released_on === null) throw new CurationRefused(`${input.signal_id} is not released; only a released Signal is corrected or withdrawn`, 'not_released');
    if (signal.status === 'withdrawn') throw new CurationRefused(`${input.signal_id} is withdrawn; a withdrawal is final`, 'withdrawn');
    if (summary !== null && summary === signal.summary) throw new CurationRefused('the corrected summary is the current summary', 'no_change');
    const inserted = await client.query<{ correction_id: string }>(
      `INSERT INTO signal_corrections (signal_id, kind, recorded_on, public_note, operator_note, summary_before, summary_after, recorded_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING correction_id`,
      [input.signal_id, kind, recordedOn, note, operatorNote, summary === null ? null : signal.summary, summary, by],
    );
    const correctionId = Number(inserted.rows[0]!.correction_id);
    await client.query(`UPDATE signals SET status = $2, summary = coalesce($3, summary) WHERE signal_id = $1`, [
      input.signal_id,
      kind === 'correction' ? 'corrected' : 'withdrawn',
      summary,
    ]);
    const eventIds = await queueNotices(client, input.signal_id, correctionId);
    return { correctionId, eventIds, before: summary === null ? null : signal.summary };
  });
  return {
    signal_id: input.signal_id,
    kind,
    correction_id: result.correctionId,
    recorded_on: recordedOn,
    summary_before: result.before,
    summary_after: summary,
    notices: result.eventIds.length,
    event_ids: result.eventIds,
    record_version,
  };
}

export function correctSignal(pool: Pool, input: CorrectionInput): Promise<CorrectionResult> {
  return amend(pool, 'correction', input);
}

export function withdrawSignal(pool: Pool, input: CorrectionInput): Promise<CorrectionResult> {
  return amend(pool, 'withdrawal', input);
}
