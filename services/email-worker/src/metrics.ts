import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from '@evidence-record/platform';

export interface EmailMetrics {
  sent: Counter<string>;
  failed: Counter<'kind'>;
  dead: Counter<string>;
  cancelled: Counter<'reason'>;
  skipped: Counter<'reason'>;
  sendSeconds: Histogram<string>;
  /** The service's er_dependency_errors_total (SMTP unreachable counts here). */
  dependencyErrors?: Counter<'dependency'>;
}

export function emailMetrics(metrics: Metrics): EmailMetrics {
  return {
    sent: metrics.counter('er_emails_sent_total', 'Alert emails accepted by the SMTP server'),
    failed: metrics.counter('er_emails_failed_total', 'Failed send attempts that will be retried, by kind', ['kind']),
    dead: metrics.counter('er_emails_dead_total', 'Alerts that became dead letters'),
    cancelled: metrics.counter('er_alerts_cancelled_total', 'Alerts cancelled before delivery, by reason', ['reason']),
    skipped: metrics.counter('er_alert_messages_skipped_total', 'Alert messages acknowledged without sending, by reason', ['reason']),
    sendSeconds: metrics.histogram('er_email_send_duration_seconds', 'Time for the SMTP server to accept one alert', [], [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]),
    dependencyErrors: metrics.dependencyErrors,
  };
}
