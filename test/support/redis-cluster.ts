import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './launcher';
import { PrivateServer } from './private-servers';
import { waitFor } from './wait';

/**
 * Multi-node Redis on loopback for tests, the local multi-node stack and the
 * node-kill resilience tests: a Redis Cluster (`startRedisCluster`) or a
 * primary with replicas watched by Sentinels (`startRedisSentinel`). Every
 * port (each node's, and a cluster node's bus port, set with `cluster-port`
 * so it never lands in the ephemeral range at port + 10000) comes from the
 * test port reservation; each node's files live in one temporary folder,
 * removed by `stop()`. Nodes keep no data on disk (no RDB, no AOF): a killed
 * node restarted comes back empty, as a replaced pod does, and rejoins.
 */

export interface RedisNodeProcess extends PrivateServer {
  /** The cluster bus port (cluster nodes only). */
  busPort?: number;
}

export interface ClusterNodeInfo {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The master's id, for a replica. */
  masterId: string | null;
  /** Slot ranges held (masters), inclusive. */
  slots: Array<[number, number]>;
  /** Flagged `fail` (or `fail?`) by the node asked. */
  failed: boolean;
}

export interface RedisClusterOptions {
  /** At least 3 (redis-cli --cluster create refuses fewer). */
  masters?: number;
  replicasPerMaster?: number;
  /** `cluster-node-timeout`: how long a master may be unreachable before its replica is promoted. */
  nodeTimeoutMs?: number;
  /** `requirepass` and `masterauth` of every node. */
  password?: string;
}

export interface RedisCluster {
  /** REDIS_URL for REDIS_MODE=cluster: every node, `redis://[:password@]127.0.0.1:p1,127.0.0.1:p2,…`. */
  url: string;
  /** In creation order (masters first, as redis-cli assigns them at creation). */
  nodes: RedisNodeProcess[];
  node(port: number): RedisNodeProcess;
  /** What a running node says of every node (CLUSTER NODES). */
  topology(): Promise<ClusterNodeInfo[]>;
  /** The port of the master holding the key's slot now. */
  masterOf(key: string): Promise<number>;
  /** SIGKILL by default: the node vanishes as a crashed one does. */
  kill(port: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped node again (empty; it rejoins with its cluster config file). */
  restart(port: number): Promise<void>;
  /** Until every running node says cluster_state:ok, every slot is on a running master and every running replica is in sync. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Every node killed, the folder removed. */
  stop(): Promise<void>;
}

const admin = (port: number, password?: string) => new Redis({ host: '127.0.0.1', port, password, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 1000, commandTimeout: 2000 });

async function ask<T>(port: number, password: string | undefined, fn: (r: Redis) => Promise<T>): Promise<T> {
  const r = admin(port, password);
  r.on('error', () => undefined);
  try {
    await r.connect();
    return await fn(r);
  } finally {
    r.disconnect();
  }
}

async function answers(port: number, password?: string): Promise<boolean> {
  try {
    return (await ask(port, password, (r) => r.ping())) === 'PONG';
  } catch {
    return false;
  }
}

function run(file: string, args: string[], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs }, (err, stdout, stderr) => (err ? reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout)));
  });
}

/** CLUSTER NODES lines → nodes. */
export function parseClusterNodes(text: string): ClusterNodeInfo[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.trim().split(' ');
      const port = Number(/:(\d+)@/.exec(address!)?.[1]);
      const f = flags!.split(',');
      return {
        id: id!,
        port,
        role: f.includes('master') ? 'master' : 'replica',
        masterId: master === '-' ? null : master!,
        slots: slots.filter((s) => !s.startsWith('[')).map((s) => {
          const [a, b] = s.split('-').map(Number);
          return [a!, b ?? a!] as [number, number];
        }),
        failed: f.includes('fail') || f.includes('fail?'),
      } satisfies ClusterNodeInfo;
    });
}

