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
  };
}
