import { CurationRefused, rederiveStateIn, writeCapture, type CaptureInput } from '@evidence-record/curation';
import type { PoolClient } from '@evidence-record/platform';
import type { CheckSummary, MonitorDeps } from './deps';
import type { Evidence } from './evidence';
import type { KindPlan } from './kinds/kind';
import { LEASE_ENDED, type HeldSource, type LeasedSource } from './leases';
import type { Parsed, Reading } from './reading';

/**
 * Placing a reading (plan, write, finish), inside the recorder's transaction
 * (recorder.ts): what every kind shares — the capture through capture
 * import's own code path, the savepoint a candidate may need, the same-day
 * rule, the check row, the source's health, validators and next due time —
 * around what its kind plans and opens (kinds/*.ts).
 */

const DAY_MS = 86_400_000;

/** When the source is due again: its cadence after a valid or empty check; sooner (with backoff) after an unreadable one. */
function nextDue(src: LeasedSource, reading: Reading, now: Date, unreadableRun: number): Date {
  if (reading.outcome === 'unreadable') {
    const backoff = Math.min(src.cadence_ms, 15 * 60_000 * 2 ** Math.min(unreadableRun - 1, 10));
    return new Date(now.getTime() + Math.max(backoff, reading.retryAfterMs ?? 0));
  }
  return new Date(now.getTime() + src.cadence_ms);
}

/**
 * A check planned by reads only: where its reading goes in the Record, or
 * why it is not placed today. The recorder plans every check of a batch
 * before it writes any, so the Record's one writer lock is held only for the
 * writes (decision 1010).
 */
export interface PlannedCheck {
  src: LeasedSource;
  source: HeldSource;
  reading: Reading;
  durationMs: number;
  now: Date;
  placement: (KindPlan<unknown> & { capture: CaptureInput; parsed: Parsed }) | null;
  /** Read, but not placed today (the same-day rule); the reason recorded with the check. */
  notPlaced: string | null;
}

export async function planCheck(deps: MonitorDeps, client: PoolClient, src: LeasedSource, source: HeldSource, reading: Reading, durationMs: number): Promise<PlannedCheck> {
  const now = deps.now?.() ?? source.recorded_at;
  const planned: PlannedCheck = { src, source, reading, durationMs, now, placement: null, notPlaced: null };
  if (reading.outcome !== 'valid' || !reading.parsed || !reading.evidence) return planned;
  const { kind, reading: read } = reading.parsed;
  const capture = await captureOf(deps, src, reading.parsed, reading.evidence, now);
  try {
    const plan = await kind.plan(client, { src, capture, evidence: reading.evidence, reading: read, now });
    planned.placement = { ...plan, capture, parsed: reading.parsed };
  } catch (err) {
    if (!(err instanceof CurationRefused)) throw err;
    // A change seen on the day the old content was last read: the Record dates states by day, so the new
    // content becomes a state with the next day's reading (docs/monitor.md, "Same-day changes").
    planned.notPlaced = `read; not placed today: ${err.message}`.slice(0, 500);
  }
  return planned;
}

/** A written check's row in monitoring_checks and its source's new state, written for a whole batch at once. */
export interface WrittenCheck {
  summary: CheckSummary;
  checkRow: { product_id: string; source_id: number; checked_at: Date; outcome: string; recovered: boolean; reason: string | null; http_status: number | null; duration_ms: number; evidence_sha256: string | null; capture_id: number | null };
  sourceRow: { source_id: number; outcome: string; at: Date; run: number; due: Date; fresh: boolean; etag: string | null; last_modified: string | null; sha256: string | null };
}

/** Writes a planned check's reading into the Record (inside the recorder's transaction) and says what to record of it. */
export async function writeCheck(client: PoolClient, planned: PlannedCheck): Promise<WrittenCheck> {
  const { src, source, reading, now } = planned;
  const out: CheckSummary = { source_id: src.source_id, outcome: reading.outcome, recovered: false, states_created: 0, prices_recorded: 0, candidates_opened: 0, reason: planned.notPlaced ?? reading.reason };
  out.recovered = reading.outcome === 'valid' && source.consecutive_unreadable > 0;
  let captureId: number | null = null;
  let deferred = planned.notPlaced !== null;
  const placement = planned.placement;
  if (placement && reading.outcome === 'valid') {
    // A savepoint only where a candidate may open: the candidate rules can still refuse after the reading is written.
    if (placement.mayOpenCandidate) await client.query('SAVEPOINT reading');
    try {
      captureId = await placeReading(client, src, placement, out);
      if (placement.mayOpenCandidate) await client.query('RELEASE SAVEPOINT reading');
    } catch (err) {
      if (!(err instanceof CurationRefused) || !placement.mayOpenCandidate) throw err;
      await client.query('ROLLBACK TO SAVEPOINT reading');
      captureId = null;
      out.states_created = 0;
      out.prices_recorded = 0;
      out.candidates_opened = 0;
      out.reason = `read; not placed today: ${err.message}`.slice(0, 500);
      deferred = true;
    }
  }
  // An empty answer neither extends nor ends a run of unreadable checks: recovery is the first valid one.
  const run = reading.outcome === 'unreadable' ? source.consecutive_unreadable + 1 : reading.outcome === 'empty' ? source.consecutive_unreadable : 0;
  const due = deferred ? new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS + 5 * 60_000) : nextDue(src, reading, now, run);
  const fresh = reading.outcome === 'valid' && reading.validators !== null && !deferred;
  return {
    summary: out,
    checkRow: {
      product_id: src.product_id,
      source_id: src.source_id,
      checked_at: now,
      outcome: reading.outcome,
      recovered: out.recovered,
      reason: out.reason,
      http_status: reading.status,
      duration_ms: planned.durationMs,
      evidence_sha256: reading.outcome === 'unreadable' ? null : (reading.evidence?.sha256 ?? null),
      capture_id: captureId,
    },
    sourceRow: {
      source_id: src.source_id,
      outcome: reading.outcome,
      at: now,
      run,
      due,
      fresh,
      etag: fresh ? reading.validators!.etag : null,
      last_modified: fresh ? reading.validators!.lastModified : null,
      sha256: fresh ? reading.evidence!.sha256 : null,
    },
  };
}

