import { startSpan } from '@evidence-record/platform';
import type { CheckSummary, MonitorDeps } from './deps';
import { Deadline } from './fetcher';
import { claimHost, releaseHost, runLeased, type LeasedSource } from './leases';
import { RedirectHostBusy, read } from './read';
import type { Reading } from './reading';
import { checkDeadlineMs } from './settings';

/**
 * One check of one leased source: take the host's slot, read (read.ts), give
 * the slot back, record (recorder.ts, which places the reading: place.ts).
 * Returns null when the host was busy; the lease is then given back and the
 * source stays due (runLeased, the lease lifecycle in leases.ts).
 */
export async function performCheck(deps: MonitorDeps, src: LeasedSource): Promise<CheckSummary | null> {
  return runLeased(deps.pool, src, () => check(deps, src));
}

async function check(deps: MonitorDeps, src: LeasedSource): Promise<CheckSummary | null> {
  if (!(await claimHost(deps.pool, src.host, deps.owner, deps.settings.MONITOR_LEASE_MS))) return null;
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
