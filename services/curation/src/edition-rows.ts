import type { PoolClient } from '@evidence-record/platform';
import { dataAsOf } from './period';

/**
 * The ledger editions as `list_ledger_editions` and `get_ledger_edition`
 * read them, and as the review console shows them: one query and one
 * presenter, so the console's editions page says what the API says (an open
 * edition's data-as-of date and count released are live; a closed one's are
 * what it was sealed with).
 */
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

/** Reads with a pool or with a client inside a snapshot (the ledger's withSnapshot). */
type Reader = Pick<PoolClient, 'query'>;

const columns = `e.edition_id, e.period, e.status, e.data_as_of, e.count_released, e.closed_at, e.edition_hash,
  (SELECT count(*)::int FROM signals s
     WHERE s.released_on IS NOT NULL
       AND s.released_on >= to_date(e.period || '-01', 'YYYY-MM-DD')
       AND s.released_on < to_date(e.period || '-01', 'YYYY-MM-DD') + interval '1 month'
       AND s.released_on <= $1::date) AS live_count_released`;

/** Every edition, newest period first, without its document. */
export async function editionRows(client: Reader, today: string): Promise<EditionRow[]> {
  const { rows } = await client.query<EditionRow>({
    name: 'ledger-list-editions',
    text: `SELECT ${columns}, NULL::jsonb AS document FROM ledger_editions e ORDER BY e.period DESC`,
    values: [today],
  });
  return rows;
}

/** One edition with its document (null for an open edition), or null. */
export async function editionRow(client: Reader, editionId: string, today: string): Promise<EditionRow | null> {
  const { rows } = await client.query<EditionRow>({
    name: 'ledger-find-edition',
    text: `SELECT ${columns}, e.document FROM ledger_editions e WHERE e.edition_id = $2`,
    values: [today, editionId],
  });
  return rows[0] ?? null;
}

/** An edition as `list_ledger_editions` lists it. */
export interface EditionEntry {
  edition_id: string;
  period: string;
  status: 'open' | 'closed';
  data_as_of: string | null;
  count_released: number;
}

/** A closed edition's entry never changes; an open edition's date and count are today's. */
export function editionEntry(e: EditionRow, today: string): EditionEntry {
  return e.status === 'closed'
    ? { edition_id: e.edition_id, period: e.period, status: e.status, data_as_of: e.data_as_of, count_released: e.count_released }
    : { edition_id: e.edition_id, period: e.period, status: e.status, data_as_of: dataAsOf(e.period, today), count_released: e.live_count_released };
}
