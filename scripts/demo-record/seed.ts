import { applyCatalogueIn, sealEdition } from '@evidence-record/curation';
import { createPool, withRecordChange } from '@evidence-record/platform';
import { buildDemoRecord, tableOrder } from './build';
import { editionPlan } from './editions';
import { advanceSequence, insertRows } from './insert';

/** Tables whose ids the demo Record sets explicitly, with their serial column. */
const serialColumns: [table: string, column: string][] = [
  ['sources', 'source_id'],
  ['captures', 'capture_id'],
  ['declared_blends', 'blend_id'],
  ['price_observations', 'observation_id'],
  ['candidates', 'candidate_id'],
  ['release_batches', 'batch_id'],
  ['signal_corrections', 'correction_id'],
  ['research_context', 'research_id'],
  ['regulatory_records', 'regulatory_id'],
  ['monitoring_spans', 'span_id'],
  ['monitoring_checks', 'check_id'],
];

/**
 * Loads the demo Record into a migrated, empty database in one Record change
 * (one new record_version, reason 'demo Record seed'). Deterministic: the
 * same ids and rows on every run.
 */
export async function seedDemoRecord(databaseUrl: string): Promise<{ record_version: string }> {
  const record = buildDemoRecord();
  const pool = createPool(databaseUrl, { max: 1, statementTimeoutMs: 60_000, applicationName: 'demo-record-seed' });
  try {
    const { record_version } = await withRecordChange(pool, 'demo Record seed', async (client) => {
      // The ingredient catalogue is reference data, not demo data: migrate applies it; a database migrated without
      // it (the tests' templates) gets it here. Nothing is written when it is all there.
      await applyCatalogueIn(client);
      for (const table of tableOrder) await insertRows(client, table, record[table]);
      for (const [table, column] of serialColumns) await advanceSequence(client, table, column);
      for (const { period, status, closedAt } of editionPlan) {
        if (status !== 'closed') continue;
        await sealEdition(client, `ed_${period.replace('-', '_')}`, period, closedAt.slice(0, 10), new Date(closedAt));
      }
    });
    if (!record_version) throw new Error('the demo Record seed created no record version');
    return { record_version };
  } finally {
    await pool.end();
  }
}
