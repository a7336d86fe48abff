import type { CaptureInput } from '@evidence-record/curation';
import { CurationRefused, formulaDiffers, labelOf, newestStateReadFrom, openCandidateIn, planCapture, rederiveStateIn, servingDiffers, writeCapture, type CapturePlan } from '@evidence-record/curation';
import { startSpan, type Logger, type Pool, type PoolClient } from '@evidence-record/platform';
import { parseDsldLabel, type DsldReading } from './dsld';
import { evidenceOf, loadEvidence, type Evidence } from './evidence';
import { labelCaptureOf } from './label-capture';
import { Deadline, FetchFailure, type Fetcher, type FetchedResponse } from './fetcher';
import { claimHost, releaseHost, releaseLease, type LeasedSource } from './leases';
import type { MonitorMetrics } from './metrics';
import { parseOfferBlocks, parseOfferPage, type OfferReading } from './offers';
import type { RobotsCache } from './robots';
import { dropDsldKeyOffOrigin, withDsldKey } from './dsld-key';
import { checkDeadlineMs, type MonitorSettings } from './settings';
import type { CheckRecorder } from './recorder';
import { hostKey } from './sources';
import type { IngredientNames } from './synonyms';

export interface MonitorDeps {
  pool: Pool;
  fetcher: Fetcher;
  robots: RobotsCache;
  names: IngredientNames;
  /** Writes finished checks to the Record, many to a transaction (group commit). */
  recorder: CheckRecorder;
  settings: MonitorSettings;
  /** This replica's name, written on its leases. */
  owner: string;
  metrics?: MonitorMetrics;
  log?: Logger;
  now?: () => Date;
}

type Parsed = { kind: 'dsld_label'; reading: DsldReading } | { kind: 'offer_page'; reading: OfferReading };

export type Reading =
  /** `retryAfterHost`: the host (host:port) whose Retry-After `retryAfterMs` is; only that host waits it. */
  | { outcome: 'unreadable'; reason: string; status: number | null; retryAfterMs: number | null; retryAfterHost?: string }
  | { outcome: 'empty'; reason: string; status: number | null; evidence: Evidence | null; retryAfterMs: null }
  | {
      outcome: 'valid';
      reason: string | null;
      status: number;
      evidence: Evidence | null;
      parsed: Parsed | null;
      validators: { etag: string | null; lastModified: string | null } | null;
      retryAfterMs: null;
    };

export interface CheckSummary {
  source_id: number;
  outcome: 'valid' | 'empty' | 'unreadable';
  recovered: boolean;
  states_created: number;
  prices_recorded: number;
  candidates_opened: number;
  reason: string | null;
}

export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** A redirect led to a host whose politeness slot another check holds: the check is given back and stays due. */
export class RedirectHostBusy extends Error {
  override name = 'RedirectHostBusy';
}

/**
 * One check of one leased source: take the host's slot, read, give the slot
 * back, record. Returns null when the host was busy (the lease is given back
 * and the source stays due).
 */