export async function startRedisCluster(opts: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masters = opts.masters ?? 3;
  const replicasPerMaster = opts.replicasPerMaster ?? 0;
  const nodeTimeoutMs = opts.nodeTimeoutMs ?? 5000;
  const password = opts.password;
  if (masters < 3) throw new Error('a Redis Cluster needs at least 3 masters');
  const dir = await mkdtemp(join(tmpdir(), 'er-redis-cluster-'));
  const nodes: RedisNodeProcess[] = [];
  const stop = async () => {
    for (const n of nodes) await n.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicasPerMaster); i++) {
      const port = await freePort();
      const busPort = await freePort();
      const args = [
        '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
        '--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', `nodes-${port}.conf`,
        '--cluster-node-timeout', String(nodeTimeoutMs),
        // A replica may always stand in for its master, however long it was cut off (tests kill masters at will).
        '--cluster-replica-validity-factor', '0',
        '--save', '', '--appendonly', 'no', '--loglevel', 'warning',
        ...(password ? ['--requirepass', password, '--masterauth', password] : []),
      ];
      const server = Object.assign(new PrivateServer('redis-server (cluster)', port, 'redis-server', args, () => answers(port, password)), { busPort });
      nodes.push(server);
      await server.start();
    }
    await run('redis-cli', [...(password ? ['-a', password, '--no-auth-warning'] : []), '--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', String(replicasPerMaster), '--cluster-yes']);
  } catch (err) {
    await stop();
    throw err;
  }

  const node = (port: number) => {
    const n = nodes.find((x) => x.port === port);
    if (!n) throw new Error(`no cluster node on :${port}`);
    return n;
  };
  const topology = async () => {
    for (const n of nodes.filter((x) => x.running)) {
      try {
        return parseClusterNodes(String(await ask(n.port, password, (r) => r.cluster('NODES'))));
      } catch {
        // ask the next one
      }
    }
    throw new Error('no cluster node answers');
  };
  const cluster: RedisCluster = {
    url: `redis://${password ? `:${encodeURIComponent(password)}@` : ''}${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    node,
    topology,
    async masterOf(key) {
      const live = nodes.find((x) => x.running)!;
      const slot = Number(await ask(live.port, password, (r) => r.cluster('KEYSLOT', key)));
      const holder = (await topology()).find((n) => n.role === 'master' && !n.failed && n.slots.some(([a, b]) => slot >= a && slot <= b));
      if (!holder) throw new Error(`no master holds slot ${slot}`);
      return holder.port;
    },
    kill: (port, signal = 'SIGKILL') => node(port).stop(signal),
    restart: (port) => node(port).start(),
    async waitHealthy(timeoutMs = 30_000) {
      await waitFor('the Redis Cluster healthy', async () => {
        const running = nodes.filter((x) => x.running);
        for (const n of running) {
          const info = String(await ask(n.port, password, (r) => r.cluster('INFO')).catch(() => ''));
          if (!info.includes('cluster_state:ok')) return false;
        }
        const top = await topology();
        const runningPorts = new Set(running.map((n) => n.port));
        let covered = 0;
        for (const m of top.filter((t) => t.role === 'master' && runningPorts.has(t.port) && !t.failed)) for (const [a, b] of m.slots) covered += b - a + 1;
        if (covered !== 16384) return false;
        for (const r of top.filter((t) => t.role === 'replica' && runningPorts.has(t.port))) {
          const repl = String(await ask(r.port, password, (c) => c.info('replication')).catch(() => ''));
          if (!repl.includes('master_link_status:up')) return false;
        }
        return true;
      }, timeoutMs, 100);
    },
    stop,
  };
  try {
    await cluster.waitHealthy();
  } catch (err) {
    await stop();
    throw err;
  }
  return cluster;
}

export interface RedisSentinelOptions {
  /** The primary's name the Sentinels watch (REDIS_SENTINEL_NAME). */
  name?: string;
  replicas?: number;
  sentinels?: number;
  /** `down-after-milliseconds`: how long the primary may be silent before the Sentinels fail it over. */
  downAfterMs?: number;
}

export interface RedisSentinelSet {
  /** REDIS_URL for REDIS_MODE=sentinel: the Sentinels. */
  url: string;
  name: string;
  /** The primary first, then its replicas. */
  dataNodes: PrivateServer[];
  sentinels: PrivateServer[];
  /** The port of the primary the Sentinels name now. */
  primary(): Promise<number>;
  kill(port: number, signal?: NodeJS.Signals): Promise<void>;
  /** Until the Sentinels name a running primary. */
  waitPrimary(timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

export async function startRedisSentinel(opts: RedisSentinelOptions = {}): Promise<RedisSentinelSet> {
  const name = opts.name ?? 'er-primary';
  const replicas = opts.replicas ?? 1;
  const sentinelCount = opts.sentinels ?? 1;
  const downAfterMs = opts.downAfterMs ?? 1000;
  const dir = await mkdtemp(join(tmpdir(), 'er-redis-sentinel-'));
  const dataNodes: PrivateServer[] = [];
  const sentinels: PrivateServer[] = [];
  const stop = async () => {
    for (const s of [...sentinels, ...dataNodes]) await s.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    let primaryPort = 0;
    for (let i = 0; i <= replicas; i++) {
      const port = await freePort();
      if (i === 0) primaryPort = port;
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--loglevel', 'warning', ...(i === 0 ? [] : ['--replicaof', '127.0.0.1', String(primaryPort)])];
      const server = new PrivateServer('redis-server (sentinel set)', port, 'redis-server', args, () => answers(port));
      dataNodes.push(server);
      await server.start();
    }
    for (let i = 0; i < sentinelCount; i++) {
      const port = await freePort();
      const conf = join(dir, `sentinel-${port}.conf`);
      const quorum = Math.floor(sentinelCount / 2) + 1;
      await writeFile(conf, [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, `sentinel monitor ${name} 127.0.0.1 ${primaryPort} ${quorum}`, `sentinel down-after-milliseconds ${name} ${downAfterMs}`, `sentinel failover-timeout ${name} ${Math.max(2000, downAfterMs * 3)}`, `sentinel parallel-syncs ${name} 1`, ''].join('\n'));
      const server = new PrivateServer('redis-sentinel', port, 'redis-server', [conf, '--sentinel'], () => answers(port));
      sentinels.push(server);
      await server.start();
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const primary = async () => {
    for (const s of sentinels.filter((x) => x.running)) {
      try {
        const reply = (await ask(s.port, undefined, (r) => r.call('SENTINEL', 'get-master-addr-by-name', name))) as string[] | null;
        if (reply) return Number(reply[1]);
      } catch {
        // the next Sentinel
      }
    }
    throw new Error('no Sentinel answers');
  };
  const set: RedisSentinelSet = {
    url: `redis://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}`,
    name,
    dataNodes,
    sentinels,
    primary,
    kill: async (port, signal = 'SIGKILL') => {
      const n = [...dataNodes, ...sentinels].find((x) => x.port === port);
      if (!n) throw new Error(`no node on :${port}`);
      await n.stop(signal);
    },
    async waitPrimary(timeoutMs = 30_000) {
      let port = 0;
      await waitFor(`Sentinels naming a running primary of ${name}`, async () => {
        port = await primary().catch(() => 0);
        const node = dataNodes.find((n) => n.port === port);
        if (!node?.running) return false;
        const role = String(await ask(port, undefined, (r) => r.info('replication')).catch(() => ''));
        return role.includes('role:master');
      }, timeoutMs, 100);
      return port;
    },
    stop,
  };
  try {
    // The Sentinels have found the replicas (a failover needs one to promote).
    await waitFor('Sentinels seeing the replicas', async () => {
      for (const s of sentinels) {
        const reps = (await ask(s.port, undefined, (r) => r.call('SENTINEL', 'replicas', name)).catch(() => [])) as unknown[];
        if (reps.length < replicas) return false;
      }
      return true;
    }, 30_000, 100);
  } catch (err) {
    await stop();
    throw err;
  }
  return set;
}
