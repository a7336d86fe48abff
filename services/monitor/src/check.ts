import type { CaptureInput } from '@evidence-record/curation';
import { CurationRefused, labelOf, openCandidateIn, placeCapture, refreshDepth } from '@evidence-record/curation';
import { startSpan, withRecordChange, type Logger, type Pool, type PoolClient } from '@evidence-record/platform';
import { parseDsldLabel, type DsldReading } from './dsld';
import { evidenceOf, keepEvidence, loadEvidence, type Evidence } from './evidence';
import { FetchFailure, type Fetcher, type FetchedResponse } from './fetcher';
import { claimHost, releaseHost, releaseLease, type LeasedSource } from './leases';
import type { MonitorMetrics } from './metrics';
import { parseOfferBlocks, parseOfferPage, type OfferReading } from './offers';
import type { RobotsCache } from './robots';
import type { MonitorSettings } from './settings';
import type { IngredientNames } from './synonyms';

export interface MonitorDeps {
  pool: Pool;
  fetcher: Fetcher;
  robots: RobotsCache;
  names: IngredientNames;
  settings: MonitorSettings;
  /** This replica's name, written on its leases. */
  owner: string;
  metrics?: MonitorMetrics;
  log?: Logger;
  now?: () => Date;
}

type Parsed = { kind: 'dsld_label'; reading: DsldReading } | { kind: 'offer_page'; reading: OfferReading };

export type Reading =
  | { outcome: 'unreadable'; reason: string; status: number | null; retryAfterMs: number | null }
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
  try {
    reading = await read(deps, src);
  } catch (err) {
    reading = { outcome: 'unreadable', reason: `internal: ${(err as Error).message}`.slice(0, 300), status: null, retryAfterMs: null };
  }
  const durationMs = Math.round(performance.now() - started);
  try {
    await releaseHost(deps.pool, src.host, deps.owner, Math.max(deps.settings.MONITOR_HOST_INTERVAL_MS, reading.retryAfterMs ?? 0));
    deps.metrics?.fetchSeconds.observe({ kind: src.kind }, durationMs / 1000);
    const summary = await recordCheck(deps, src, reading, durationMs);
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

/** The URL requested: a DSLD label gets the data.gov key as DSLD's `api_key` parameter (never stored, never logged). */
function requestUrl(deps: MonitorDeps, src: LeasedSource): string {
  if (src.kind !== 'dsld_label' || !deps.settings.DSLD_API_KEY) return src.url;
  const u = new URL(src.url);
  u.searchParams.set('api_key', deps.settings.DSLD_API_KEY);
  return u.toString();
}

export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()) * 1000, 86_400_000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now.getTime()), 86_400_000);
}