export async function performCheck(deps: MonitorDeps, src: LeasedSource): Promise<CheckSummary | null> {
  const claimed = await claimHost(deps.pool, src.host, deps.owner, deps.settings.MONITOR_LEASE_MS);
  if (!claimed) {
    await releaseLease(deps.pool, src.source_id, src.lease_token);
    return null;
  }
  // One trace per check; its id is on every log line of the check.
  const span = startSpan('monitor.check', { attributes: { 'er.source_id': src.source_id, 'er.source_kind': src.kind } });
  const log = deps.log?.child({ trace_id: span.traceId, span_id: span.spanId, source_id: src.source_id, kind: src.kind });
  const started = performance.now();
  let reading: Reading;
  // Hosts a redirect led to: their slots are taken for the rest of the read and given back with the source's.
  const redirectHosts: string[] = [];
  // One deadline for everything the check asks the network, well inside the lease (robots.txt and redirects included).
  const deadline = new Deadline(checkDeadlineMs(deps.settings));
  try {
    reading = await read(deps, src, redirectHosts, deadline);
  } catch (err) {
    if (err instanceof RedirectHostBusy) {
      await releaseHosts(deps, [src.host, ...redirectHosts], null);
      await releaseLease(deps.pool, src.source_id, src.lease_token);
      span.end({ attributes: { 'er.outcome': 'host_busy' } });
      log?.info({ reason: err.message }, 'check given back: a redirect led to a busy host');
      return null;
    }
    reading = { outcome: 'unreadable', reason: `internal: ${(err as Error).message}`.slice(0, 300), status: null, retryAfterMs: null };
  } finally {
    deadline.clear();
  }
  const durationMs = Math.round(performance.now() - started);
  try {
    const retryAfter = reading.outcome === 'unreadable' && reading.retryAfterMs && reading.retryAfterHost ? { host: reading.retryAfterHost, ms: reading.retryAfterMs } : null;
    await releaseHosts(deps, [src.host, ...redirectHosts], retryAfter);
    deps.metrics?.fetchSeconds.observe({ kind: src.kind }, durationMs / 1000);
    const summary = await deps.recorder.record(src, reading, durationMs);
    deps.metrics?.checks.inc({ kind: src.kind, outcome: summary.outcome });
    if (summary.recovered) deps.metrics?.recoveries.inc({ kind: src.kind });
    if (summary.candidates_opened) deps.metrics?.candidates.inc({ kind: src.kind }, summary.candidates_opened);
    log?.info({ outcome: summary.outcome, reason: summary.reason, duration_ms: durationMs, http_status: reading.status, recovered: summary.recovered, candidates_opened: summary.candidates_opened }, 'check recorded');
    span.end({ attributes: { 'er.outcome': summary.outcome } });
    return summary;
  } catch (err) {
    span.end({ error: err });
    throw err;
  }
}

/**
 * Frees host slots; the next request to each waits the interval, and the host that answered with a Retry-After
 * waits that (when longer). The other hosts of a redirect chain did not ask for it.
 */
async function releaseHosts(deps: MonitorDeps, hosts: string[], retryAfter: { host: string; ms: number } | null): Promise<void> {
  const interval = deps.settings.MONITOR_HOST_INTERVAL_MS;
  for (const host of hosts) await releaseHost(deps.pool, host, deps.owner, host === retryAfter?.host ? Math.max(interval, retryAfter.ms) : interval);
}

export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()) * 1000, 86_400_000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now.getTime()), 86_400_000);
}

