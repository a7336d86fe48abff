import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamNames } from '@evidence-record/contract';
import { connectNats, type NatsConnection } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { freePort, launchReady, type ServiceProcess } from '@evidence-record/test-support/launcher';
import { startNatsCluster, type NatsCluster } from '@evidence-record/test-support/nats-cluster';
import { testSigningEnv } from '@evidence-record/test-support/signing';

/**
 * The watch service, a real process, started against a three-node JetStream
 * cluster through its configuration: NATS_STREAM_REPLICAS=3 creates the
 * streams at R3, and a restart of the service with the default setting
 * (as a pod of the previous version would run) leaves them and its durable
 * consumer at R3 (decision 2340).
 */
let db: TestDatabase;
let cluster: NatsCluster;
let observer: NatsConnection;
let proc: ServiceProcess | null = null;
const { natsPrefix } = isolationPrefix('watchreplicas');
const names = streamNames(natsPrefix);

beforeAll(async () => {
  db = await emptyDatabase();
  cluster = await startNatsCluster({ nodes: 3 });
  observer = await connectNats(cluster.url, 'watch-replicas-observer');
}, 120_000);

afterAll(async () => {
  proc?.kill();
  await observer?.close().catch(() => undefined);
  await cluster?.stop();
  await db?.drop();
});

async function startWatch(extra: Record<string, string>): Promise<ServiceProcess> {
  return launchReady({
    service: 'watch',
    port: await freePort(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: db.url, NATS_URL: cluster.url, NATS_PREFIX: natsPrefix, ...testSigningEnv('watch'), ...extra },
  });
}

async function replicas(): Promise<{ signals: number; alerts: number; consumerPeers: number }> {
  const consumer = await (await observer.jetstreamManager()).consumers.info(names.signals.stream, 'watch-fanout');
  return {
    signals: (await cluster.streamPlacement(names.signals.stream)).replicas,
    alerts: (await cluster.streamPlacement(names.alerts.stream)).replicas,
    // The leader and two followers: replicated as its stream is.
    consumerPeers: 1 + (consumer.cluster?.replicas?.length ?? 0),
  };
}

describe('NATS_STREAM_REPLICAS through a service start and restart', () => {
  it('3 creates R3 streams and an R3 consumer; a restart with the default of 1 leaves them at R3', async () => {
    proc = await startWatch({ NATS_STREAM_REPLICAS: '3' });
    expect(await replicas()).toEqual({ signals: 3, alerts: 3, consumerPeers: 3 });
    await proc.stop();

    proc = await startWatch({});
    expect(await replicas()).toEqual({ signals: 3, alerts: 3, consumerPeers: 3 });
    // It says why its setting was not applied.
    expect(proc.lines.some((l) => l.includes('stream keeps its replicas'))).toBe(true);
    await proc.stop();
  });
});
