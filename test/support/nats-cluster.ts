import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type StreamInfo } from 'nats';
import { natsConnectOptions } from '@evidence-record/platform';
import { freePort } from './launcher';
import { PrivateServer } from './private-servers';
import { waitFor } from './wait';

/**
 * A real NATS JetStream cluster on loopback, owned by the caller (tests, and
 * `npm run up -- --multi-node`): one nats-server per node, each with its own
 * config file (`cluster { name, listen, routes }`, `jetstream { store_dir }`),
 * its own store folder, which survives a restart of the node as a volume
 * would, and its monitoring port. Nodes can be killed and restarted, and the
 * node leading a stream found (to kill it).
 *
 *   const cluster = await startNatsCluster({ nodes: 3 });
 *   cluster.url                      // nats://127.0.0.1:a,nats://127.0.0.1:b,nats://127.0.0.1:c (a NATS_URL)
 *   await cluster.killStreamLeader('SIGNALS');
 *   await cluster.restart(i);
 *   await cluster.stop();
 *
 * Ports come from the test port reservation unless given (the multi-node
 * stack gives its own: clients 4231–4233, monitoring 8231–8233).
 */
export interface NatsClusterOptions {
  /** 3 by default; JetStream needs a majority of the nodes up to elect a leader. */
  nodes?: number;
  /** Client ports, one per node. */
  ports?: number[];
  /** Route ports (node to node), one per node; clients never connect to them. */
  clusterPorts?: number[];
  /** HTTP monitoring ports (/healthz, /varz, /jsz), one per node. */
  monitorPorts?: number[];
  /** Where each node's config and JetStream store go (`<dir>/<node>/`); a temporary folder, removed by stop(), by default. */
  dir?: string;
  /** The cluster's name; unique by default, so that two clusters on one machine never join. */
  name?: string;
  /** The nats-server binary (NATS_SERVER_BIN, else nats-server on the PATH). */
  bin?: string;
}

export interface NatsClusterNode {
  index: number;
  /** server_name: what JetStream names the node (a stream's leader, its replicas). */
  name: string;
  host: string;
  port: number;
  clusterPort: number;
  monitorPort: number;
  /** nats://127.0.0.1:<port> */
  url: string;
  configFile: string;
  storeDir: string;
  /** nats-server's own configuration text for this node. */
  config: string;
}

/** The nodes of a cluster and each one's nats-server configuration, without starting anything (`npm run up` writes and starts them itself). */
export function natsClusterNodes(o: { nodes: number; ports: number[]; clusterPorts: number[]; monitorPorts: number[]; dir: string; name: string }): NatsClusterNode[] {
  for (const [what, list] of [['ports', o.ports], ['clusterPorts', o.clusterPorts], ['monitorPorts', o.monitorPorts]] as const) {
    if (list.length !== o.nodes) throw new Error(`startNatsCluster: ${what} lists ${list.length} ports for ${o.nodes} nodes`);
  }
  const host = '127.0.0.1';
  return Array.from({ length: o.nodes }, (_, index) => {
    const name = `${o.name}-n${index + 1}`;
    const nodeDir = join(o.dir, `n${index + 1}`);
    const storeDir = join(nodeDir, 'jetstream');
    const routes = o.clusterPorts.filter((_, j) => j !== index).map((p) => `    "nats-route://${host}:${p}"`);
    const config = [
      `server_name: "${name}"`,
      `listen: "${host}:${o.ports[index]}"`,
      `http: "${host}:${o.monitorPorts[index]}"`,
      'jetstream {',
      `  store_dir: "${storeDir}"`,
      // Small limits: a test cluster never holds much, and three nodes share one machine.
      '  max_memory_store: 64MB',
      '  max_file_store: 1GB',
      '}',
      'cluster {',
      `  name: "${o.name}"`,
      `  listen: "${host}:${o.clusterPorts[index]}"`,
      '  routes: [',
      ...routes,
      '  ]',
      '}',
      '',
    ].join('\n');
    return { index, name, host, port: o.ports[index]!, clusterPort: o.clusterPorts[index]!, monitorPort: o.monitorPorts[index]!, url: `nats://${host}:${o.ports[index]}`, configFile: join(nodeDir, 'nats.conf'), storeDir, config };
  });
}

export interface StreamPlacement {
  /** The node leading the stream, or null while it has none (an election after its leader died). */
  leader: NatsClusterNode | null;
  /** num_replicas of the stream's configuration. */
  replicas: number;
  /** Nodes holding a copy besides the leader, as JetStream reports them. */
  followers: Array<{ node: NatsClusterNode | null; current: boolean; offline: boolean }>;
  info: StreamInfo;
}