async function read(deps: MonitorDeps, src: LeasedSource, redirectHosts: string[], deadline: Deadline): Promise<Reading> {
  let res: FetchedResponse;
  try {
    if (!(await deps.robots.allowed(src.url, deadline))) return { outcome: 'unreadable', reason: 'robots.txt disallows this address for the monitor', status: null, retryAfterMs: null };
    const headers: Record<string, string> = {};
    if (src.last_evidence_sha256) {
      if (src.etag) headers['if-none-match'] = src.etag;
      if (src.last_modified) headers['if-modified-since'] = src.last_modified;
    }
    // A redirect to another host is a request to that host: it takes that host's slot and obeys its robots.txt.
    const beforeRedirect = async (next: URL) => {
      if (src.kind === 'dsld_label') dropDsldKeyOffOrigin(deps.settings, next);
      const host = hostKey(next);
      if (host !== src.host && !redirectHosts.includes(host)) {
        if (!(await claimHost(deps.pool, host, deps.owner, deps.settings.MONITOR_LEASE_MS))) throw new RedirectHostBusy(`${host} is busy`);
        redirectHosts.push(host);
      }
      if (!(await deps.robots.allowed(next.toString(), deadline))) throw new FetchFailure('robots_disallowed', `robots.txt disallows ${next.origin}${next.pathname} for the monitor`);
    };
    const url = src.kind === 'dsld_label' ? withDsldKey(deps.settings, src.url) : src.url;
    res = await deps.fetcher.get(url, { headers, deadline, beforeRedirect });
  } catch (err) {
    if (err instanceof FetchFailure) return { outcome: 'unreadable', reason: `${err.code}: ${err.message}`.slice(0, 300), status: null, retryAfterMs: null };
    throw err;
  }
  const status = res.status;
  if (status === 304) {
    // Not modified: a valid check of the content last read.
    const kept = src.last_evidence_sha256 ? await loadEvidence(deps.pool, src.last_evidence_sha256) : null;
    if (!kept) return { outcome: 'valid', reason: 'not modified (no kept evidence to re-read)', status, evidence: null, parsed: null, validators: null, retryAfterMs: null };
    const again = parseEvidence(kept);
    if (!again.ok) return { outcome: again.outcome, reason: again.reason, status, evidence: kept, retryAfterMs: null } as Reading;
    return { outcome: 'valid', reason: 'not modified', status, evidence: kept, parsed: again.parsed, validators: null, retryAfterMs: null };
  }
  if (status === 404 || status === 410) return { outcome: 'empty', reason: `not found (${status})`, status, evidence: null, retryAfterMs: null };
  if (status === 429 || status === 503) {
    // The host that answered asked for the pause, so it is the one that waits (not the hosts that redirected here).
    const wait = retryAfterMs(res.headers['retry-after'], new Date());
    return { outcome: 'unreadable', reason: status === 429 ? 'rate limited (429)' : 'unavailable (503)', status, retryAfterMs: wait, retryAfterHost: hostKey(new URL(res.url)) };
  }
  if (status >= 500) return { outcome: 'unreadable', reason: `server error (${status})`, status, retryAfterMs: null };
  if (status < 200 || status >= 300) return { outcome: 'unreadable', reason: `HTTP ${status}`, status, retryAfterMs: null };

  const validators = { etag: res.headers['etag'] ?? null, lastModified: res.headers['last-modified'] ?? null };
  if (src.kind === 'dsld_label') {
    const body = res.body.toString('utf8');
    const parsed = parseDsldLabel(body);
    if (!parsed.ok) return parsed.outcome === 'empty' ? { outcome: 'empty', reason: parsed.reason, status, evidence: null, retryAfterMs: null } : { outcome: 'unreadable', reason: parsed.reason, status, retryAfterMs: null };
    const evidence = evidenceOf('dsld_label', 'application/json', res.body);
    return { outcome: 'valid', reason: null, status, evidence, parsed: { kind: 'dsld_label', reading: parsed.reading }, validators, retryAfterMs: null };
  }
  const parsed = parseOfferPage(res.body.toString('utf8'));
  if (!parsed.ok) return parsed.outcome === 'empty' ? { outcome: 'empty', reason: parsed.reason, status, evidence: null, retryAfterMs: null } : { outcome: 'unreadable', reason: parsed.reason, status, retryAfterMs: null };
  const evidence = evidenceOf('offer_page', 'application/ld+json', Buffer.from(JSON.stringify({ url: res.url, jsonld: parsed.reading.jsonld })));
  return { outcome: 'valid', reason: null, status, evidence, parsed: { kind: 'offer_page', reading: parsed.reading }, validators, retryAfterMs: null };
}

function parseEvidence(e: Evidence): { ok: true; parsed: Parsed } | { ok: false; outcome: 'empty' | 'unreadable'; reason: string } {
  if (e.kind === 'dsld_label') {
    const p = parseDsldLabel(e.content.toString('utf8'));
    return p.ok ? { ok: true, parsed: { kind: 'dsld_label', reading: p.reading } } : p;
  }
  const kept = JSON.parse(e.content.toString('utf8')) as { jsonld: unknown[] };
  const p = parseOfferBlocks(kept.jsonld);
  return p.ok ? { ok: true, parsed: { kind: 'offer_page', reading: p.reading } } : p;
}

const DAY_MS = 86_400_000;

