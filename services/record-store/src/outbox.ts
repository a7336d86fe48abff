import { ALERT_REQUESTED, SIGNAL_RELEASED } from '@evidence-record/contract';
import type { Pool, PoolClient } from '@evidence-record/platform';

/**
 * The transactional outbox (event_outbox): Signal release events
 * (SIGNAL_RELEASED) and the correction notices curation writes
 * (ALERT_REQUESTED), both published by the signals service's relay and by
 * curation's publishNow after a release or a correction.
 */
const relayedKinds = [SIGNAL_RELEASED, ALERT_REQUESTED];

export interface OutboxRow {
  event_id: string;
  subject_kind: string;
  payload: Record<string, unknown>;
}

/**
 * Claims the oldest unpublished events for this transaction. SKIP LOCKED lets
 * several relay replicas (and an operator's `outbox drain`) work side by side
 * without publishing the same row at the same time.
 */
export async function claimUnpublished(client: PoolClient, limit: number, eventIds: string[] | null): Promise<OutboxRow[]> {
  const { rows } = await client.query<OutboxRow>({
    name: 'outbox-claim-unpublished',
    text: `SELECT event_id, subject_kind, payload FROM event_outbox
            WHERE published_at IS NULL AND subject_kind = ANY($1::text[]) AND ($2::text[] IS NULL OR event_id = ANY($2::text[]))
            ORDER BY created_at, event_id
            LIMIT $3
            FOR UPDATE SKIP LOCKED`,
    values: [relayedKinds, eventIds, limit],
  });
  return rows;
}

export async function markPublished(client: PoolClient, eventIds: string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await client.query({
    name: 'outbox-mark-published',
    text: `UPDATE event_outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE event_id = ANY($1::text[])`,
    values: [eventIds],
  });
}

export async function markFailed(client: PoolClient, eventId: string, error: string): Promise<void> {
  await client.query({
    name: 'outbox-mark-failed',
    text: `UPDATE event_outbox SET attempts = attempts + 1, last_error = $2 WHERE event_id = $1`,
    values: [eventId, error.slice(0, 500)],
  });
}

export async function pendingCount(pool: Pool): Promise<{ pending: number; oldest_seconds: number | null }> {
  const { rows } = await pool.query<{ pending: number; oldest_seconds: number | null }>({
    name: 'outbox-pending-count',
    text: `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest_seconds
             FROM event_outbox WHERE published_at IS NULL AND subject_kind = ANY($1::text[])`,
    values: [relayedKinds],
  });
  return rows[0] ?? { pending: 0, oldest_seconds: null };
}
