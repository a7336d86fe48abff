import type { Pool } from '@evidence-record/platform';

/** What every capability of this service reads from. */
export interface RecordDeps {
  pool: Pool;
  /** Base of the permanent public addresses answers cite (signal_url). */
  publicBaseUrl: string;
}
