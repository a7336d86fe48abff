import type { Logger, Pool } from '@evidence-record/platform';
import type { Fetcher } from './fetcher';
import type { PlacedCounts } from './kinds/kind';
import type { LeasedSource } from './leases';
import type { MonitorMetrics } from './metrics';
import type { Reading } from './reading';
import type { RobotsCache } from './robots';
import type { MonitorSettings } from './settings';
import type { IngredientNames } from './synonyms';

/** Everything a check needs, built the same way for the service and for `admin monitor run-once` (monitor.ts). */
export interface MonitorDeps {
  pool: Pool;
  fetcher: Fetcher;
  robots: RobotsCache;
  names: IngredientNames;
  /** Writes finished checks to the Record, many to a transaction (group commit, recorder.ts). */
  recorder: RecordsChecks;
  settings: MonitorSettings;
  /** This replica's name, written on its leases. */
  owner: string;
  metrics?: MonitorMetrics;
  log?: Logger;
  now?: () => Date;
}

/** What records a finished check: resolves once it is committed; rejects with LeaseLost if another replica took the source over. */
export interface RecordsChecks {
  record(src: LeasedSource, reading: Reading, durationMs: number): Promise<CheckSummary>;
}

/** One recorded check, as `monitor run-once` totals it. */
export interface CheckSummary extends PlacedCounts {
  source_id: number;
  outcome: 'valid' | 'empty' | 'unreadable';
  recovered: boolean;
  reason: string | null;
}
