import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from '@evidence-record/platform';

export interface FanoutMetrics {
  signals: Counter<'outcome'>;
  alertsCreated: Counter<string>;
  alertsPublished: Counter<string>;
  duration: Histogram<string>;
  /** The service's er_dependency_errors_total. */
  dependencyErrors?: Counter<'dependency'>;
}

export function fanoutMetrics(metrics: Metrics): FanoutMetrics {
  return {
    signals: metrics.counter('er_fanout_signals_total', 'Signal events handled by the fan-out, by outcome', ['outcome']),
    alertsCreated: metrics.counter('er_fanout_alerts_created_total', 'Alert rows created by the fan-out'),
    alertsPublished: metrics.counter('er_fanout_alerts_published_total', 'AlertRequested messages published (republishes included)'),
    duration: metrics.histogram('er_fanout_duration_seconds', 'Time to fan out one Signal', [], [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60]),
    dependencyErrors: metrics.dependencyErrors,
  };
}
