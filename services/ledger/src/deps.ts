import type { Pool } from '@evidence-record/platform';

export interface LedgerDeps {
  pool: Pool;
  publicBaseUrl: string;
  /** Today's UTC date; injected so tests can place "today" inside or after a period. */
  today: () => string;
}
