import { systemClock, utcDate, type Clock } from '@evidence-record/contract';
import { withRecordChange, type Pool } from '@evidence-record/platform';
import { CurationRefused } from './errors';

export interface CorrectionInput {
  signal_id: string;
  /** Public: shown with the Signal in every answer that names it. */
  note: string;
  /** Operator-side only; never leaves the Record's operator tables. */
  operatorNote?: string;
  /** A corrected summary; id, address and release date never change. */
  summary?: string;
  clock?: Clock;
}

/**
 * Corrects or withdraws a released Signal. Neither re-releases it: the
 * Signal keeps its id, address and release date, so a poller that already
 * processed it never receives it again; the change is visible as a
 * correction on the Signal itself.
 */
async function amend(pool: Pool, kind: 'correction' | 'withdrawal', input: CorrectionInput) {
  if (input.note.trim().length === 0) throw new CurationRefused('a correction or withdrawal carries a public note');
  if (kind === 'withdrawal' && input.summary !== undefined) throw new CurationRefused('a withdrawal does not change the summary');
  const recordedOn = utcDate((input.clock ?? systemClock)());
  const { record_version } = await withRecordChange(pool, `Signal ${input.signal_id} ${kind}`, async (client) => {
    const { rows } = await client.query<{ status: string; released_on: string | null }>(
      'SELECT status, released_on FROM signals WHERE signal_id = $1 FOR UPDATE',
      [input.signal_id],
    );
    const signal = rows[0];
    if (!signal || signal.released_on === null) throw new CurationRefused(`${input.signal_id} is not a released Signal`);
    if (signal.status === 'withdrawn') throw new CurationRefused(`${input.signal_id} is withdrawn; a withdrawal is final`);
    await client.query(
      `INSERT INTO signal_corrections (signal_id, kind, recorded_on, public_note, operator_note) VALUES ($1, $2, $3, $4, $5)`,
      [input.signal_id, kind, recordedOn, input.note.trim(), input.operatorNote?.trim() || null],
    );
    await client.query(
      `UPDATE signals SET status = $2, summary = coalesce($3, summary) WHERE signal_id = $1`,
      [input.signal_id, kind === 'correction' ? 'corrected' : 'withdrawn', input.summary?.trim() || null],
    );
  });
  return { signal_id: input.signal_id, kind, recorded_on: recordedOn, record_version };
}

export function correctSignal(pool: Pool, input: CorrectionInput) {
  return amend(pool, 'correction', input);
}

export function withdrawSignal(pool: Pool, input: CorrectionInput) {
  return amend(pool, 'withdrawal', input);
}
