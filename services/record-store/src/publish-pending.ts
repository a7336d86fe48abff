import type { JetStreamClient } from 'nats';
import { withTransaction, type Pool } from '@evidence-record/platform';
import type { StreamNames } from '@evidence-record/contract';
import { ALERT_REQUESTED, SIGNAL_RELEASED } from '@evidence-record/contract';
import { claimUnpublished, markFailed, markPublished } from './outbox';

export interface PublishResult {
  published: number;
  /** Acknowledged by JetStream as a duplicate of an earlier publish (same Nats-Msg-Id): already in the stream. */
  duplicates: number;
  failed: number;
  last_error: string | null;
}

export interface PublishOptions {
  batchSize?: number;
  timeoutMs?: number;
  /** Only these events (the ones a release just wrote); default every pending event. */
  eventIds?: string[];
}

function subjectFor(kind: string, names: StreamNames): string {
  if (kind === SIGNAL_RELEASED) return names.signals.released;
  // Correction notices: curation stores the alert rows and their requests in one transaction.
  if (kind === ALERT_REQUESTED) return names.alerts.requested;
  throw new Error(`no subject for outbox kind ${kind}`);
}

/**
 * Publishes pending outbox events to JetStream with Nats-Msg-Id = event_id
 * and marks them published in the same transaction that claimed them. If the
 * mark is lost (crash after the publish), the event is published again and
 * the stream's duplicate window drops it: each event lands once.
 * Stops at the first failure so events keep their order.
 */
export async function publishPending(pool: Pool, js: JetStreamClient, names: StreamNames, opts: PublishOptions = {}): Promise<PublishResult> {
  const batchSize = opts.batchSize ?? 100;
  const result: PublishResult = { published: 0, duplicates: 0, failed: 0, last_error: null };
  for (;;) {
    const batch = await withTransaction(pool, async (client) => {
      const rows = await claimUnpublished(client, batchSize, opts.eventIds ?? null);
      const done: string[] = [];
      let failure: string | null = null;
      for (const row of rows) {
        try {
          const ack = await js.publish(subjectFor(row.subject_kind, names), JSON.stringify(row.payload), {
            msgID: row.event_id,
            timeout: opts.timeoutMs ?? 2_000,
          });
          if (ack.duplicate) result.duplicates++;
          done.push(row.event_id);
        } catch (err) {
          failure = err instanceof Error ? err.message : String(err);
          await markFailed(client, row.event_id, failure);
          break;
        }
      }
      await markPublished(client, done);
      return { claimed: rows.length, done: done.length, failure };
    });
    result.published += batch.done;
    if (batch.failure) {
      result.failed++;
      result.last_error = batch.failure;
      return result;
    }
    if (batch.claimed < batchSize) return result;
  }
}