/** When the source is due again: its cadence after a valid or empty check; sooner (with backoff) after an unreadable one. */
function nextDue(src: LeasedSource, reading: Reading, now: Date, unreadableRun: number): Date {
  if (reading.outcome === 'unreadable') {
    const backoff = Math.min(src.cadence_ms, 15 * 60_000 * 2 ** Math.min(unreadableRun - 1, 10));
    return new Date(now.getTime() + Math.max(backoff, reading.retryAfterMs ?? 0));
  }
  return new Date(now.getTime() + src.cadence_ms);
}

/** What a check's recording reads of its source, under the row lock that fences the lease. */
export interface HeldSource {
  consecutive_unreadable: number;
  /** The database's clock as the check is recorded: the check's date, as leases are dated, whatever this replica's clock says. */
  recorded_at: Date;
}

/** The newest list price read from a source before this check. */
interface ListBefore {
  observation_id: number;
  price_cents: number;
  observed_at: string;
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
  placement: {
    capture: CaptureInput;
    plan: CapturePlan;
    listBefore: ListBefore | null;
    mayOpenCandidate: boolean;
    parsed: Parsed;
    /** The label bytes are those the newest state was read from: it is read again under the current rule, never a change. */
    rederive?: boolean;
  } | null;
  /** Read, but not placed today (the same-day rule); the reason recorded with the check. */
  notPlaced: string | null;
}

