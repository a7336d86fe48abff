import { connect } from 'nats';
import { ensureStreams, natsConnectOptions, type Pool } from '@evidence-record/platform';
import { pendingCount } from '../queries/outbox';
import { publishPending } from './publisher';

export interface PublishNowResult {
  nats: 'published' | 'unreachable' | 'failed';
  published: number;
  duplicates: number;
  /** Signal release events still waiting in the outbox (for the relay). */
  pending: number;
  error: string | null;
}

/**
 * One attempt to publish outbox events right now (after a release, or for
 * `outbox drain`). If NATS cannot be reached the events stay in the outbox
 * and the signals service's relay publishes them when NATS is back.
 */
export async function publishNow(pool: Pool, natsUrl: string, natsPrefix: string, eventIds?: string[], opts: { streamReplicas?: number } = {}): Promise<PublishNowResult> {
  let nc;
  try {
    nc = await connect({ ...natsConnectOptions(natsUrl), name: 'admin-outbox', reconnect: false, timeout: 2_000 });
  } catch (err) {
    return { nats: 'unreachable', published: 0, duplicates: 0, pending: (await pendingCount(pool)).pending, error: String(err) };
  }
  try {
    // NATS_STREAM_REPLICAS applies if this call creates the streams; existing ones keep theirs (decision 2340).
    const names = await ensureStreams(nc, natsPrefix, { replicas: opts.streamReplicas ?? 1 });
    const result = await publishPending(pool, nc.jetstream(), names, eventIds ? { eventIds } : {});
    return {
      nats: result.failed > 0 ? 'failed' : 'published',
      published: result.published,
      duplicates: result.duplicates,
      pending: (await pendingCount(pool)).pending,
      error: result.last_error,
    };
  } catch (err) {
    return { nats: 'failed', published: 0, duplicates: 0, pending: (await pendingCount(pool)).pending, error: err instanceof Error ? err.message : String(err) };
  } finally {
    await nc.close().catch(() => undefined);
  }
}
