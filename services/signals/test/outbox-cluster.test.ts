import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { NatsConnection } from 'nats';
import { releaseSignals } from '@evidence-record/curation';
import { Metrics, connectNats, createPool, ensureStreams, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { startNatsCluster, type NatsCluster } from '@evidence-record/test-support/nats-cluster';
import { approvedFormulaChanges, createCatalogue } from '@evidence-record/test-support/signals-fixtures';
import { waitFor } from '@evidence-record/test-support/wait';
import { OutboxRelay } from '../src/index';

/**
 * The outbox relay on a real three-node JetStream cluster: after the node it
 * is connected to dies it reconnects to another and makes sure of the
 * streams again, which must leave an R3 stream at R3 although the relay's own
 * setting is the default of 1 (before decision 2340 every reconnect rewrote
 * the streams to R1).
 */
let db: TestDatabase;
let pool: Pool;
let cluster: NatsCluster;
let observer: NatsConnection;
let relay: OutboxRelay | null = null;
const { natsPrefix } = isolationPrefix('outboxcluster');
const logLines: Array<{ msg: string; time: number }> = [];
const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as { msg: string; time: number }) });

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  cluster = await startNatsCluster({ nodes: 3 });
  observer = await connectNats(cluster.url, 'outbox-cluster-observer');
}, 120_000);

afterAll(async () => {
  await relay?.stop();
  await observer?.close().catch(() => undefined);
  await cluster?.stop();
  await pool?.end();
  await db?.drop();
});

describe('the outbox relay on a NATS cluster', () => {
  it('reconnects to another node when its own dies, and the R3 streams stay R3', async () => {
    const names = await ensureStreams(observer, natsPrefix, { replicas: 3 });
    relay = new OutboxRelay({ pool, log, metrics: new Metrics('signals'), natsUrl: cluster.url, natsPrefix, intervalMs: 200 });
    relay.start();
    await waitFor('relay connected and drained once', async () => relay!.status().nats === 'connected' && relay!.status().last_drain_at !== null);
    expect((await cluster.streamPlacement(names.signals.stream)).replicas).toBe(3);

    // The node the relay talks to dies; nats.js moves to another server of NATS_URL.
    const server = (relay as unknown as { nc: NatsConnection }).nc.getServer();
    const own = cluster.nodeAt(server)!;
    expect(own, `relay connected to ${server}`).not.toBeNull();
    await cluster.kill(own.index);
    const killedAt = Date.now();
    await waitFor('relay reconnected', async () => logLines.some((l) => l.msg === 'outbox relay reconnected to NATS' && l.time >= killedAt), 30_000);
    // A drain after the reconnect ran ensureStreams again first (the relay forgets the streams on every reconnect).
    await waitFor('a drain after the reconnect', async () => {
      const at = relay!.status().last_drain_at;
      return at !== null && Date.parse(at) > killedAt + 1;
    }, 30_000);

    // And it publishes: a release made now reaches the stream through the surviving nodes.
    const [product] = await createCatalogue(pool, { brands: 1, productsPerBrand: 1 });
    await approvedFormulaChanges(pool, [product!], 1, '2026-01-05');
    await releaseSignals(pool, { releasedBy: 'outbox-cluster-test', publicBaseUrl: 'https://evidence-record.test', clock: () => new Date('2031-08-01T09:00:00Z') });
    await waitFor('the event in the stream', async () => (await cluster.streamPlacement(names.signals.stream).catch(() => null))?.info.state.messages === 1, 30_000, 250);

    for (const stream of [names.signals.stream, names.alerts.stream]) expect((await cluster.streamPlacement(stream)).replicas, stream).toBe(3);
    expect(logLines.some((l) => l.msg.startsWith('stream keeps its replicas'))).toBe(true);
    await cluster.restart(own.index);
  });
});
