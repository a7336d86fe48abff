import { JSONCodec, NatsError, type JetStreamClient, type JsMsg } from 'nats';
import { AlertRequestedEvent, SignalReleasedEvent, streamNames } from '@evidence-record/contract';
import { SpanKind, startSpan, type Logger } from '@evidence-record/platform';
import type { Pool } from '@evidence-record/platform';
import { findRelease, insertAlertsForWatchers, pendingAlerts } from '../queries/fanout';
import type { FanoutMetrics } from './metrics';

const json = JSONCodec();

export interface FanoutDeps {
  pool: Pool;
  js: JetStreamClient;
  natsPrefix: string;
  log: Logger;
  metrics: FanoutMetrics;
  /** Publishes in flight at once; JetStream acknowledges them in a pipeline. */
  publishWindow?: number;
}

export type FanoutOutcome =
  | { kind: 'fanned_out'; created: number; published: number }
  | { kind: 'skipped'; reason: 'withdrawn' | 'unknown_signal' | 'not_released' };

/**
 * One released Signal becomes one alert per account watching its product at
 * release time: the alerts are stored first, then each is published to the
 * ALERTS stream with its alert id as message id. Only then is the Signal
 * event acknowledged, so a crash anywhere re-runs this whole step, and the
 * stable ids make the re-run add nothing twice.
 */
export async function fanOutSignal(deps: FanoutDeps, event: SignalReleasedEvent, traceparent = event.traceparent): Promise<FanoutOutcome> {
  const release = await findRelease(deps.pool, event.signal_id);
  if (!release) return { kind: 'skipped', reason: 'unknown_signal' };
  if (!release.released_at) return { kind: 'skipped', reason: 'not_released' };
  // A Signal withdrawn before anyone was told is not worth an email.
  if (release.status === 'withdrawn') return { kind: 'skipped', reason: 'withdrawn' };

  const created = await insertAlertsForWatchers(deps.pool, event.signal_id, event.product_id);
  const pending = await pendingAlerts(deps.pool, event.signal_id);
  // Each alert continues the release's trace, so the email it becomes is found from the release.
  await publishAlertRequests(deps, pending.map((a) => ({ alert_id: a.alert_id, signal_id: event.signal_id, account_id: a.account_id, product_id: a.product_id, ...(traceparent ? { traceparent } : {}) })));
  return { kind: 'fanned_out', created, published: pending.length };
}

async function publishAlertRequests(deps: FanoutDeps, alerts: AlertRequestedEvent[]): Promise<void> {
  const subject = streamNames(deps.natsPrefix).alerts.requested;
  const window = deps.publishWindow ?? 1_000;
  for (let i = 0; i < alerts.length; i += window) {
    const slice = alerts.slice(i, i + window);
    await Promise.all(slice.map((alert) => deps.js.publish(subject, json.encode(AlertRequestedEvent.parse(alert)), { msgID: alert.alert_id, timeout: 10_000 })));
    deps.metrics.alertsPublished.inc(slice.length);
  }
}

/** How many deliveries of an event naming an unknown Signal we wait for before giving it up. */
const UNKNOWN_SIGNAL_PATIENCE = 5;

/** Settles one SIGNALS message: ack after a complete fan-out, nak (retry later) on any failure. */
export function signalReleasedHandler(deps: FanoutDeps): (msg: JsMsg) => Promise<void> {
  return async (msg) => {
    let event: SignalReleasedEvent;
    try {
      event = SignalReleasedEvent.parse(json.decode(msg.data));
    } catch (err) {
      deps.log.error({ err: String(err), seq: msg.seq }, 'SignalReleasedEvent does not match the contract; dropping it');
      deps.metrics.signals.inc({ outcome: 'invalid' });
      msg.term('invalid SignalReleasedEvent');
      return;
    }
    const started = process.hrtime.bigint();
    const span = startSpan('signal fan-out', { parent: event.traceparent, kind: SpanKind.CONSUMER, attributes: { 'er.signal_id': event.signal_id } });
    const log = deps.log.child({ trace_id: span.traceId });
    let failure: unknown;
    try {
      const outcome = await fanOutSignal(deps, event, span.traceparent);
      if (outcome.kind === 'skipped') {
        // An event can in principle arrive before its Signal is visible; give it a few chances.
        if (outcome.reason !== 'withdrawn' && msg.info.deliveryCount < UNKNOWN_SIGNAL_PATIENCE) {
          msg.nak(2_000 * msg.info.deliveryCount);
          return;
        }
        log.warn({ signal_id: event.signal_id, reason: outcome.reason }, 'Signal event not fanned out');
        deps.metrics.signals.inc({ outcome: outcome.reason });
        msg.ack();
        return;
      }
      msg.ack();
      deps.metrics.signals.inc({ outcome: 'fanned_out' });
      deps.metrics.alertsCreated.inc(outcome.created);
      deps.metrics.duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
      log.info({ signal_id: event.signal_id, product_id: event.product_id, alerts_created: outcome.created, alerts_published: outcome.published }, 'Signal fanned out');
    } catch (err) {
      failure = err;
      deps.metrics.signals.inc({ outcome: 'retry' });
      // Postgres failures are counted by the pool; a publish that failed is NATS's.
      if (err instanceof NatsError) deps.metrics.dependencyErrors?.inc({ dependency: 'nats' });
      log.warn({ err: String(err), signal_id: event.signal_id }, 'fan-out failed; the event will be redelivered');
      msg.nak(Math.min(30_000, 1_000 * 2 ** Math.min(msg.info.deliveryCount, 5)));
    } finally {
      span.end(failure === undefined ? {} : { error: failure });
    }
  };
}
