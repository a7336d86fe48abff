import { ensureStreams, natsClient, natsConnectOptions, type Pool } from '@evidence-record/platform';
import { pendingCount, publishPending } from '@evidence-record/record-store';
import { correctSignal, withdrawSignal, type CorrectionInput, type CorrectionResult } from './corrections';
import { releaseSignals, type ReleaseInput, type ReleaseResult } from './release';

export interface PublishNowResult {
  nats: 'published' | 'unreachable' | 'failed';
  published: number;
  duplicates: number;
  /** Signal release events still waiting in the outbox (for the relay). */
  pending: number;
  error: string | null;
}

/** Where the outbox's events go: the NATS servers and the stream prefix of the deployment. */
export interface NatsTarget {
  natsUrl: string;
  natsPrefix: string;
  /** NATS_STREAM_REPLICAS: replicas of the streams if this publish creates them (existing ones keep theirs; default 1). */
  streamReplicas?: number;
}

/**
 * One attempt to publish outbox events right now (after a release, or for
 * `outbox drain`). If NATS cannot be reached the events stay in the outbox
 * and the signals service's relay publishes them when NATS is back.
 */
export async function publishNow(pool: Pool, natsUrl: string, natsPrefix: string, eventIds?: string[], opts: { streamReplicas?: number } = {}): Promise<PublishNowResult> {
  let nc;
  try {
    nc = await natsClient().connect({ ...natsConnectOptions(natsUrl), name: 'admin-outbox', reconnect: false, timeout: 2_000 });
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

/**
 * Release, then publish: the batch and its events are committed together in
 * the outbox; publishing them at once is only a head start on the relay, so
 * the caller (the CLI, the console) decides what an unpublished outcome means
 * to its operator.
 */
export async function releaseAndPublish(pool: Pool, input: ReleaseInput, nats: NatsTarget): Promise<{ released: ReleaseResult; outbox: PublishNowResult }> {
  const released = await releaseSignals(pool, input);
  const outbox = await publishNow(pool, nats.natsUrl, nats.natsPrefix, released.event_ids, { streamReplicas: nats.streamReplicas });
  return { released, outbox };
}

/** What a correction or withdrawal did, and its notices' publishing (null: nobody was emailed, so there is nothing to publish). */
export interface AmendedSignal {
  amended: CorrectionResult;
  outbox: PublishNowResult | null;
}

/** Correct a released Signal, then publish its correction notices (one per account that was emailed about it). */
export async function correctAndPublish(pool: Pool, input: CorrectionInput, nats: NatsTarget): Promise<AmendedSignal> {
  return withNotices(pool, await correctSignal(pool, input), nats);
}

/** Withdraw a released Signal, then publish its withdrawal notices. */
export async function withdrawAndPublish(pool: Pool, input: CorrectionInput, nats: NatsTarget): Promise<AmendedSignal> {
  return withNotices(pool, await withdrawSignal(pool, input), nats);
}

async function withNotices(pool: Pool, amended: CorrectionResult, nats: NatsTarget): Promise<AmendedSignal> {
  if (amended.event_ids.length === 0) return { amended, outbox: null };
  return { amended, outbox: await publishNow(pool, nats.natsUrl, nats.natsPrefix, amended.event_ids, { streamReplicas: nats.streamReplicas }) };
}
