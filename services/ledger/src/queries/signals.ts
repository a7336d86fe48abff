import type { ReleasedSignalColumns, SignalCorrectionRow, SignalProductNames } from '@evidence-record/record-store';
import type { PoolClient } from '@evidence-record/platform';

/** The current state of the released Signals an edition names (their status may have moved on since it closed). */
export interface CurrentSignalRow extends ReleasedSignalColumns, SignalProductNames {
  corrections: SignalCorrectionRow[];
}

export async function currentSignals(client: PoolClient, signalIds: string[]): Promise<CurrentSignalRow[]> {
  if (signalIds.length === 0) return [];
  const { rows } = await client.query<CurrentSignalRow>({
    name: 'ledger-current-signals',
    text: `SELECT s.signal_id, s.product_id, p.name AS product_name, p.brand_id, b.name AS brand_name, p.category, s.dimension, s.summary,
                  s.status, s.window_start, s.window_end, s.exact_change_date, s.released_on, s.before_state_id, s.after_state_id,
                  coalesce((SELECT json_agg(json_build_object('kind', c.kind, 'recorded_on', c.recorded_on, 'note', c.public_note)
                                            ORDER BY c.recorded_on, c.correction_id)
                              FROM signal_corrections c WHERE c.signal_id = s.signal_id), '[]'::json) AS corrections
             FROM signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
            WHERE s.signal_id = ANY($1::text[]) AND s.released_on IS NOT NULL
            ORDER BY s.released_on, s.signal_id`,
    values: [signalIds],
  });
  return rows;
}