export interface NatsCluster {
  name: string;
  nodes: NatsClusterNode[];
  /** Every node, comma-separated: a NATS_URL. */
  url: string;
  /** The nodes whose nats-server runs. */
  running(): NatsClusterNode[];
  /** The node listening on a client address (`host:port`, as nats.js's getServer() gives it). */
  nodeAt(hostPort: string): NatsClusterNode | null;
  /** Kills a node (SIGKILL by default: it vanishes as a crashed or unplugged one does). */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped node again on the same ports and store, and waits until it is healthy. */
  restart(index: number): Promise<void>;
  /** Where a stream is (asked of the running nodes with $JS.API.STREAM.INFO). */
  streamPlacement(stream: string): Promise<StreamPlacement>;
  /** The stream's leader, waiting for an election if there is none yet. */
  streamLeader(stream: string, timeoutMs?: number): Promise<NatsClusterNode>;
  /** Kills the node leading `stream`; returns it (restart it with restart(node.index)). */
  killStreamLeader(stream: string, signal?: NodeJS.Signals): Promise<NatsClusterNode>;
  /** Waits until every running node answers /healthz with 200 and the JetStream API answers (a meta leader is elected). */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** The last lines a node printed (for a failing test's message). */
  output(index: number): string[];
  /** Kills every node; removes the folder when it was a temporary one. */
  stop(): Promise<void>;
}

async function httpOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** Starts the nodes together (a JetStream cluster elects its meta leader only once a majority is up) and waits until every one is healthy. */
export async function startNatsCluster(opts: NatsClusterOptions = {}): Promise<NatsCluster> {
  const count = opts.nodes ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new Error('startNatsCluster: nodes is a positive integer');
  const ports = async (given: number[] | undefined) => given ?? (await Promise.all(Array.from({ length: count }, () => freePort())));
  const temporary = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'er-nats-cluster-'));
  const name = opts.name ?? `er-test-${randomBytes(4).toString('hex')}`;
  const nodes = natsClusterNodes({ nodes: count, ports: await ports(opts.ports), clusterPorts: await ports(opts.clusterPorts), monitorPorts: await ports(opts.monitorPorts), dir, name });
  const bin = opts.bin ?? process.env.NATS_SERVER_BIN ?? 'nats-server';
  const servers = nodes.map((node) => {
    mkdirSync(node.storeDir, { recursive: true });
    writeFileSync(node.configFile, node.config);
    // Started when its HTTP monitoring answers; health (JetStream) is waited for across the cluster.
    return new PrivateServer(`nats-server ${node.name}`, node.port, bin, ['-c', node.configFile], () => httpOk(`http://${node.host}:${node.monitorPort}/varz`));
  });

  const healthy = (node: NatsClusterNode) => httpOk(`http://${node.host}:${node.monitorPort}/healthz`);
  const running = () => nodes.filter((n) => servers[n.index]!.running);
  /** The JetStream API answers through the running nodes (a meta leader is elected). */
  const jetStreamAnswers = async () => {
    const nc = await connect({ ...natsConnectOptions(running().map((n) => n.url).join(',')), reconnect: false, timeout: 1_000, name: 'nats-cluster-probe' }).catch(() => null);
    if (!nc) return false;
    try {
      await (await nc.jetstreamManager({ timeout: 1_000 })).getAccountInfo();
      return true;
    } catch {
      return false;
    } finally {
      await nc.close().catch(() => undefined);
    }
  };
  const waitHealthy = async (timeoutMs = 60_000) => {
    await waitFor(`NATS cluster ${name}: every running node healthy`, async () => (await Promise.all(running().map(healthy))).every(Boolean) && (await jetStreamAnswers()), timeoutMs, 200);
  };
  const byName = (serverName: string | undefined) => nodes.find((n) => n.name === serverName) ?? null;

  const streamPlacement = async (stream: string): Promise<StreamPlacement> => {
    const up = running();
    if (up.length === 0) throw new Error(`NATS cluster ${name}: no node is running`);
    const nc = await connect({ ...natsConnectOptions(up.map((n) => n.url).join(',')), reconnect: false, timeout: 2_000, name: 'nats-cluster-probe' });
    try {
      const info = await (await nc.jetstreamManager({ timeout: 2_000 })).streams.info(stream);
      return {
        leader: byName(info.cluster?.leader),
        replicas: info.config.num_replicas,
        followers: (info.cluster?.replicas ?? []).map((r) => ({ node: byName(r.name), current: r.current, offline: r.offline === true })),
        info,
      };
    } finally {
      await nc.close().catch(() => undefined);
    }
  };

  const streamLeader = (stream: string, timeoutMs = 30_000) =>
    waitFor(
      `a leader for stream ${stream}`,
      async () => {
        const p = await streamPlacement(stream).catch(() => null);
        return p?.leader && servers[p.leader.index]!.running ? p.leader : null;
      },
      timeoutMs,
      200,
    );

  const cluster: NatsCluster = {
    name,
    nodes,
    url: nodes.map((n) => n.url).join(','),
    running,
    nodeAt: (hostPort) => nodes.find((n) => `${n.host}:${n.port}` === hostPort) ?? null,
    kill: async (index, signal = 'SIGKILL') => {
      await servers[index]!.stop(signal);
    },
    restart: async (index) => {
      await servers[index]!.start();
      await waitHealthy();
    },
    streamPlacement,
    streamLeader,
    killStreamLeader: async (stream, signal = 'SIGKILL') => {
      const leader = await streamLeader(stream);
      await servers[leader.index]!.stop(signal);
      return leader;
    },
    waitHealthy,
    output: (index) => [...servers[index]!.output],
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      if (temporary) rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    await Promise.all(servers.map((s) => s.start()));
    await waitHealthy();
  } catch (err) {
    const tails = nodes.map((n) => `${n.name}: ${servers[n.index]!.output.slice(-5).join(' | ')}`).join('\n');
    await cluster.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${tails}`);
  }
  return cluster;
}