async function read(deps: MonitorDeps, src: LeasedSource): Promise<Reading> {
  const now = deps.now?.() ?? new Date();
  let res: FetchedResponse;
  try {
    if (!(await deps.robots.allowed(src.url))) return { outcome: 'unreadable', reason: 'robots.txt disallows this address for the monitor', status: null, retryAfterMs: null };
    const headers: Record<string, string> = {};
    if (src.last_evidence_sha256) {
      if (src.etag) headers['if-none-match'] = src.etag;
      if (src.last_modified) headers['if-modified-since'] = src.last_modified;
    }
    res = await deps.fetcher.get(requestUrl(deps, src), headers);
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
    return { outcome: 'unreadable', reason: status === 429 ? 'rate limited (429)' : 'unavailable (503)', status, retryAfterMs: retryAfterMs(res.headers['retry-after'], now) };
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

async function recordCheck(deps: MonitorDeps, src: LeasedSource, reading: Reading, durationMs: number): Promise<CheckSummary> {
  const now = deps.now?.() ?? new Date();
  const { result } = await withRecordChange(deps.pool, `check of source ${src.source_id}: ${reading.outcome}`, async (client) => {
    // A check's commit does not wait for the WAL flush (decision 1002): every Record change is serialised behind one
    // lock, and a check lost to a database crash is only a check not yet made; its lease expires and it is made again.
    await client.query('SET LOCAL synchronous_commit = off');
    const held = await client.query<{ consecutive_unreadable: number; last_outcome: string | null; retailer: string | null }>(
      'SELECT consecutive_unreadable, last_outcome, retailer FROM sources WHERE source_id = $1 AND lease_token = $2 FOR UPDATE',
      [src.source_id, src.lease_token],
    );
    const source = held.rows[0];
    // Another replica retook the lease after ours expired: its check is the one recorded.
    if (!source) throw new LeaseLost(`the lease on source ${src.source_id} was lost`);
    const out: CheckSummary = { source_id: src.source_id, outcome: reading.outcome, recovered: false, states_created: 0, prices_recorded: 0, candidates_opened: 0, reason: reading.reason };
    if (reading.outcome !== 'unreadable' && reading.evidence) await keepEvidence(client, reading.evidence);
    out.recovered = reading.outcome === 'valid' && source.consecutive_unreadable > 0;
    let captureId: number | null = null;
    let deferred = false;
    if (reading.outcome === 'valid' && reading.parsed && reading.evidence) {
      await client.query('SAVEPOINT reading');
      try {
        const placed = await placeReading(deps, client, src, source.retailer, reading.parsed, reading.evidence, now, out);
        captureId = placed;
        await client.query('RELEASE SAVEPOINT reading');
      } catch (err) {
        if (!(err instanceof CurationRefused)) throw err;
        // A change seen on the day the old content was last read: the Record dates states by day, so the new
        // content becomes a state with the next day's reading (docs/monitor.md, "Same-day changes").
        await client.query('ROLLBACK TO SAVEPOINT reading');
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
    await client.query(
      `INSERT INTO monitoring_checks (product_id, source_id, checked_at, outcome, recovered, reason, http_status, duration_ms, evidence_sha256, capture_id, checked_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [src.product_id, src.source_id, now, reading.outcome, out.recovered, out.reason, reading.status, durationMs, reading.outcome === 'unreadable' ? null : (reading.evidence?.sha256 ?? null), captureId, 'monitor'],
    );
    const fresh = reading.outcome === 'valid' && reading.validators !== null && !deferred;
    await client.query(
      `UPDATE sources SET
          last_outcome = $2, last_checked_at = $3, consecutive_unreadable = $4, next_check_due = $5,
          health = CASE WHEN $2 = 'unreadable' THEN 'unreadable' WHEN $2 = 'valid' THEN 'readable' ELSE health END,
          health_since = CASE WHEN ($2 = 'unreadable') <> (health = 'unreadable') AND $2 <> 'empty' THEN $3 ELSE health_since END,
          last_read_at = CASE WHEN $2 = 'valid' THEN $3 ELSE last_read_at END,
          etag = CASE WHEN $6 THEN $7 ELSE etag END,
          last_modified = CASE WHEN $6 THEN $8 ELSE last_modified END,
          last_evidence_sha256 = CASE WHEN $6 THEN $9 ELSE last_evidence_sha256 END,
          lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
        WHERE source_id = $1`,
      [src.source_id, reading.outcome, now, run, due, fresh, fresh ? reading.validators!.etag : null, fresh ? reading.validators!.lastModified : null, fresh ? reading.evidence!.sha256 : null],
    );
    return out;
  });
  return result;
}

/** A valid reading becomes the Record through capture import's own code path (placeCapture), then candidates. */
async function placeReading(
  deps: MonitorDeps,
  client: PoolClient,
  src: LeasedSource,
  retailer: string | null,
  parsed: Parsed,
  evidence: Evidence,
  now: Date,
  out: CheckSummary,
): Promise<number> {
  const base = {
    product_id: src.product_id,
    source: { kind: src.kind, url: src.url, retailer },
    observed_at: now.toISOString(),
    preserved: { path: `evidence:sha256:${evidence.sha256}`, sha256: evidence.sha256 },
  };
  if (parsed.kind === 'dsld_label') {
    const r = parsed.reading;
    const ingredients = [];
    for (const i of r.ingredients) ingredients.push({ ...i, ingredient_id: await deps.names.idOf(i.declared_name) });
    const capture: CaptureInput = {
      ...base,
      label: { classification: 'comparable', serving: r.serving, blends: r.blends, ingredients, off_market: r.facts.off_market === true, note: null },
      source_facts: r.facts,
      prices: [],
    } as CaptureInput;
    const placed = await placeCapture(client, capture, { sourceId: src.source_id });
    if (placed.state_created) {
      out.states_created++;
      if (placed.previous_state_id) out.candidates_opened += await openLabelCandidates(client, src.product_id, placed.previous_state_id, placed.state_id!, r, now);
    }
    if (placed.state_created) await refreshDepth(client, src.product_id, { onlyFromRegistered: true });
    return placed.capture_id;
  }
  const offer = parsed.reading;
  const before = await client.query<{ observation_id: number; price_cents: number; observed_at: string }>(
    `SELECT observation_id, price_cents, observed_at FROM price_observations WHERE source_id = $1 AND price_basis = 'list' ORDER BY observed_at DESC, observation_id DESC LIMIT 1`,
    [src.source_id],
  );
  const capture = {
    ...base,
    label: null,
    source_facts: null,
    prices: offer.prices.map((p) => ({ retailer: retailer ?? src.host, price_cents: p.price_cents, basis: p.basis, servings_per_container: null })),
  } as CaptureInput;
  const placed = await placeCapture(client, capture, { sourceId: src.source_id });
  out.prices_recorded += placed.prices.length;
  const list = placed.prices.find((p) => p.basis === 'list');
  const prev = before.rows[0];
  // Only a list price moving opens a candidate; a promotion appearing, changing or ending never does.
  if (list && prev && prev.price_cents !== list.price_cents) {
    if (prev.observed_at >= now.toISOString().slice(0, 10)) throw new CurationRefused(`the list price changed on the day it was last read (${prev.observed_at})`);
    await openCandidateIn(
      client,
      {
        product_id: src.product_id,
        dimension: 'price',
        before_price_id: prev.observation_id,
        after_price_id: list.observation_id,
        summary: `List price ${dollars(prev.price_cents)} → ${dollars(list.price_cents)} at ${retailer ?? src.host} (read by the monitor).`,
      },
      'monitor',
    );
    out.candidates_opened++;
  }
  return placed.capture_id;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

async function openLabelCandidates(client: PoolClient, productId: string, beforeId: string, afterId: string, r: DsldReading, now: Date): Promise<number> {
  const [a, b] = [await labelOf(client, beforeId), await labelOf(client, afterId)];
  if (a.classification !== 'comparable' || b.classification !== 'comparable') return 0;
  const win = await client.query<{ before_to: string; after_from: string }>(
    `SELECT (SELECT observed_to FROM history_states WHERE state_id = $1) AS before_to, (SELECT observed_from FROM history_states WHERE state_id = $2) AS after_from`,
    [beforeId, afterId],
  );
  const w = win.rows[0]!;
  // The source dates the change to a day only when it says so (a dated reformulation or label-change event in the window).
  const dated = r.facts.events.find((e) => /reformulat|label change|changed/i.test(e.type) && e.date >= w.before_to && e.date <= w.after_from);
  const dims: Array<'formula' | 'serving' | 'identity'> = [];
  if (JSON.stringify(a.ingredients) !== JSON.stringify(b.ingredients) || JSON.stringify(a.blends) !== JSON.stringify(b.blends)) dims.push('formula');
  if (JSON.stringify(a.serving) !== JSON.stringify(b.serving)) dims.push('serving');
  // Off the market (or back): a candidate for review, never an automatic retirement.
  if (a.off_market !== b.off_market) dims.push('identity');
  for (const dimension of dims) {
    await openCandidateIn(
      client,
      {
        product_id: productId,
        dimension,
        before_state_id: beforeId,
        after_state_id: afterId,
        ...(dated ? { exact_change_date: dated.date } : {}),
        summary:
          dimension === 'identity'
            ? `DSLD label ${r.label_id} now marks the product ${b.off_market ? 'off the market' : 'back on the market'} (read by the monitor ${now.toISOString().slice(0, 10)}); review before any retirement.`
            : `The ${dimension === 'formula' ? 'declared formula' : 'serving configuration'} differs from the previous label state (DSLD label ${r.label_id}, read by the monitor ${now.toISOString().slice(0, 10)}).`,
      },
      'monitor',
    );
  }
  return dims.length;
}