export async function planCheck(deps: MonitorDeps, client: PoolClient, src: LeasedSource, source: HeldSource, reading: Reading, durationMs: number): Promise<PlannedCheck> {
  const now = deps.now?.() ?? source.recorded_at;
  const planned: PlannedCheck = { src, source, reading, durationMs, now, placement: null, notPlaced: null };
  if (reading.outcome !== 'valid' || !reading.parsed || !reading.evidence) return planned;
  const capture = await captureOf(deps, src, reading.parsed, reading.evidence, now);
  if (reading.parsed.kind === 'dsld_label') {
    // The same bytes are the same label (decision 1400): a reading that differs from the state read from them
    // differs because the reading rule changed, so the state is re-derived, not followed by a new one.
    const newest = await newestStateReadFrom(client, src.product_id, reading.evidence.sha256);
    if (newest?.same_bytes) {
      planned.placement = { capture, plan: { newest, same: true }, listBefore: null, mayOpenCandidate: false, parsed: reading.parsed, rederive: true };
      return planned;
    }
  }
  try {
    const plan = await planCapture(client, capture);
    if (reading.parsed.kind === 'dsld_label') {
      planned.placement = { capture, plan, listBefore: null, mayOpenCandidate: !plan.same && plan.newest !== null, parsed: reading.parsed };
      return planned;
    }
    const before = await client.query<ListBefore>({
      name: 'monitor-list-before',
      text: `SELECT observation_id, price_cents, observed_at FROM price_observations WHERE source_id = $1 AND price_basis = 'list' ORDER BY observed_at DESC, observation_id DESC LIMIT 1`,
      values: [src.source_id],
    });
    const prev = before.rows[0] ?? null;
    const list = reading.parsed.reading.prices.find((p) => p.basis === 'list');
    // Only a list price moving opens a candidate; a promotion appearing, changing or ending never does.
    const moved = list !== undefined && prev !== null && prev.price_cents !== list.price_cents;
    if (moved && prev.observed_at >= now.toISOString().slice(0, 10)) throw new CurationRefused(`the list price changed on the day it was last read (${prev.observed_at})`);
    planned.placement = { capture, plan, listBefore: prev, mayOpenCandidate: moved, parsed: reading.parsed };
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
      captureId = await placeReading(client, src, placement, now, out);
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

/** Every check of a batch recorded, and each source's outcome, next due time and validators, its lease handed back. */
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
          lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
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
  if (parsed.kind === 'dsld_label') return { ...base, ...(await labelCaptureOf(parsed.reading, deps.names)), prices: [] } as CaptureInput;
  return {
    ...base,
    label: null,
    source_facts: null,
    prices: parsed.reading.prices.map((p) => ({ retailer: src.retailer ?? src.host, price_cents: p.price_cents, basis: p.basis, servings_per_container: null })),
  } as CaptureInput;
}

/** A planned reading written through capture import's own code path (writeCapture), then its candidates. */
async function placeReading(client: PoolClient, src: LeasedSource, placement: NonNullable<PlannedCheck['placement']>, now: Date, out: CheckSummary): Promise<number> {
  const { capture, plan, parsed } = placement;
  if (placement.rederive && plan.newest && capture.label) {
    const again = await rederiveStateIn(client, plan.newest.state_id, capture.label, { evidence_sha256: capture.preserved.sha256, by: 'monitor' });
    if (again.rederived) out.reason = `the label bytes of state ${plan.newest.state_id} read again under the current reading rule; the state was re-derived`;
  }
  const placed = await writeCapture(client, capture, plan, { sourceId: src.source_id });
  if (parsed.kind === 'dsld_label') {
    if (placed.state_created) {
      out.states_created++;
      if (placed.previous_state_id) out.candidates_opened += await openLabelCandidates(client, src.product_id, placed.previous_state_id, placed.state_id!, parsed.reading);
    }
    return placed.capture_id;
  }
  out.prices_recorded += placed.prices.length;
  const list = placed.prices.find((p) => p.basis === 'list');
  const prev = placement.listBefore;
  if (placement.mayOpenCandidate && list && prev) {
    await openCandidateIn(
      client,
      {
        product_id: src.product_id,
        dimension: 'price',
        before_price_id: prev.observation_id,
        after_price_id: list.observation_id,
        // No summary: the candidate path derives it from the two list prices, in the alert email's words.
      },
      'monitor',
    );
    out.candidates_opened++;
  }
  return placed.capture_id;
}

/**
 * The candidates between two adjacent label states, opened by the monitor (the one path both its checks and
 * label versions take). Between two label versions (decision 1401) the window is never narrowed to a day by an
 * event, and an older version's off-market flag is not a candidate: DSLD marks a replaced version off the market.
 */
export async function openLabelCandidates(
  client: PoolClient,
  productId: string,
  beforeId: string,
  afterId: string,
  r: DsldReading,
  opts: { labelVersions?: boolean } = {},
): Promise<number> {
  const [a, b] = [await labelOf(client, beforeId), await labelOf(client, afterId)];
  if (a.classification !== 'comparable' || b.classification !== 'comparable') return 0;
  const win = await client.query<{ before_to: string; after_from: string }>(
    `SELECT (SELECT observed_to FROM history_states WHERE state_id = $1) AS before_to, (SELECT observed_from FROM history_states WHERE state_id = $2) AS after_from`,
    [beforeId, afterId],
  );
  const w = win.rows[0]!;
  // The source dates the change to a day only when it says so (a dated reformulation or label-change event in the window).
  const dated = opts.labelVersions ? undefined : r.facts.events.find((e) => /reformulat|label change|changed/i.test(e.type) && e.date >= w.before_to && e.date <= w.after_from);
  const dims: Array<'formula' | 'serving' | 'identity'> = [];
  // What the labels declare: what the Record identifies a line as is not part of it (decision 1500).
  if (formulaDiffers(a, b)) dims.push('formula');
  if (servingDiffers(a, b)) dims.push('serving');
  // Off the market (or back): a candidate for review, never an automatic retirement.
  if (a.off_market !== b.off_market && !opts.labelVersions) dims.push('identity');
  for (const dimension of dims) {
    await openCandidateIn(
      client,
      {
        product_id: productId,
        dimension,
        before_state_id: beforeId,
        after_state_id: afterId,
        ...(dated ? { exact_change_date: dated.date } : {}),
        // No summary: the candidate path derives it from the two states ("Caffeine Anhydrous: 200 mg → 225 mg"),
        // in the alert email's words; the reviewer may reword it on approval.
      },
      'monitor',
    );
  }
  return dims.length;
}
