import type { Pool } from '@evidence-record/platform';
import type { Clock } from '@evidence-record/contract';

/** What the capability handlers need, injected so tests can run them in-process. */
export interface SignalsDeps {
  pool: Pool;
  publicBaseUrl: string;
  cursorSecret: string;
  clock: Clock;
}
