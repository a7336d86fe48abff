import type { ClientBase } from 'pg';
import type { ReleasedSignalColumns, SignalCorrectionRow } from '@evidence-record/record-store';

/**
 * A released Signal of a product. Candidates, unreleased Signals, reviewer
 * identity and operator notes are not selected: only the public note of a
 * correction or withdrawal leaves, with the summary it replaced and the one it
 * put in place (as get_signal gives them: one Signal, one shape).
 */
export interface SignalRow extends ReleasedSignalColumns {
  corrections: SignalCorrectionRow[];
}

export async function releasedSignalsOfProduct(db: ClientBase, productId: string): Promise<SignalRow[]> {
  const { rows } = await db.query<SignalRow>({
    name: 'record-released-signals-of-product',
    text: `
      SELECT s.signal_id, s.product_id, s.dimension, p.category, s.summary, s.status,
             s.window_start, s.window_end, s.exact_change_date, s.released_on,
             s.before_state_id, s.after_state_id,
             coalesce((SELECT json_agg(json_build_object('kind', c.kind, 'recorded_on', c.recorded_on, 'note', c.public_note,
                                                         'summary_before', c.summary_before, 'summary_after', c.summary_after)
                                       ORDER BY c.recorded_on, c.correction_id)
                         FROM signal_corrections c WHERE c.signal_id = s.signal_id), '[]'::json) AS corrections
        FROM signals s JOIN products p ON p.product_id = s.product_id
       WHERE s.product_id = $1 AND s.released_on IS NOT NULL
       ORDER BY s.window_end, s.released_on, s.signal_id`,
    values: [productId],
  });
  return rows;
}
