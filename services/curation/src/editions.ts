import { editionHash, periodPattern } from '@evidence-record/contract';
import { takeRecordWriterLock, withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { CurationRefused, NotFound } from './errors';
import { computeEditionDocument } from './edition-document';
import { editionIdOf, periodEnd, periodStart, utcToday } from './period';

/** A ledger curation step the Record refuses; nothing is written. */
export class EditionRefused extends CurationRefused {
  override name = 'EditionRefused';
}

export async function openEdition(pool: Pool, period: string, now: Date = new Date()): Promise<{ edition_id: string; period: string; status: 'open'; record_version: string | null }> {
  if (!periodPattern.test(period)) throw new EditionRefused(`--period ${period} is not a calendar month (YYYY-MM)`, 'invalid_input');
  // An open edition is listed publicly: one for a month that has not begun would announce an empty future.
  const today = utcToday(now);
  if (periodStart(period) > today) throw new EditionRefused(`the period ${period} has not begun (today is ${today}, UTC); open it from ${periodStart(period)} on`, 'period_not_begun');
  const editionId = editionIdOf(period);
  const { record_version } = await withRecordChange(pool, `ledger edition ${editionId} opened`, async (client) => {
    const existing = await client.query<{ status: string }>('SELECT status FROM ledger_editions WHERE edition_id = $1', [editionId]);
    if (existing.rows[0]) throw new EditionRefused(`edition ${editionId} already exists (${existing.rows[0].status})`, 'duplicate');
    await client.query(`INSERT INTO ledger_editions (edition_id, period, status) VALUES ($1, $2, 'open')`, [editionId, period]);
  });
  return { edition_id: editionId, period, status: 'open', record_version };
}

export interface CloseResult {
  edition_id: string;
  period: string;
  status: 'closed';
  data_as_of: string;
  count_released: number;
  edition_hash: string;
  record_version: string | null;
}

/**
 * Closes an edition: computes its document as of the end of its period,
 * hashes it (contract editionHash: SHA-256 of the canonical JSON) and stores
 * both. From then on the database refuses any change to the row.
 * An edition closes only after its period has ended, so that it holds every
 * Signal released in the period (and the schema refuses releases into it).
 */
export async function closeEdition(pool: Pool, editionId: string, now: Date = new Date()): Promise<CloseResult> {
  const today = utcToday(now);
  const { result, record_version } = await withRecordChange(pool, `ledger edition ${editionId} closed`, async (client) => {
    // Hold the Record still while the document is read: every writer takes this lock first.
    await takeRecordWriterLock(client);
    const { rows } = await client.query<{ period: string; status: string }>('SELECT period, status FROM ledger_editions WHERE edition_id = $1 FOR UPDATE', [editionId]);
    const edition = rows[0];
    if (!edition) throw new NotFound(`edition ${editionId} does not exist`);
    if (edition.status === 'closed') throw new EditionRefused(`edition ${editionId} is already closed; a closed edition never changes`, 'already_closed');
    if (periodEnd(edition.period) >= today) {
      throw new EditionRefused(`the period ${edition.period} has not ended (it ends ${periodEnd(edition.period)}); close it from the next day on`, 'period_not_ended');
    }
    return sealEdition(client, editionId, edition.period, today, now);
  });
  return { ...result, record_version };
}

/**
 * The closing step itself, inside the caller's Record change: computes the
 * document as of the end of the period, stores it with its hash and checks
 * that the stored jsonb reproduces the hash (the served document is the
 * stored one). `closeEdition` and the demo seed both close editions with it,
 * so there is one edition document.
 */
export async function sealEdition(
  client: PoolClient,
  editionId: string,
  period: string,
  today: string,
  closedAt: Date = new Date(),
): Promise<Omit<CloseResult, 'record_version'>> {
  const document = await computeEditionDocument(client, { edition_id: editionId, period, status: 'closed' }, today);
  const hash = editionHash(document);
  await client.query(
    `UPDATE ledger_editions SET status = 'closed', closed_at = $6, data_as_of = $2, count_released = $3, document = $4, edition_hash = $5
      WHERE edition_id = $1`,
    [editionId, document.data_as_of, document.confirmed_changes.length, JSON.stringify(document), hash, closedAt],
  );
  const stored = await client.query<{ document: unknown }>('SELECT document FROM ledger_editions WHERE edition_id = $1', [editionId]);
  if (editionHash(stored.rows[0]?.document) !== hash) throw new Error(`edition ${editionId}: the stored document does not reproduce its hash`);
  return { edition_id: editionId, period, status: 'closed', data_as_of: document.data_as_of, count_released: document.confirmed_changes.length, edition_hash: hash };
}
