import type { Logger, Metrics, Pool } from '@evidence-record/platform';
import type { Counter } from 'prom-client';

export interface UsageRow {
  at: Date;
  requestId: string;
  keyId: string | null;
  orgId: string | null;
  capability: string;
  origin: string | null;
  httpStatus: number;
  errorCode: string | null;
  entitiesCharged: number;
  latencyMs: number;
}

/**
 * Usage rows are queued in memory and written in batches by a timer, so the
 * request path never waits for Postgres. The queue is bounded: if Postgres
 * is down long enough to fill it, the oldest rows are dropped and counted.
 * Rows never hold a key or a secret, only the public key id.
 */
export class UsageLog {
  private queue: UsageRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly dropped: Counter<'reason'>;
  private readonly written: Counter;

  constructor(
    private readonly pool: Pool,
    private readonly log: Logger,
    metrics: Metrics,
    private readonly opts: { intervalMs?: number; batchSize?: number; maxQueued?: number } = {},
  ) {
    this.dropped = metrics.counter('er_gateway_usage_dropped_total', 'Usage rows dropped because the queue was full', ['reason']);
    this.written = metrics.counter('er_gateway_usage_written_total', 'Usage rows written to usage_log');
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.opts.intervalMs ?? 1000);
    this.timer.unref();
  }

  record(row: UsageRow): void {
    if (this.queue.length >= (this.opts.maxQueued ?? 50_000)) {
      this.queue.shift();
      this.dropped.inc({ reason: 'queue_full' });
    }
    this.queue.push(row);
    if (this.queue.length >= (this.opts.batchSize ?? 500)) void this.flush();
  }

  /**
   * Writes one batch, and more only while full batches are waiting: rows
   * that arrive during a write wait for the next full batch or the next
   * tick, so under load this is one INSERT per `batchSize` rows rather than
   * one per write's worth of arrivals.
   */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Everything, however small the last batch; a failed write ends the attempt rather than spinning.
    while (this.queue.length > 0) {
      const before = this.queue.length;
      await this.flush();
      if (this.queue.length >= before) break;
    }
  }

  private async drain(): Promise<void> {
    const size = this.opts.batchSize ?? 500;
    if (this.queue.length === 0) return;
    do {
      const batch = this.queue.slice(0, size);
      try {
        await this.pool.query({
          name: 'gateway-usage-batch',
          text: `INSERT INTO usage_log (at, request_id, key_id, org_id, capability, origin, http_status, error_code, entities_charged, latency_ms)
                 SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[], $10::numeric[])`,
          values: [
            batch.map((r) => r.at),
            batch.map((r) => r.requestId),
            batch.map((r) => r.keyId),
            batch.map((r) => r.orgId),
            batch.map((r) => r.capability),
            batch.map((r) => r.origin),
            batch.map((r) => r.httpStatus),
            batch.map((r) => r.errorCode),
            batch.map((r) => r.entitiesCharged),
            batch.map((r) => Math.round(r.latencyMs * 1000) / 1000),
          ],
        });
        this.queue.splice(0, batch.length);
        this.written.inc(batch.length);
      } catch (err) {
        this.log.warn({ err: String(err), queued: this.queue.length }, 'usage batch not written; will retry');
        return;
      }
    } while (this.queue.length >= size);
  }
}
