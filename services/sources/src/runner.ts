import { performCheck } from './check';
import type { CheckSummary, MonitorDeps } from './deps';
import { LeaseLost, giveBack, leaseDue, type LeasedSource } from './leases';

export interface RunTotals {
  checked: number;
  valid: number;
  empty: number;
  unreadable: number;
  recovered: number;
  states_created: number;
  prices_recorded: number;
  candidates_opened: number;
}

export const emptyTotals = (): RunTotals => ({ checked: 0, valid: 0, empty: 0, unreadable: 0, recovered: 0, states_created: 0, prices_recorded: 0, candidates_opened: 0 });

function add(t: RunTotals, s: CheckSummary): void {
  t.checked++;
  t[s.outcome]++;
  if (s.recovered) t.recovered++;
  t.states_created += s.states_created;
  t.prices_recorded += s.prices_recorded;
  t.candidates_opened += s.candidates_opened;
}

/** Runs leased checks with at most `concurrency` in flight; a check whose lease was lost records nothing. */
async function runBatch(
  deps: MonitorDeps,
  batch: LeasedSource[],
  totals: RunTotals,
  concurrency: number,
  done: Set<number>,
  stopping: () => boolean = () => false,
  onCheck?: (src: LeasedSource, summary: CheckSummary) => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < batch.length) {
      const src = batch[next++]!;
      if (stopping()) {
        // Shutting down: checks not started are given back at once, so another replica takes them without waiting for expiry.
        await giveBack(deps.pool, src).catch(() => undefined);
        continue;
      }
      if (src.retaken) deps.metrics?.retakenLeases.inc();
      try {
        const summary = await performCheck(deps, src);
        if (summary) {
          add(totals, summary);
          done.add(src.source_id);
          onCheck?.(src, summary);
        }
      } catch (err) {
        // A failed check's lease was given back (performCheck); a lost one belongs to another replica now.
        if (err instanceof LeaseLost) deps.log?.warn({ source_id: src.source_id }, 'lease lost before the check was recorded; the replica that retook it records it');
        else deps.log?.error({ source_id: src.source_id, err: String(err) }, 'check failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
}

/**
 * `admin monitor run-once`: every due check now (with a product: every source
 * of that product, due or not), through the same leases and code as the
 * service, waiting for busy hosts, until nothing is left or the deadline passes.
 */
export async function runOnce(
  deps: MonitorDeps,
  opts: { productId?: string | null; deadlineMs?: number; /** Each recorded check, as it is recorded. */ onCheck?: (src: LeasedSource, summary: CheckSummary) => void } = {},
): Promise<RunTotals> {
  const totals = emptyTotals();
  const done = new Set<number>();
  const deadline = Date.now() + (opts.deadlineMs ?? 120_000);
  while (Date.now() < deadline) {
    const batch = await leaseDue(deps.pool, {
      owner: deps.owner,
      limit: deps.settings.MONITOR_BATCH,
      leaseMs: deps.settings.MONITOR_LEASE_MS,
      productId: opts.productId ?? null,
      exclude: [...done],
    });
    if (batch.length === 0) {
      if (!(await somethingLeft(deps, opts.productId ?? null, [...done]))) break;
      await new Promise((r) => setTimeout(r, Math.min(250, deps.settings.MONITOR_HOST_INTERVAL_MS + 10)));
      continue;
    }
    await runBatch(deps, batch, totals, deps.settings.MONITOR_CONCURRENCY, done, undefined, opts.onCheck);
  }
  return totals;
}

async function somethingLeft(deps: MonitorDeps, productId: string | null, done: number[]): Promise<boolean> {
  const { rows } = await deps.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sources
      WHERE state = 'active' AND next_check_due IS NOT NULL AND NOT (source_id = ANY ($2::bigint[]))
        AND ($1::text IS NULL AND next_check_due <= now() OR product_id = $1)`,
    [productId, done],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** The service's loop: lease, check, repeat; stop() finishes the checks in hand and takes no new ones. */
export function startLoop(deps: MonitorDeps, onIdle?: () => Promise<void>): { stop: () => Promise<void>; totals: RunTotals } {
  const totals = emptyTotals();
  let stopping = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopping) {
      let batch: LeasedSource[] = [];
      try {
        batch = await leaseDue(deps.pool, { owner: deps.owner, limit: deps.settings.MONITOR_BATCH, leaseMs: deps.settings.MONITOR_LEASE_MS });
      } catch (err) {
        deps.log?.error({ err: String(err) }, 'leasing due checks failed');
      }
      if (batch.length > 0) {
        await runBatch(deps, batch, totals, deps.settings.MONITOR_CONCURRENCY, new Set(), () => stopping);
        continue;
      }
      await onIdle?.().catch(() => undefined);
      if (stopping) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, deps.settings.MONITOR_POLL_MS);
      });
    }
  })();
  return {
    totals,
    stop: async () => {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}
