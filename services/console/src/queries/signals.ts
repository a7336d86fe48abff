import type { Pool } from '@evidence-record/platform';

/** A released Signal as its console page shows it: the product with its brand, every correction, and who was emailed. */
export interface ReleasedSignalDetail {
  signal_id: string;
  summary: string;
  status: string;
  released_on: string;
  brand_name: string;
  product_name: string;
  corrections: Array<{ kind: string; recorded_on: string; note: string | null; summary_before: string | null; summary_after: string | null; by: string | null }>;
  /** Accounts sent the release alert: each gets one correction email. */
  emailed: number;
}

export async function releasedSignal(pool: Pool, signalId: string): Promise<ReleasedSignalDetail | null> {
  const { rows } = await pool.query<ReleasedSignalDetail>(
    `SELECT s.signal_id, s.summary, s.status, s.released_on::text AS released_on, b.name AS brand_name, p.name AS product_name,
            coalesce((SELECT json_agg(json_build_object('kind', c.kind, 'recorded_on', c.recorded_on, 'note', c.public_note, 'summary_before', c.summary_before, 'summary_after', c.summary_after, 'by', c.recorded_by) ORDER BY c.correction_id)
                        FROM signal_corrections c WHERE c.signal_id = s.signal_id), '[]') AS corrections,
            (SELECT count(*)::int FROM alerts a WHERE a.signal_id = s.signal_id AND a.kind = 'release' AND a.status = 'sent') AS emailed
       FROM signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
      WHERE s.signal_id = $1 AND s.released_on IS NOT NULL`,
    [signalId],
  );
  return rows[0] ?? null;
}
