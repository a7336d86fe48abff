import type { RunningStack } from '@evidence-record/test-support/stack';
import { query } from './operator';

/** Every table of the Record (the ones whose changes create a record version), and the versions themselves. */
export const recordTables = [
  'brands', 'products', 'product_aliases', 'ingredients', 'ingredient_synonyms', 'sources', 'captures', 'history_states',
  'declared_blends', 'declared_ingredients', 'price_observations', 'candidates', 'release_batches', 'signals',
  'signal_corrections', 'research_context', 'regulatory_records', 'ledger_editions', 'monitoring_spans', 'monitoring_checks',
  'state_readings', 'context_corrections', 'ingredient_uniis', 'ingredient_groups', 'record_versions',
] as const;

export interface RecordFingerprint {
  head: string;
  tables: Record<string, { rows: number; md5: string }>;
}

/** The newest record version and a checksum of every Record table's rows: equal fingerprints mean an unchanged Record. */
export async function recordFingerprint(stack: RunningStack): Promise<RecordFingerprint> {
  const head = await query<{ version: string }>(stack, 'SELECT version FROM record_versions ORDER BY id DESC LIMIT 1');
  const tables: RecordFingerprint['tables'] = {};
  for (const t of recordTables) {
    const [row] = await query<{ rows: number; md5: string | null }>(stack, `SELECT count(*)::int AS rows, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS md5 FROM ${t} x`);
    tables[t] = { rows: row!.rows, md5: row!.md5 ?? '' };
  }
  return { head: head[0]!.version, tables };
}
