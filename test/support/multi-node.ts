import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './launcher';
import { startNatsCluster, type NatsCluster } from './nats-cluster';
import { startPostgresPrimaryWithStandby, type PostgresPair } from './postgres-replica';
import { PrivateServer } from './private-servers';
import { waitFor } from './wait';

const exec = promisify(execFile);

/**
 * Multi-node engines on loopback for one test run or one fault test (issue 24,
 * decision 2360): a Redis Cluster, a Postgres primary with a streaming
 * standby, a NATS JetStream cluster. Every port is reserved as the services'
 * are (freePort), every folder is a fresh one under the temporary directory,
 * and every process is a child this test process owns, stopped with it.
 * `npm run up -- --multi-node` runs the same topology as daemons
 * (scripts/engines.sh).
 */

// ---- Redis Cluster -----------------------------------------------------------------------------

export interface RedisClusterNode {
  port: number;
  server: PrivateServer;
}

export interface RedisCluster {
  nodes: RedisClusterNode[];
  /** REDIS_URL for REDIS_MODE=cluster: every node, `redis://h1:p1,h2:p2,…`. */
  url: string;
  /** The node serving `key`'s slot as master now. */
  masterOf: (key: string) => Promise<RedisClusterNode>;
  /** Whether every slot has a master again and every live node agrees the cluster is ok. */
  healthy: () => Promise<boolean>;
  /** SIGKILL: the node vanishes as a crashed one does. */
  killNode: (port: number) => Promise<void>;
  stop: () => Promise<void>;
}

async function redisCommand(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await exec('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout;
}

export async function startRedisCluster(opts: { masters?: number; replicasPerMaster?: number; nodeTimeoutMs?: number } = {}): Promise<RedisCluster> {
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 1;
  const dir = await mkdtemp(join(tmpdir(), 'er-redis-cluster-'));
  const nodes: RedisClusterNode[] = [];
  const stopAll = async () => {
    await Promise.all(nodes.map((n) => n.server.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const port = await freePort();
      // Its cluster bus on a port reserved as well (Redis would take port + 10000, which nobody reserved).
      const bus = await freePort();
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      const server = new PrivateServer(
        `redis-cluster-node ${port}`,
        port,
        'redis-server',
        ['--port', String(port), '--cluster-port', String(bus), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf',
          '--cluster-node-timeout', String(opts.nodeTimeoutMs ?? 5000), '--dir', nodeDir, '--save', '', '--appendonly', 'no'],
        async () => (await redisCommand(port, 'ping').catch(() => '')).trim() === 'PONG',
      );
      nodes.push({ port, server });
    }
    await Promise.all(nodes.map((n) => n.server.start()));
    await exec('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', String(replicas), '--cluster-yes']);
  } catch (err) {
    await stopAll();
    throw err;
  }
  const live = () => nodes.filter((n) => n.server.running);
  const healthy = async () => {
    for (const n of live()) if (!/cluster_state:ok/.test(await redisCommand(n.port, 'cluster', 'info').catch(() => ''))) return false;
    return true;
  };
  const cluster: RedisCluster = {
    nodes,
    url: `redis://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    healthy,
    masterOf: async (key: string) => {
      const asker = live()[0]!;
      const slot = Number((await redisCommand(asker.port, 'cluster', 'keyslot', key)).trim());
      const probe = new Redis({ port: asker.port, host: '127.0.0.1' });
      try {
        const slots = (await probe.call('cluster', 'slots')) as Array<[number, number, [string, number, ...unknown[]], ...unknown[]]>;
        const range = slots.find(([from, to]) => slot >= from && slot <= to);
        if (!range) throw new Error(`no master holds slot ${slot}`);
        const node = nodes.find((n) => n.port === range[2][1]);
        if (!node) throw new Error(`slot ${slot} is on an unknown node :${range[2][1]}`);
        return node;
      } finally {
        probe.disconnect();
      }
    },
    killNode: async (port: number) => {
      const node = nodes.find((n) => n.port === port);
      if (!node) throw new Error(`no cluster node on :${port}`);
      await node.server.stop('SIGKILL');
    },
    stop: stopAll,
  };
  try {
    // Formed: every node agrees, and every replica has its link to its master up (so that a failover has a replica to promote).
    await waitFor('the Redis Cluster to agree its state is ok', healthy, 30_000, 200);
    await waitFor('every replica to be in sync with its master', async () => {
      const roles = await Promise.all(nodes.map((n) => redisCommand(n.port, 'info', 'replication')));
      return roles.filter((r) => /role:slave/.test(r) && /master_link_status:up/.test(r)).length === masters * replicas;
    }, 30_000, 200);
  } catch (err) {
    await stopAll();
    throw err;
  }
  return cluster;
}

// ---- Postgres primary and streaming standby: test/support/postgres-replica.ts (startPostgresPrimaryWithStandby) ----

// ---- NATS JetStream cluster: test/support/nats-cluster.ts (startNatsCluster) ---------------------------

// ---- all three ----------------------------------------------------------------------------------

export interface MultiNodeEngines {
  redis: RedisCluster;
  postgres: PostgresPair;
  nats: NatsCluster;
  /** The TEST_* variables that point test-support (infra.ts) and every stack at these engines. */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/** The three clusters (started together: each takes seconds, mostly waiting). */
export async function startMultiNodeEngines(opts: { redisNodeTimeoutMs?: number } = {}): Promise<MultiNodeEngines> {
  const started = await Promise.allSettled([startRedisCluster({ masters: 3, replicasPerMaster: 1, nodeTimeoutMs: opts.redisNodeTimeoutMs }), startPostgresPrimaryWithStandby({ maxConnections: 400 }), startNatsCluster({ nodes: 3 })] as const);
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

export { startNatsCluster, startPostgresPrimaryWithStandby, type NatsCluster, type PostgresPair };