/** Every check of a batch recorded, and each source's outcome, next due time and validators, its lease ended. */
export async function finishChecks(client: PoolClient, written: WrittenCheck[]): Promise<void> {
  if (written.length === 0) return;
  const c = written.map((w) => w.checkRow);
  await client.query({
    name: 'monitor-insert-checks',
    text: `INSERT INTO monitoring_checks (product_id, source_id, checked_at, outcome, recovered, reason, http_status, duration_ms, evidence_sha256, capture_id, checked_by)
           SELECT product_id, source_id, checked_at, outcome, recovered, reason, http_status, duration_ms, evidence_sha256, capture_id, 'monitor'
             FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::text[], $5::boolean[], $6::text[], $7::int[], $8::int[], $9::text[], $10::bigint[])
                  WITH ORDINALITY AS c(product_id, source_id, checked_at, outcome, recovered, reason, http_status, duration_ms, evidence_sha256, capture_id, n)
            ORDER BY n`,
    values: [
      c.map((r) => r.product_id),
      c.map((r) => r.source_id),
      c.map((r) => r.checked_at),
      c.map((r) => r.outcome),
      c.map((r) => r.recovered),
      c.map((r) => r.reason),
      c.map((r) => r.http_status),
      c.map((r) => r.duration_ms),
      c.map((r) => r.evidence_sha256),
      c.map((r) => r.capture_id),
    ],
  });
  const s = written.map((w) => w.sourceRow);
  await client.query({
    name: 'monitor-update-sources',
    text: `UPDATE sources s SET
          last_outcome = u.outcome_now, last_checked_at = u.at, consecutive_unreadable = u.run, next_check_due = u.due,
          health = CASE WHEN u.outcome_now = 'unreadable' THEN 'unreadable' WHEN u.outcome_now = 'valid' THEN 'readable' ELSE s.health END,
          health_since = CASE WHEN (u.outcome_now = 'unreadable') <> (s.health = 'unreadable') AND u.outcome_now <> 'empty' THEN u.at ELSE s.health_since END,
          last_read_at = CASE WHEN u.outcome_now = 'valid' THEN u.at ELSE s.last_read_at END,
          etag = CASE WHEN u.fresh THEN u.etag_now ELSE s.etag END,
          last_modified = CASE WHEN u.fresh THEN u.modified_now ELSE s.last_modified END,
          last_evidence_sha256 = CASE WHEN u.fresh THEN u.sha_now ELSE s.last_evidence_sha256 END,
          ${LEASE_ENDED}
        FROM unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::int[], $5::timestamptz[], $6::boolean[], $7::text[], $8::text[], $9::text[])
             AS u(source_id, outcome_now, at, run, due, fresh, etag_now, modified_now, sha_now)
       WHERE s.source_id = u.source_id`,
    values: [s.map((r) => r.source_id), s.map((r) => r.outcome), s.map((r) => r.at), s.map((r) => r.run), s.map((r) => r.due), s.map((r) => r.fresh), s.map((r) => r.etag), s.map((r) => r.last_modified), s.map((r) => r.sha256)],
  });
}

/** A valid reading as a capture: the same input capture import takes (one implementation, placeCapture's). */
async function captureOf(deps: MonitorDeps, src: LeasedSource, parsed: Parsed, evidence: Evidence, now: Date): Promise<CaptureInput> {
  const base = {
    product_id: src.product_id,
    source: { kind: src.kind, url: src.url, retailer: src.retailer },
    observed_at: now.toISOString(),
    preserved: { path: `evidence:sha256:${evidence.sha256}`, sha256: evidence.sha256 },
  };
  return { ...base, ...(await parsed.kind.capture(parsed.reading, src, deps.names)) } as CaptureInput;
}

/** A planned reading written through capture import's own code path (writeCapture), then what its kind opens. */
async function placeReading(client: PoolClient, src: LeasedSource, placement: NonNullable<PlannedCheck['placement']>, out: CheckSummary): Promise<number> {
  const { capture, plan, parsed } = placement;
  if (placement.rederive && plan.newest && capture.label) {
    const again = await rederiveStateIn(client, plan.newest.state_id, capture.label, { evidence_sha256: capture.preserved.sha256, by: 'monitor' });
    if (again.rederived) out.reason = `the label bytes of state ${plan.newest.state_id} read again under the current reading rule; the state was re-derived`;
  }
  const placed = await writeCapture(client, capture, plan, { sourceId: src.source_id });
  await parsed.kind.placed(client, { src, placed, plan: placement, reading: parsed.reading }, out);
  return placed.capture_id;
}
