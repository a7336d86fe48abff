import { SIGNAL_RELEASED, SignalReleasedEvent, isCalendarDate, signalUrl, systemClock, utcDate, type Clock, type ReleasedSignalColumns, type SignalProductNames } from '@evidence-record/contract';
import { withRecordChange, type Pool } from '@evidence-record/platform';
import { CurationRefused } from './errors';

export interface ReleaseInput {
  /** The batch's release date; default today (UTC). Never before today, always after the newest batch. */
  date?: string;
  releasedBy: string;
  publicBaseUrl: string;
  clock?: Clock;
  /** The release's trace context: every event carries it, so each alert email can be traced back to this release. */
  traceparent?: string;
}

export interface ReleaseResult {
  release_date: string;
  batch_id: number;
  signal_ids: string[];
  event_ids: string[];
  record_version: string | null;
}

/** One event per Signal, ever: the id is derived from the Signal, so a second release event cannot exist. */
export function releaseEventId(signalId: string): string {
  return `evt_released_${signalId}`;
}

/**
 * Releases every approved, unreleased Signal as one dated batch, and writes
 * one SignalReleasedEvent per Signal to the outbox in the same transaction.
 *
 * Why batches: the feed's polling contract ("pass the newest released_at
 * you processed as since") holds only if a release date, once visible,
 * never receives another Signal. So a date has at most one batch, and each
 * batch is dated after the previous one (both also enforced by the schema's
 * triggers). Signals approved after today's batch wait for the next date.
 */
export async function releaseSignals(pool: Pool, input: ReleaseInput): Promise<ReleaseResult> {
  const today = utcDate((input.clock ?? systemClock)());
  const date = input.date ?? today;
  if (!isCalendarDate(date)) throw new CurationRefused(`--date ${date} is not a calendar date (YYYY-MM-DD)`);
  if (date < today) throw new CurationRefused(`--date ${date} is before today (${today}); a release is never back-dated`);
  if (input.releasedBy.trim().length === 0) throw new CurationRefused('a release names who released it');

  const { result, record_version } = await withRecordChange(pool, `release batch ${date}`, async (client) => {
    // Serialise releases before reading the newest batch, so two operators cannot both pass the checks.
    await client.query('SELECT pg_advisory_xact_lock(7300001)');
    const newest = await client.query<{ release_date: string }>('SELECT max(release_date)::text AS release_date FROM release_batches');
    const last = newest.rows[0]?.release_date ?? null;
    if (last !== null && date <= last) {
      throw new CurationRefused(
        last === date
          ? `${date} already has a release batch; a release date never receives another Signal (release on a later date)`
          : `${date} is not after the newest release date ${last}`,
      );
    }
    const closed = await client.query(`SELECT edition_id FROM ledger_editions WHERE status = 'closed' AND period = $1`, [date.slice(0, 7)]);
    if (closed.rowCount) throw new CurationRefused(`the ledger edition ${closed.rows[0].edition_id} covering ${date} is closed`);

    const pending = await client.query<
      Pick<ReleasedSignalColumns, 'signal_id' | 'product_id' | 'dimension' | 'summary' | 'window_start' | 'window_end' | 'exact_change_date'> &
        Pick<SignalProductNames, 'product_name' | 'brand_name'>
    >(
      `SELECT s.signal_id, s.product_id, p.name AS product_name, b.name AS brand_name, s.dimension, s.summary,
              s.window_start, s.window_end, s.exact_change_date
         FROM signals s JOIN candidates c ON c.candidate_id = s.candidate_id
         JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
        WHERE s.released_on IS NULL AND c.status = 'approved'
        ORDER BY s.signal_id
        FOR UPDATE OF s`,
    );
    if (pending.rows.length === 0) throw new CurationRefused('no approved Signals are waiting for release');

    const batch = await client.query<{ batch_id: number }>(
      'INSERT INTO release_batches (release_date, released_by) VALUES ($1, $2) RETURNING batch_id',
      [date, input.releasedBy.trim()],
    );
    const batchId = batch.rows[0]!.batch_id;
    const ids = pending.rows.map((r) => r.signal_id);
    await client.query('UPDATE signals SET batch_id = $1, released_on = $2 WHERE signal_id = ANY($3::text[])', [batchId, date, ids]);

    const eventIds: string[] = [];
    for (const r of pending.rows) {
      const event = SignalReleasedEvent.parse({
        event_id: releaseEventId(r.signal_id),
        signal_id: r.signal_id,
        product_id: r.product_id,
        product_name: r.product_name,
        brand_name: r.brand_name,
        dimension: r.dimension,
        summary: r.summary,
        observation_window: { start: r.window_start, end: r.window_end, exact_change_date: r.exact_change_date },
        released_at: date,
        signal_url: signalUrl(input.publicBaseUrl, r.signal_id),
        ...(input.traceparent ? { traceparent: input.traceparent } : {}),
      });
      await client.query('INSERT INTO event_outbox (event_id, subject_kind, payload) VALUES ($1, $2, $3)', [event.event_id, SIGNAL_RELEASED, event]);
      eventIds.push(event.event_id);
    }
    return { release_date: date, batch_id: batchId, signal_ids: ids, event_ids: eventIds };
  });
  return { ...result, record_version };
}
