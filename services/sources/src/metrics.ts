import type { Counter, Gauge, Histogram } from 'prom-client';
import type { Metrics } from '@evidence-record/platform';

/** The monitor's own series beside the platform's (docs/monitor.md lists them). */
export interface MonitorMetrics {
  checks: Counter<'kind' | 'outcome'>;
  recoveries: Counter<'kind'>;
  candidates: Counter<'kind'>;
  fetchSeconds: Histogram<'kind'>;
  dueBacklog: Gauge;
  expiredLeases: Gauge;
  retakenLeases: Counter;
  versionLockSeconds: Histogram;
  writerLockWaitSeconds: Histogram;
  checksPerWrite: Histogram;
}

export function monitorMetrics(m: Metrics): MonitorMetrics {
  return {
    checks: m.counter('er_monitor_checks_total', 'Checks recorded, by source kind and outcome', ['kind', 'outcome']),
    recoveries: m.counter('er_monitor_recoveries_total', 'First valid checks after unreadable ones', ['kind']),
    candidates: m.counter('er_monitor_candidates_opened_total', 'Candidates the monitor opened', ['kind']),
    fetchSeconds: m.histogram('er_monitor_fetch_duration_seconds', 'Time to read a source (robots, redirects, body)', ['kind'], [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
    dueBacklog: m.gauge('er_monitor_due_backlog', 'Sources due now and not leased'),
    expiredLeases: m.gauge('er_monitor_expired_leases', 'Due sources whose lease expired (a replica died or stalled mid-check)'),
    retakenLeases: m.counter('er_monitor_leases_retaken_total', 'Leases taken over after they expired'),
    // The one lock every write of checks takes exclusively (decision 1010): its sum over time is the share of the Record's
    // version-assigning capacity this replica uses, the bound on scaling out that the design sets.
    versionLockSeconds: m.histogram('er_monitor_version_lock_seconds', "Time a write of checks held the Record's version lock (version assigned to committed)", [], [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25]),
    writerLockWaitSeconds: m.histogram('er_monitor_writer_lock_wait_seconds', "Time a write of checks waited for the Record's writer lock (an exclusive writer: capture import, curation, a release)", [], [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]),
    checksPerWrite: m.histogram('er_monitor_checks_per_write', 'Checks written in one transaction (group commit)', [], [1, 2, 4, 8, 16, 32, 48]),
  };
}
