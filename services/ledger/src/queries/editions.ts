import type { PoolClient } from '@evidence-record/platform';

export interface EditionRow {
  edition_id: string;
  period: string;
  status: 'open' | 'closed';
  data_as_of: string | null;
  count_released: number;
  closed_at: Date | null;
  document: Record<string, unknown> | null;
  edition_hash: string | null;
  /** Released Signals in the period up to today; the live count for an open edition. */
  live_count_released: number;
}

const columns = `e.edition_id, e.period, e.status, e.data_as_of, e.count_released, e.closed_at,
  (SELECT count(*)::int FROM signals s
     WHERE s.released_on IS NOT NULL
       AND s.released_on >= to_date(e.period || '-01', 'YYYY-MM-DD')
       AND s.released_on < to_date(e.period || '-01', 'YYYY-MM-DD') + interval '1 month'
       AND s.released_on <= $1::date) AS live_count_released`;

export async function listEditions(client: PoolClient, today: string): Promise<EditionRow[]> {
  const { rows } = await client.query<EditionRow>({
    name: 'ledger-list-editions',
    text: `SELECT ${columns}, NULL::jsonb AS document, NULL::text AS edition_hash FROM ledger_editions e ORDER BY e.period DESC`,
    values: [today],
  });
  return rows;
}

export async function findEdition(client: PoolClient, editionId: string, today: string): Promise<EditionRow | null> {
  const { rows } = await client.query<EditionRow>({
    name: 'ledger-find-edition',
    text: `SELECT ${columns}, e.document, e.edition_hash FROM ledger_editions e WHERE e.edition_id = $2`,
    values: [today, editionId],
  });
  return rows[0] ?? null;
}
