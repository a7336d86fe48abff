import { SIGNAL_RELEASED, SignalReleasedEvent, isCalendarDate, signalUrl, systemClock, utcDate, type Clock } from '@evidence-record/contract';
import type { ReleasedSignalColumns, SignalProductNames } from '@evidence-record/record-store';
import { takeRecordWriterLock, withRecordChange, type Pool } from '@evidence-record/platform';
import { CurationRefused, NotFound } from './errors';
import { operatorText } from './text';

export interface ReleaseInput {
  /**
   * The batch's release date: today (UTC), the default. A later date would
   * show a release date that has not happened yet; an earlier one would
   * back-date it (and the feed's `since` contract forbids both).
   */
  date?: string;
  /** Only these approved Signals (the others wait for a later batch); default every approved Signal. */
  signalIds?: string[];
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
  if (!isCalendarDate(date)) throw new CurationRefused(`--date ${date} is not a calendar date (YYYY-MM-DD)`, 'invalid_input');
  if (date < today) throw new CurationRefused(`--date ${date} is before today (${today}); a release is never back-dated`, 'release_date');
  if (date > today) throw new CurationRefused(`--date ${date} is after today (${today}, UTC); a batch is dated the day it is released`, 'release_date');
  const releasedBy = operatorText('who released it', input.releasedBy, 200);
  const chosen = input.signalIds ? [...new Set(input.signalIds)] : null;
  if (chosen && chosen.length === 0) throw new CurationRefused('name at least one Signal to release', 'invalid_input');

  const { result, record_version } = await withRecordChange(pool, `release batch ${date}`, async (client) => {
    // Serialise releases before reading the newest batch, so two operators cannot both pass the checks.
    await takeRecordWriterLock(client);
    const newest = await client.query<{ release_date: string }>('SELECT max(release_date)::text AS release_date FROM release_batches');
    const last = newest.rows[0]?.release_date ?? null;
    if (last !== null && date <= last) {
      throw new CurationRefused(
        last === date
          ? `${date} already has a release batch; a release date never receives another Signal (release on a later date)`
          : `${date} is not after the newest release date ${last}`,
        'release_date',
      );
    }
    const closed = await client.query(`SELECT edition_id FROM ledger_editions WHERE status = 'closed' AND period = $1`, [date.slice(0, 7)]);
    if (closed.rowCount) throw new CurationRefused(`the ledger edition ${closed.rows[0].edition_id} covering ${date} is closed`, 'edition_closed');

    if (chosen) {
      // Every named Signal must be approved and waiting: a typo never silently releases less than asked.
      const named = await client.query<{ signal_id: string; released_on: string | null; status: string }>(
        `SELECT s.signal_id, s.released_on::text AS released_on, c.status
           FROM signals s JOIN candidates c ON c.candidate_id = s.candidate_id WHERE s.signal_id = ANY($1::text[])`,
        [chosen],
      );
      const found = new Map(named.rows.map((r) => [r.signal_id, r]));
      const missing = chosen.filter((id) => !found.has(id));
      if (missing.length) throw new NotFound(`no Signal ${missing.join(', ')}`);
      const released = named.rows.filter((r) => r.released_on !== null);
      if (released.length) throw new CurationRefused(`already released: ${released.map((r) => `${r.signal_id} (${r.released_on})`).join(', ')}`, 'already_released');
    }

    const pending = await client.query<
      Pick<ReleasedSignalColumns, 'signal_id' | 'product_id' | 'dimension' | 'summary' | 'window_start' | 'window_end' | 'exact_change_date'> &
        Pick<SignalProductNames, 'product_name' | 'brand_name'>
    >(
      `SELECT s.signal_id, s.product_id, p.name AS product_name, b.name AS brand_name, s.dimension, s.summary,
              s.window_start, s.window_end, s.exact_change_date
         FROM signals s JOIN candidates c ON c.candidate_id = s.candidate_id
         JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
        WHERE s.released_on IS NULL AND c.status = 'approved' AND ($1::text[] IS NULL OR s.signal_id = ANY($1::text[]))
        ORDER BY s.signal_id
        FOR UPDATE OF s`,
      [chosen],
    );
    if (pending.rows.length === 0) throw new CurationRefused('no approved Signals are waiting for release', 'nothing_to_release');

    const batch = await client.query<{ batch_id: number }>(
      'INSERT INTO release_batches (release_date, released_by) VALUES ($1, $2) RETURNING batch_id',
      [date, releasedBy],
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
