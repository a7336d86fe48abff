import { z } from 'zod';

/**
 * Events on NATS JetStream. Streams and subjects carry a configurable prefix
 * so that test runs and deployments never share them. Every message carries
 * a stable id used as the JetStream Nats-Msg-Id, so a republish is a no-op.
 */
export interface StreamNames {
  signals: { stream: string; released: string };
  alerts: { stream: string; requested: string };
}

export function streamNames(prefix = ''): StreamNames {
  const p = prefix.replace(/[^A-Za-z0-9_-]/g, '_');
  const sp = p ? `${p}.` : '';
  return {
    signals: { stream: `${p}SIGNALS`.toUpperCase(), released: `${sp}er.signals.released` },
    alerts: { stream: `${p}ALERTS`.toUpperCase(), requested: `${sp}er.alerts.requested` },
  };
}

/** The outbox subject kind of a Signal release (event_outbox.subject_kind). */
export const SIGNAL_RELEASED = 'signal.released';

/** A Signal's permanent public address, the one to cite. */
export function signalUrl(publicBaseUrl: string, signalId: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/api/v1/signals/${signalId}`;
}

/** Published once per released Signal (transactional outbox, msg id = event_id). */
export const SignalReleasedEvent = z.strictObject({
  event_id: z.string(),
  signal_id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  brand_name: z.string(),
  dimension: z.string(),
  summary: z.string(),
  observation_window: z.strictObject({ start: z.iso.date(), end: z.iso.date(), exact_change_date: z.iso.date().nullable() }),
  released_at: z.iso.date(),
  signal_url: z.string(),
  traceparent: z.string().optional(),
});
export type SignalReleasedEvent = z.infer<typeof SignalReleasedEvent>;

/** One alert to one account about one Signal (msg id = alert_id). */
export const AlertRequestedEvent = z.strictObject({
  alert_id: z.string(),
  signal_id: z.string(),
  account_id: z.string(),
  product_id: z.string(),
  traceparent: z.string().optional(),
});
export type AlertRequestedEvent = z.infer<typeof AlertRequestedEvent>;
