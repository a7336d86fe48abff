import { JSONCodec, type JsMsg } from 'nats';
import type { Transporter } from 'nodemailer';
import { AlertRequestedEvent, mintUnsubscribeToken, unsubscribeUrl } from '@evidence-record/contract';
import {
  SpanKind,
  consumerLagGauge,
  setUpWorkerConsumer,
  runDurableConsumer,
  startSpan,
  type Logger,
  type Metrics,
  type NatsConnection,
  type Pool,
  type RunningConsumer,
} from '@evidence-record/platform';
import { backoffMs } from './backoff';
import { deliveryStep } from './delivery-step';
import { renderAlertEmail } from './message';
import { loadCorrectionNotice, renderCorrectionEmail } from './correction';
import { emailMetrics, type EmailMetrics } from './metrics';
import { cancelAlert, claimAlert, loadAlert, loadSignalChange, markDead, markRetry, markSent } from './queries/alerts';
import { classifySmtpFailure } from './smtp';

export interface DeliveryOptions {
  pool: Pool;
  mailer: Transporter;
  log: Logger;
  metrics: EmailMetrics;
  mailFrom: string;
  publicBaseUrl: string;
  leaseMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Signs each email's one-click unsubscribe link; null: the email carries none (never in production, see config.ts). */
  unsubscribe: { signingKey: string; ttlDays: number } | null;
  /** Test hook (EMAIL_WORKER_CRASH_AFTER_SEND=1): die between recording 'sent' and the acknowledgement. */
  crashAfterSend: boolean;
}

const json = JSONCodec();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Delivers the alert one ALERTS message names, exactly once in the normal
 * case: settled alerts are only acknowledged, the claim is one conditional
 * UPDATE, 'sent' is recorded the moment the SMTP server accepts, and the
 * message is acknowledged only after that. Temporary SMTP failures come back
 * with exponential backoff; a 5xx rejection or the last allowed attempt
 * leaves a dead letter for the operator.
 */
export function alertMessageHandler(o: DeliveryOptions): (msg: JsMsg) => Promise<void> {
  return async (msg) => {
    let event: AlertRequestedEvent;
    try {
      event = AlertRequestedEvent.parse(json.decode(msg.data));
    } catch (err) {
      o.log.error({ err: String(err), seq: msg.seq }, 'AlertRequestedEvent does not match the contract; dropping it');
      o.metrics.skipped.inc({ reason: 'invalid' });
      msg.term('invalid AlertRequestedEvent');
      return;
    }
    // The alert continues the trace of the release that caused it (via the watch fan-out).
    const span = startSpan('alert email', { parent: event.traceparent, kind: SpanKind.CONSUMER, attributes: { 'er.alert_id': event.alert_id } });
    const log = o.log.child({ alert_id: event.alert_id, signal_id: event.signal_id, trace_id: span.traceId });
    let failure: unknown;
    try {
      await deliver(o, msg, event, log);
    } catch (err) {
      failure = err;
      if (err instanceof SentButUnrecorded) {
        // Leave the message unsettled: after the lease another worker resends (docs/decisions/0501).
        log.error({ err: String(err.cause) }, 'email accepted by SMTP but not recorded as sent; it may be sent again after the lease');
        return;
      }
      // Postgres trouble before anything was sent: try again shortly.
      o.metrics.failed.inc({ kind: 'internal' });
      log.warn({ err: String(err) }, 'delivery step failed before sending; retrying');
      msg.nak(5_000);
    } finally {
      span.end(failure === undefined ? {} : { error: failure });
    }
  };
}

async function deliver(o: DeliveryOptions, msg: JsMsg, event: AlertRequestedEvent, log: Logger): Promise<void> {
  const alert = await loadAlert(o.pool, event.alert_id, o.leaseMs);
  if (!alert) {
    // The fan-out stores every alert before publishing it, so this message is not ours.
    log.error('alert message names no stored alert; dropping it');
    o.metrics.skipped.inc({ reason: 'unknown_alert' });
    msg.term('unknown alert');
    return;
  }

  const step = deliveryStep(alert);
  if (step.kind === 'done') {
    o.metrics.skipped.inc({ reason: step.reason });
    msg.ack();
    return;
  }
  if (step.kind === 'wait') {
    msg.nak(step.ms);
    return;
  }
  if (step.kind === 'cancel') {
    await cancelAlert(o.pool, alert.alert_id, step.reason, o.leaseMs);
    o.metrics.cancelled.inc({ reason: step.reason });
    log.info({ reason: step.reason }, 'alert cancelled before delivery');
    msg.ack();
    return;
  }

  // Read before the claim: a Postgres failure here leaves nothing claimed, so the retry is immediate, not after a lease.
  const change = await loadSignalChange(o.pool, alert.signal_id);
  // A correction notice has its own template (correction.ts), read before the claim too.
  const notice = alert.kind === 'correction' ? await loadCorrectionNotice(o.pool, alert.alert_id) : null;
  if (alert.kind === 'correction' && !notice) throw new Error(`correction notice ${alert.alert_id} names no correction`);
  const claim = await claimAlert(o.pool, alert.alert_id, o.leaseMs);
  if (claim === null) {
    // Lost a race (another worker claimed it, or the watch was just removed): look again later.
    msg.nak(1_000);
    return;
  }
  const attempt = claim.attempt;

  const link = unsubscribeLink(o, alert, claim.claimedAt);
  const email = notice
    ? renderCorrectionEmail(notice, { publicBaseUrl: o.publicBaseUrl, mailFrom: o.mailFrom, unsubscribeUrl: link })
    : renderAlertEmail(alert, change, { publicBaseUrl: o.publicBaseUrl, mailFrom: o.mailFrom, unsubscribeUrl: link });
  const started = process.hrtime.bigint();
  let smtpMessageId: string;
  try {
    const info = (await o.mailer.sendMail({
      from: o.mailFrom,
      to: alert.email,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: email.messageId,
      headers: { 'X-Evidence-Record-Alert': alert.alert_id, ...email.headers },
    })) as { messageId?: string; response?: string };
    smtpMessageId = `${info.messageId ?? email.messageId}${info.response ? ` ${info.response}` : ''}`.slice(0, 500);
  } catch (err) {
    await settleFailure(o, msg, alert.alert_id, attempt, err, log);
    return;
  }

  // Accepted. Recording it right now is what keeps a redelivery from sending again.
  await recordSent(o, msg, alert.alert_id, smtpMessageId, log);
  o.metrics.sent.inc();
  o.metrics.sendSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
  if (o.crashAfterSend) process.kill(process.pid, 'SIGKILL');
  msg.ack();
  log.info({ attempt }, 'alert email sent');
}

