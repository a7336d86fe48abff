import type { AlertRow } from './queries/alerts';

export type DeliveryStep =
  | { kind: 'done'; reason: 'sent' | 'cancelled' | 'dead' }
  | { kind: 'wait'; ms: number }
  | { kind: 'cancel'; reason: string }
  | { kind: 'claim' };

/**
 * What to do with an alert whose message arrived. Anything already settled is
 * only acknowledged; a live claim of another worker is waited out; an alert
 * whose account stopped watching (or whose Signal was withdrawn) before
 * delivery is cancelled; everything else is claimed and sent.
 */
export function deliveryStep(alert: Pick<AlertRow, 'status' | 'watching' | 'lease_live' | 'lease_remaining_ms' | 'signal_status'> & { kind?: AlertRow['kind'] }): DeliveryStep {
  if (alert.status === 'sent' || alert.status === 'cancelled' || alert.status === 'dead') return { kind: 'done', reason: alert.status };
  if (alert.status === 'sending' && alert.lease_live) return { kind: 'wait', ms: (alert.lease_remaining_ms ?? 0) + 500 };
  // A correction notice answers an email already sent: it goes out even if the account stopped watching or the Signal was withdrawn.
  if (alert.kind === 'correction') return { kind: 'claim' };
  if (!alert.watching) return { kind: 'cancel', reason: 'unwatched before delivery' };
  if (alert.signal_status === 'withdrawn') return { kind: 'cancel', reason: 'Signal withdrawn before delivery' };
  return { kind: 'claim' };
}
