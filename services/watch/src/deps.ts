import type { Logger, Metrics, Pool } from '@evidence-record/platform';

/** What the capability handlers need. `now` is injectable so receipts and due dates can be tested on a fixed day. */
export interface WatchDeps {
  pool: Pool;
  log: Logger;
  metrics: Metrics;
  now: () => Date;
}
