import { startNatsCluster, type NatsCluster } from './nats-cluster';
import { startPostgresPrimaryWithStandby, type PostgresPair } from './postgres-replica';
import { startRedisCluster, type RedisCluster } from './redis-cluster';

/**
 * The multi-node engines for a whole test run (issue 24, decision 2360): a
 * Redis Cluster of six nodes (three masters, three replicas), a Postgres
 * primary with a streaming standby, a three-node NATS JetStream cluster, each
 * from its one launcher (redis-cluster.ts, postgres-replica.ts,
 * nats-cluster.ts) on reserved ports in temporary folders, with the TEST_*
 * variables that point test-support (infra.ts) and every stack of the run at
 * them. `npm run up -- --multi-node` runs the same topology as daemons
 * (scripts/engines.sh).
 */
export interface MultiNodeEngines {
  redis: RedisCluster;
  postgres: PostgresPair;
  nats: NatsCluster;
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/** The three clusters, started together (each takes seconds, mostly waiting). */
export async function startMultiNodeEngines(): Promise<MultiNodeEngines> {
  const started = await Promise.allSettled([
    startRedisCluster({ masters: 3, replicasPerMaster: 1 }),
    // A whole run's stacks (two files at a time, each up to nine services with their pools) need more than the default 100.
    startPostgresPrimaryWithStandby({ maxConnections: 400 }),
    startNatsCluster({ nodes: 3 }),
  ] as const);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    throw (failed as PromiseRejectedResult).reason;
  }
  const [redis, postgres, nats] = started.map((s) => (s as PromiseFulfilledResult<unknown>).value) as [RedisCluster, PostgresPair, NatsCluster];
  return {
    redis,
    postgres,
    nats,
    env: {
      TEST_ENGINES: 'multi-node',
      TEST_ADMIN_DATABASE_URL: postgres.primaryUrl(),
      TEST_ADMIN_DATABASE_READ_URL: postgres.standbyUrl(),
      TEST_REDIS_MODE: 'cluster',
      TEST_REDIS_URL: redis.url,
      TEST_NATS_URL: nats.url,
      TEST_NATS_STREAM_REPLICAS: '3',
    },
    stop: async () => {
      await Promise.all([redis.stop(), postgres.stop(), nats.stop()]);
    },
  };
}
