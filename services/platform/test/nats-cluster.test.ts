import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, DiscardPolicy, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import { streamNames } from '@evidence-record/contract';
import { connectNats, ensureDurableConsumer, ensureStreams, natsConnectOptions } from '../src/index';
import { isolationPrefix } from '@evidence-record/test-support/db';
import { startNatsCluster, type NatsCluster } from '@evidence-record/test-support/nats-cluster';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * A NATS_URL listing a real three-node JetStream cluster (nats-server on
 * loopback, started here): every connection knows every server, survives
 * the death of its own, and the project's streams keep the replicas they
 * were created with whatever a later start asks (decision 2340).
 */
let cluster: NatsCluster;
const connections: NatsConnection[] = [];

const track = (nc: NatsConnection) => {
  connections.push(nc);
  return nc;
};

beforeAll(async () => {
  cluster = await startNatsCluster({ nodes: 3 });
}, 120_000);

afterAll(async () => {
  for (const nc of connections) await nc.close().catch(() => undefined);
  await cluster?.stop();
});

/** Publishes with a message id until JetStream acknowledges it (a leader election answers 503 meanwhile); the id makes a retry harmless. */
async function publishAcked(nc: NatsConnection, subject: string, msgID: string): Promise<{ attempts: number; duplicate: boolean }> {
  for (let attempts = 1; ; attempts++) {
    try {
      const ack = await nc.jetstream().publish(subject, new TextEncoder().encode(msgID), { msgID, timeout: 2_000 });
      return { attempts, duplicate: ack.duplicate };
    } catch (err) {
      if (attempts >= 60) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('a NATS_URL with several servers', () => {
  it('connects while the server listed last is down (nats.js, handed the list as one string, dialled only that one)', async () => {
    await cluster.kill(2);
    try {
      // The way the CLI and the relay connect: one attempt, no retry loop.
      const once = track(await connect({ ...natsConnectOptions(cluster.url), reconnect: false, timeout: 2_000 }));
      expect(cluster.nodeAt(once.getServer())?.index).not.toBe(2);
      const service = track(await connectNats(cluster.url, 'cluster-test'));
      expect(cluster.nodeAt(service.getServer())?.index).not.toBe(2);
      await service.flush();
    } finally {
      await cluster.restart(2);
    }
  });

  it('survives the death of the server it is connected to, and of the stream leader: publishes continue, none lost, none twice', async () => {
    const prefix = isolationPrefix('natscluster').natsPrefix;
    const nc = track(await connectNats(cluster.url, 'cluster-survivor'));
    const names = await ensureStreams(nc, prefix, { replicas: 3 });
    const stream = names.alerts.stream;
    const subject = names.alerts.requested;
    let n = 0;
    const publishSome = async (count: number) => {
      const results = [];
      for (let i = 0; i < count; i++) results.push(await publishAcked(nc, subject, `m-${++n}`));
      return results;
    };
    expect((await publishSome(10)).every((r) => !r.duplicate)).toBe(true);

    const own = cluster.nodeAt(nc.getServer())!;
    await cluster.kill(own.index);
    const afterOwn = await publishSome(10);
    expect(afterOwn.every((r) => !r.duplicate)).toBe(true);
    expect(cluster.nodeAt(nc.getServer())!.index).not.toBe(own.index);
    await cluster.restart(own.index);

    const leader = await cluster.killStreamLeader(stream);
    const afterLeader = await publishSome(10);
    expect(afterLeader.every((r) => !r.duplicate)).toBe(true);
    const next = await cluster.streamLeader(stream);
    expect(next.index).not.toBe(leader.index);
    await cluster.restart(leader.index);

    // Every message once: 30 published, 30 in the stream (a retried publish was deduplicated by its id).
    const placement = await waitFor('stream caught up', async () => {
      const p = await cluster.streamPlacement(stream).catch(() => null);
      return p && p.followers.length === 2 && p.followers.every((f) => f.current && !f.offline) ? p : null;
    }, 60_000, 250);
    expect(placement.info.state.messages).toBe(30);
    expect(placement.replicas).toBe(3);
  });
});

describe('stream replicas (NATS_STREAM_REPLICAS)', () => {
  it('3 creates both streams at R3, and a consumer follows its stream', async () => {
    const prefix = isolationPrefix('natsr3').natsPrefix;
    const nc = track(await connectNats(cluster.url, 'cluster-r3'));
    const names = await ensureStreams(nc, prefix, { replicas: 3 });
    for (const stream of [names.signals.stream, names.alerts.stream]) {
      const p = await cluster.streamPlacement(stream);
      expect(p.replicas, stream).toBe(3);
      expect(p.followers, stream).toHaveLength(2);
    }
    await ensureDurableConsumer({ nc, stream: names.signals.stream, durable: 'fanout', filterSubject: names.signals.released, ackWaitMs: 30_000 });
    const jsm = await nc.jetstreamManager();
    // Its group settles as the stream's did: read right after the test before this one restarted nodes, the answer
    // once listed three replicas. A leader and its two followers, within 30 s, or the test fails.
    const consumer = await waitFor('consumer led and followed by two replicas', async () => {
      const c = await jsm.consumers.info(names.signals.stream, 'fanout');
      return c.cluster?.leader && (c.cluster.replicas ?? []).length === 2 ? c : null;
    }, 30_000, 250);
    // No replicas of its own: it is replicated as its stream is.
    expect(consumer.config.num_replicas ?? 0).toBe(0);
    expect(consumer.cluster?.replicas ?? []).toHaveLength(2);
  });

  it('a later start with another setting never rewrites an existing stream\'s replicas: R3 stays R3, R1 stays R1 (and says so)', async () => {
    const prefix = isolationPrefix('natskeep').natsPrefix;
    const nc = track(await connectNats(cluster.url, 'cluster-keep'));
    const names = await ensureStreams(nc, prefix, { replicas: 3 });
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => void warnings.push(args) } as never;
    // A pod of the previous version, a CLI run without the variable, a reconnect: each with the default of 1.
    for (let i = 0; i < 3; i++) await ensureStreams(nc, prefix, { replicas: 1, log });
    expect((await cluster.streamPlacement(names.signals.stream)).replicas).toBe(3);
    expect((await cluster.streamPlacement(names.alerts.stream)).replicas).toBe(3);
    expect(warnings.length).toBe(6);

    const r1 = isolationPrefix('natsr1').natsPrefix;
    const r1Names = await ensureStreams(nc, r1, { replicas: 1 });
    await ensureStreams(nc, r1, { replicas: 3 });
    expect((await cluster.streamPlacement(r1Names.signals.stream)).replicas).toBe(1);
  });

  it('a stream created with older settings is brought to this code\'s, its replicas untouched', async () => {
    const prefix = isolationPrefix('natsold').natsPrefix;
    const names = streamNames(prefix);
    const nc = track(await connectNats(cluster.url, 'cluster-old'));
    const jsm = await nc.jetstreamManager();
    // As an operator (or an older version) left it: R3, a one-day age limit.
    await jsm.streams.add({ name: names.signals.stream, subjects: [names.signals.released], retention: RetentionPolicy.Limits, storage: StorageType.File, discard: DiscardPolicy.Old, max_age: 24 * 3600 * 1e9, num_replicas: 3 });
    await ensureStreams(nc, prefix);
    const p = await cluster.streamPlacement(names.signals.stream);
    expect(p.info.config.max_age).toBe(30 * 24 * 3600 * 1e9);
    expect(p.info.config.duplicate_window).toBe(24 * 3600 * 1e9);
    expect(p.replicas).toBe(3);
  });
});
