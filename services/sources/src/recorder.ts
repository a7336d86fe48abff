import { withSharedRecordChange, type Logger } from '@evidence-record/platform';
import type { CheckSummary, MonitorDeps, RecordsChecks } from './deps';
import { keepEvidence } from './evidence';
import { LeaseLost, fenceLeases, type LeasedSource } from './leases';
import { finishChecks, planCheck, writeCheck, type PlannedCheck, type WrittenCheck } from './place';
import type { Reading } from './reading';

interface Pending {
  src: LeasedSource;
  reading: Reading;
  durationMs: number;
  resolve: (summary: CheckSummary) => void;
  reject: (err: unknown) => void;
}

/** Advisory-lock key space of the per-product locks (the second key is the product id's hash). */
const PRODUCT_LOCK_SPACE = 7300100;

/** A reading to place in the Record (the others only record a check). */
const places = (p: Pending) => p.reading.outcome === 'valid' && p.reading.parsed !== null;

/**
 * Group commit for checks (decision 1010). A transaction per check would make
 * every check wait for a commit and a record version of its own. The recorder
 * writes the checks that finished while the previous write was committing in
 * one transaction instead: one commit and one record version for the lot, and
 * a replica holds one connection for writing however many checks it has in
 * flight. Nothing waits for a batch to fill: an idle recorder writes the first
 * check at once. The transaction holds the Record's writer lock in shared mode
 * (replicas write side by side) and takes the version lock only to commit.
 *
 * Each check is still fenced by its own lease token, and a check whose write
 * fails does not take the others with it: a failed batch is written again one
 * check to a transaction, so only the failing check is refused.
 */
export class CheckRecorder implements RecordsChecks {
  private queue: Pending[] = [];
  private writing: Promise<void> | null = null;

  constructor(
    private readonly deps: () => MonitorDeps,
    /** At most this many checks to a transaction (a reading that may open a candidate takes a savepoint; Postgres caches 64 per backend). */
    private readonly maxBatch = 48,
    private readonly log?: Logger,
  ) {}

  /** Resolves once the check is committed; rejects with LeaseLost if another replica took the source over. */
  record(src: LeasedSource, reading: Reading, durationMs: number): Promise<CheckSummary> {
    return new Promise<CheckSummary>((resolve, reject) => {
      this.queue.push({ src, reading, durationMs, resolve, reject });
      this.start();
    });
  }

  private start(): void {
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = null;
      if (this.queue.length > 0) this.start();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.nextBatch();
      try {
        await this.write(batch);
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          continue;
        }
        this.log?.warn({ checks: batch.length, err: String(err) }, 'a batch of checks failed to write; writing them one by one');
        for (const one of batch) await this.write([one]).catch((e: unknown) => one.reject(e));
      }
    }
  }

  /**
   * The next checks to write: at most maxBatch, and at most one reading to place per product, since a reading is
   * planned against its product's newest state before any check of the batch is written (a second one waits for
   * the next batch).
   */
  private nextBatch(): Pending[] {
    const products = new Set<string>();
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const p of this.queue) {
      if (batch.length < this.maxBatch && !(places(p) && products.has(p.src.product_id))) {
        if (places(p)) products.add(p.src.product_id);
        batch.push(p);
      } else rest.push(p);
    }
    this.queue = rest;
    return batch;
  }

  /** One transaction: fence every lease at once, write each held check, settle each promise after COMMIT. */
  private async write(batch: Pending[]): Promise<void> {
    const deps = this.deps();
    const ids = batch.map((p) => p.src.source_id);
    const reason = batch.length === 1 ? `check of source ${ids[0]}: ${batch[0]!.reading.outcome}` : `${batch.length} checks of sources ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}`;
    const { result, lockWaitMs, versionHeldMs } = await withSharedRecordChange(deps.pool, reason, async (client) => {
      // A check's commit does not wait for the WAL flush (decision 1002): a check lost to a database crash is only a
      // check not yet made; its lease expires and it is made again.
      await client.query('SET LOCAL synchronous_commit = off');
      const byId = await fenceLeases(client, batch.map((p) => p.src));
      // Another replica retook the lease after ours expired: its check is the one recorded.
      const mine = batch.filter((p) => byId.has(p.src.source_id));
      // Reads and evidence first (neither takes the writer lock), then the Record's writes.
      await keepEvidence(client, mine.flatMap((p) => (p.reading.outcome !== 'unreadable' && p.reading.evidence ? [p.reading.evidence] : [])));
      // Replicas write side by side (the writer lock is shared): one reading per product at a time across all of
      // them, since each is planned against its product's newest state. Taken in one order, so never a deadlock.
      const placing = [...new Set(mine.filter(places).map((p) => p.src.product_id))].sort();
      if (placing.length > 0) {
        await client.query({
          name: 'monitor-lock-products',
          text: `SELECT count(pg_advisory_xact_lock(${PRODUCT_LOCK_SPACE}, hashtext(p))) FROM (SELECT unnest($1::text[]) AS p ORDER BY 1) AS products`,
          values: [placing],
        });
      }
      // Identity as the Record holds it now: a curation change commits under the exclusive writer lock, so none lands
      // between this and the commit (decision 1500).
      await deps.names.sync(client);
      const planned: PlannedCheck[] = [];
      for (const p of mine) planned.push(await planCheck(deps, client, p.src, byId.get(p.src.source_id)!, p.reading, p.durationMs));
      const written: WrittenCheck[] = [];
      for (const p of planned) written.push(await writeCheck(client, p));
      await finishChecks(client, written);
      const summaries = new Map(written.map((w) => [w.summary.source_id, w.summary]));
      return batch.map((pending) => ({ pending, summary: summaries.get(pending.src.source_id) ?? null }));
    });
    deps.metrics?.writerLockWaitSeconds.observe(lockWaitMs / 1000);
    deps.metrics?.versionLockSeconds.observe(versionHeldMs / 1000);
    deps.metrics?.checksPerWrite.observe(batch.length);
    for (const { pending, summary } of result) {
      if (summary) pending.resolve(summary);
      else pending.reject(new LeaseLost(`the lease on source ${pending.src.source_id} was lost`));
    }
  }
}