/**
 * The email's one-click unsubscribe link: a token for this account and product only, expiring after the
 * configured days, issued at the claim (the database's clock, the one watches are dated by; for an alert the
 * claim also saw the watch), so it never removes a watch added after this email (decision 1901).
 */
function unsubscribeLink(o: DeliveryOptions, alert: { account_id: string; product_id: string }, issuedAt: Date): string | null {
  if (!o.unsubscribe) return null;
  const expiresAt = Math.floor(Date.now() / 1000) + o.unsubscribe.ttlDays * 86_400;
  try {
    return unsubscribeUrl(o.publicBaseUrl, mintUnsubscribeToken(o.unsubscribe.signingKey, { accountId: alert.account_id, productId: alert.product_id, expiresAt, issuedAtMs: issuedAt.getTime() }));
  } catch (err) {
    // An account id outside the token alphabet: the email still goes, with the keyed way to stop (and this line to fix it).
    o.log.error({ err: String(err), account_id: alert.account_id }, 'no unsubscribe link for this alert');
    return null;
  }
}

async function settleFailure(o: DeliveryOptions, msg: JsMsg, alertId: string, attempt: number, err: unknown, log: Logger): Promise<void> {
  const failure = classifySmtpFailure(err);
  if (failure.kind === 'permanent' || (failure.kind === 'temporary' && attempt >= o.maxAttempts)) {
    await markDead(o.pool, alertId, failure.message);
    o.metrics.dead.inc();
    log.error({ attempt, kind: failure.kind, error: failure.message }, 'alert is a dead letter');
    msg.ack();
    return;
  }
  const unavailable = failure.kind === 'unavailable';
  // Both counters move in the same tick, before the database step, so a scrape never sees one without the other
  // (test/operability/dependency-errors.test.ts compares them) and the SMTP failure counts even if Postgres fails next.
  o.metrics.failed.inc({ kind: failure.kind });
  if (unavailable) o.metrics.dependencyErrors?.inc({ dependency: 'smtp' });
  await markRetry(o.pool, alertId, failure.message, unavailable);
  // During an outage the attempt count stands still, so the redelivery count drives the backoff.
  const delay = backoffMs(unavailable ? msg.info.deliveryCount : attempt, o.backoffBaseMs, o.backoffMaxMs);
  log.warn({ attempt, kind: failure.kind, retry_in_ms: delay, error: failure.message }, 'SMTP send failed; will retry');
  msg.nak(delay);
}

class SentButUnrecorded extends Error {
  override name = 'SentButUnrecorded';
}

/**
 * The one step between SMTP acceptance and the acknowledgement. If Postgres
 * is briefly away we keep trying (and keep the message) for half the lease;
 * past that another worker could take the alert over, which is the residual
 * at-least-once window documented in docs/watch-and-alerts.md.
 */
async function recordSent(o: DeliveryOptions, msg: JsMsg, alertId: string, smtpMessageId: string, log: Logger): Promise<void> {
  const deadline = Date.now() + o.leaseMs / 2;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      if (!(await markSent(o.pool, alertId, smtpMessageId))) log.warn('alert was no longer claimed by this worker when it was recorded as sent');
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new SentButUnrecorded('could not record the sent alert', { cause: err });
      log.warn({ err: String(err) }, 'could not record the sent alert yet; retrying');
      msg.working();
      await sleep(wait);
    }
  }
}

export interface EmailWorkerOptions extends Omit<DeliveryOptions, 'metrics' | 'log'> {
  nc: NatsConnection;
  natsPrefix: string;
  /** NATS_STREAM_REPLICAS: replicas of the streams if this start creates them (existing ones keep theirs; the consumer follows its stream). */
  streamReplicas?: number;
  durable: string;
  ackWaitMs: number;
  concurrency: number;
  log: Logger;
  metrics: Metrics;
}

/**
 * Starts consuming alerts: the ALERTS stream and the shared durable consumer
 * are created idempotently, so any number of replicas can start at once and
 * JetStream hands each message to exactly one of them at a time.
 */
export async function startEmailWorker(opts: EmailWorkerOptions): Promise<RunningConsumer> {
  const consumerSpec = await setUpWorkerConsumer({ ...opts, consumes: 'alerts' });
  const log = opts.log.child({ component: 'email-worker' });
  const running = runDurableConsumer({
    ...consumerSpec,
    concurrency: opts.concurrency,
    log,
    metrics: opts.metrics,
    handle: alertMessageHandler({ ...opts, log, metrics: emailMetrics(opts.metrics) }),
  });
  consumerLagGauge(opts.metrics, opts.durable, running.lag);
  log.info({ stream: consumerSpec.stream, durable: opts.durable, concurrency: opts.concurrency }, 'email worker started');
  return running;
}
