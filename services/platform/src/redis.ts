import { EventEmitter } from 'node:events';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { z } from 'zod';
import { loadConfig } from './config';
import { onFirstUse } from './on-first-use';

/**
 * The one way every program reaches Redis (decision 2300): the gateway, the
 * operator CLI, the benchmark and the tests make their connections here from
 * the same three settings, so a Redis Cluster or a Sentinel-watched primary
 * is one change of configuration, never one of code.
 *
 * - `REDIS_MODE=standalone` (the default): `REDIS_URL` names one server,
 *   handed to ioredis exactly as before.
 * - `REDIS_MODE=cluster`: `REDIS_URL` lists some nodes of a Redis Cluster
 *   (`redis://[user:password@]h1:p1,h2:p2,…`); the client learns the rest
 *   from them, follows `MOVED`/`ASK`, and reads and writes on masters only
 *   (a replica's count may lag its master's).
 * - `REDIS_MODE=sentinel`: `REDIS_URL` lists the Sentinels and
 *   `REDIS_SENTINEL_NAME` the primary they watch; the client asks them where
 *   the primary is, again after every failover.
 *
 * Credentials (`user:password@`) and TLS (`rediss://`) are written as for one
 * server and apply to every data node. Sentinels take no credentials unless
 * `REDIS_SENTINEL_PASSWORD` is set.
 */

/** ioredis, loaded at the first connection: a program that reaches no Redis (most operator CLI verbs) never loads it. */
export const ioredis = onFirstUse<typeof import('ioredis')>(import.meta.url, 'ioredis');

export const redisModes = ['standalone', 'cluster', 'sentinel'] as const;
export type RedisMode = (typeof redisModes)[number];

export interface RedisNode {
  host: string;
  port: number;
}

/** What a `REDIS_URL` says: how to authenticate, whether TLS, which database, and the nodes listed. */
export interface RedisAddress {
  tls: boolean;
  username?: string;
  password?: string;
  db: number;
  nodes: RedisNode[];
  /** ioredis options in the query string (`?family=6`): read by ioredis for one server, refused for several. */
  query: string;
}

export class RedisUrlRefused extends Error {
  override name = 'RedisUrlRefused';
}

/**
 * Reads `redis[s]://[user[:password]@]host[:port][,host[:port]…][/db]`.
 * Messages name what is wrong, never the value (it may hold a password).
 * Host names are kept as written (IPv6 in brackets: `[::1]:6379`).
 */
export function parseRedisUrl(url: string): RedisAddress {
  const m = /^(rediss?):\/\/(?:([^@/?#]*)@)?([^/?#@]+)(?:\/(\d*))?(?:\?([^#]*))?$/.exec(url);
  if (!m) throw new RedisUrlRefused('must be redis[s]://[user:password@]host[:port][,host[:port]…][/db]');
  const [, scheme, userinfo, hostList, db, query] = m;
  const nodes = hostList!.split(',').map((part) => {
    const node = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?$/.exec(part.trim());
    if (!node) throw new RedisUrlRefused('each node is host[:port], comma-separated');
    const port = node[2] === undefined ? 6379 : Number(node[2]);
    if (port < 1 || port > 65535) throw new RedisUrlRefused('a port is 1 to 65535');
    return { host: node[1]!.replace(/^\[|\]$/g, ''), port };
  });
  const out: RedisAddress = { tls: scheme === 'rediss', db: db ? Number(db) : 0, nodes, query: query ?? '' };
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    const user = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
    const password = colon < 0 ? '' : decodeURIComponent(userinfo.slice(colon + 1));
    // `redis://:secret@host` is a password alone (the form the chart writes); `redis://secret@host` is what ioredis reads the same way.
    if (colon < 0) {
      if (user) out.password = user;
    } else {
      if (user) out.username = user;
      if (password) out.password = password;
    }
  }
  return out;
}

/** The variables, for each program's config schema (each with this validation). */
export const redisEnv = {
  /**
   * One server, or the cluster's nodes, or the Sentinels: `redis[s]://[user:password@]h1:p1[,h2:p2…][/db]`.
   * One server's URL goes to ioredis as it is (as before modes existed); several nodes are read here (checkRedisSettings).
   */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL'),
  /** `standalone` (one server), `cluster` (Redis Cluster) or `sentinel` (a primary watched by Sentinels). */
  REDIS_MODE: z.enum(redisModes).default('standalone'),
  /** The name the Sentinels know the primary by (`sentinel monitor <name> …`); required with REDIS_MODE=sentinel. */
  REDIS_SENTINEL_NAME: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only').optional(),
  /** The Sentinels' own password (`requirepass` of the Sentinels), when they have one. */
  REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
};

interface RedisEnvValues {
  REDIS_URL: string;
  REDIS_MODE: RedisMode;
  REDIS_SENTINEL_NAME?: string | undefined;
}

/**
 * The rules between the variables, for a config schema's `superRefine`: one
 * node in standalone mode, database 0 on a cluster, a primary's name with
 * Sentinels.
 */
export function checkRedisSettings(e: RedisEnvValues, ctx: z.RefinementCtx): void {
  let address: RedisAddress | null = null;
  try {
    address = parseRedisUrl(e.REDIS_URL);
  } catch (err) {
    // One server's URL is ioredis's to read, as it always was; several nodes must be in the form above.
    if (e.REDIS_MODE !== 'standalone') ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: err instanceof RedisUrlRefused ? err.message : 'must be a redis:// URL' });
  }
  if (address && e.REDIS_MODE === 'standalone' && address.nodes.length > 1) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'lists several nodes: set REDIS_MODE=cluster (Redis Cluster) or REDIS_MODE=sentinel (Sentinels)' });
  }
  if (address && e.REDIS_MODE !== 'standalone' && address.query) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: `takes no query string with REDIS_MODE=${e.REDIS_MODE}` });
  }
  if (address && e.REDIS_MODE === 'cluster' && address.db !== 0) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'a Redis Cluster has database 0 only' });
  }
  if (e.REDIS_MODE === 'sentinel' && !e.REDIS_SENTINEL_NAME) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_SENTINEL_NAME'], message: 'required with REDIS_MODE=sentinel: the name the Sentinels know the primary by' });
  }
}

/** How a program reaches Redis. */
export interface RedisSettings {
  mode: RedisMode;
  url: string;
  sentinelName?: string | undefined;
  sentinelPassword?: string | undefined;
}

export const RedisSettingsSchema = z.object(redisEnv).superRefine(checkRedisSettings);

/** The settings from an environment (throws ConfigError naming each bad variable, never its value). */
export function redisSettingsFrom(env: NodeJS.ProcessEnv): RedisSettings {
  const e = loadConfig(RedisSettingsSchema, env);
  return { mode: e.REDIS_MODE, url: e.REDIS_URL, sentinelName: e.REDIS_SENTINEL_NAME, sentinelPassword: e.REDIS_SENTINEL_PASSWORD };
}

/** A connection for commands: one server's, or a cluster's (both speak every command the project sends). */
export type RedisClient = Redis | Cluster;

/** Listens to a connection's errors: a cluster reports each node's apart from its own ('node error'). */
export function onRedisErrors(client: RedisClient, listener: (err: Error) => void): void {
  if (client instanceof ioredis().Cluster) {
    client.on('error', listener);
    client.on('node error', listener);
  } else {
    client.on('error', listener);
  }
}

/** What a caller chooses about a connection; the factory maps it onto the mode's client. */
export interface RedisClientOptions {
  /** CLIENT SETNAME, so `CLIENT LIST` says which program holds each connection. */
  connectionName?: string;
  /** Connect on `connect()` (true) or at once (false, ioredis's default). */
  lazyConnect?: boolean;
  /** Queue commands while disconnected (ioredis's default) or fail them at once (false). */
  enableOfflineQueue?: boolean;
  maxRetriesPerRequest?: number | null;
  /** Milliseconds one command may take before it fails. */
  commandTimeout?: number;
  connectTimeout?: number;
  /** Delay before reconnecting after the `times`-th failure; null: stop. On a cluster: when every node is lost. */
  retryStrategy?: (times: number) => number | null;
  enableAutoPipelining?: boolean;
  autoResubscribe?: boolean;
  /**
   * On a cluster, how long a command waits before it is tried again on another
   * node when its node is gone or the cluster is down (the failover window),
   * and how many tries it gets in all, redirections included. Defaults:
   * clusterDefaults below.
   */
  cluster?: { retryDelayMs?: number; maxRedirections?: number; slotsRefreshIntervalMs?: number };
}

/**
 * Cluster defaults (decision 2300). A command whose master is gone is tried
 * again every 100 ms while the cluster reports the loss, at most 8 tries (a
 * request refused within about a second, never held for the 15 s a cluster
 * may take to promote a replica); the slot map is re-read every 2 s besides
 * on every MOVED, so a promotion is seen at once.
 */
export const clusterDefaults = { retryDelayMs: 100, maxRedirections: 8, slotsRefreshIntervalMs: 2000 } as const;

function nodeOptions(address: RedisAddress, o: RedisClientOptions): RedisOptions {
  return {
    ...(address.username ? { username: address.username } : {}),
    ...(address.password ? { password: address.password } : {}),
    ...(address.tls ? { tls: {} } : {}),
    ...(o.connectionName ? { connectionName: o.connectionName } : {}),
    ...(o.commandTimeout !== undefined ? { commandTimeout: o.commandTimeout } : {}),
    ...(o.connectTimeout !== undefined ? { connectTimeout: o.connectTimeout } : {}),
    ...(o.maxRetriesPerRequest !== undefined ? { maxRetriesPerRequest: o.maxRetriesPerRequest } : {}),
    ...(o.autoResubscribe !== undefined ? { autoResubscribe: o.autoResubscribe } : {}),
  };
}

function plainOptions(o: RedisClientOptions): RedisOptions {
  const { cluster: _cluster, ...rest } = o;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as RedisOptions;
}

/**
 * A connection for commands, in the mode the settings say. Standalone: the
 * URL straight to ioredis, as before this factory existed. Cluster: an
 * ioredis Cluster over the listed nodes, masters only. Sentinel: an ioredis
 * client that asks the Sentinels for the primary (again after every
 * disconnection, and when a demoted primary answers READONLY).
 */
export function createRedis(settings: RedisSettings, options: RedisClientOptions = {}): RedisClient {
  if (settings.mode === 'standalone') return new (ioredis().Redis)(settings.url, plainOptions(options));
  const address = parseRedisUrl(settings.url);
  if (settings.mode === 'cluster') return new (ioredis().Cluster)(address.nodes, clusterOptions(address, options));
  return new (ioredis().Redis)(sentinelOptions(settings, address, options));
}

function clusterOptions(address: RedisAddress, o: RedisClientOptions): ClusterOptions {
  const c = { ...clusterDefaults, ...o.cluster };
  const retry = o.retryStrategy;
  return {
    redisOptions: nodeOptions(address, o),
    scaleReads: 'master',
    ...(o.lazyConnect !== undefined ? { lazyConnect: o.lazyConnect } : {}),
    ...(o.enableOfflineQueue !== undefined ? { enableOfflineQueue: o.enableOfflineQueue } : {}),
    ...(o.enableAutoPipelining !== undefined ? { enableAutoPipelining: o.enableAutoPipelining } : {}),
    ...(retry !== undefined ? { clusterRetryStrategy: (times: number) => retry(times) } : {}),
    retryDelayOnFailover: c.retryDelayMs,
    retryDelayOnClusterDown: c.retryDelayMs,
    retryDelayOnTryAgain: c.retryDelayMs,
    maxRedirections: c.maxRedirections,
    slotsRefreshInterval: c.slotsRefreshIntervalMs,
    slotsRefreshTimeout: Math.min(1000, o.connectTimeout ?? 1000),
  };
}

function sentinelOptions(settings: RedisSettings, address: RedisAddress, o: RedisClientOptions): RedisOptions {
  return {
    ...plainOptions(o),
    ...nodeOptions(address, o),
    sentinels: address.nodes,
    name: settings.sentinelName!,
    db: address.db,
    role: 'master',
    // A primary demoted while this connection stayed open answers writes with READONLY: reconnect, and the
    // Sentinels name the new one (the command itself fails: the gateway refuses it, as any Redis failure).
    reconnectOnError: (err: Error) => (err.message.startsWith('READONLY') ? 1 : false),
    ...(settings.sentinelPassword ? { sentinelPassword: settings.sentinelPassword } : {}),
    ...(address.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    // The sentinels' replies are few and small; each is asked in turn until one answers.
    sentinelRetryStrategy: (times: number) => (o.retryStrategy ? o.retryStrategy(times) : Math.min(times * 100, 2000)),
  };
}

/**
 * What a classic pub/sub follower needs from its connection: subscribe,
 * messages, and to know when it lost and regained its subscription (messages
 * published meanwhile were missed).
 */
export interface RedisSubscriber {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'ready' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  off(event: 'message', listener: (channel: string, message: string) => void): unknown;
  off(event: 'ready' | 'close' | 'error', listener: (...args: unknown[]) => void): unknown;
  connect(): Promise<unknown>;
  disconnect(): void;
}

/**
 * Connects and resolves once the connection is ready. ioredis's own
 * `connect()` promise may never settle on a cluster: when its ready check
 * (CLUSTER INFO) meets a cluster still failing over, it starts again without
 * settling the first promise. So: ready (the 'ready' event) resolves; the
 * first attempt failing, the connection ending, or `timeoutMs` passing rejects.
 */
export function openRedis(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  const events: EventEmitter = client;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      events.off('ready', onReady);
      events.off('end', onEnd);
      if (err === undefined) resolve();
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onReady = () => settle();
    const onEnd = () => settle(new Error('the Redis connection ended before it was ready'));
    const timer = setTimeout(() => settle(new Error(`Redis not ready within ${timeoutMs} ms`)), timeoutMs);
    events.once('ready', onReady);
    events.once('end', onEnd);
    client.connect().then(
      () => settle(),
      (err: unknown) => settle(err),
    );
  });
}

/**
 * A connection for classic pub/sub (decision 2300), with the options given
 * (a cluster's `duplicate()` would drop them). Standalone and Sentinel: one
 * ioredis connection (with Sentinels it follows the primary). Cluster: a
 * classic PUBLISH reaches every node of a cluster, so the subscriber holds one
 * connection to any live node and moves to another when it loses it, saying
 * so with `close` and `ready` like a single connection; `nodes` says which
 * nodes there are now (the command connection's view), else the URL's.
 */
export function createRedisSubscriber(settings: RedisSettings, options: RedisClientOptions = {}, nodes?: () => RedisNode[]): RedisSubscriber {
  if (settings.mode !== 'cluster') return createRedis(settings, options) as Redis;
  const address = parseRedisUrl(settings.url);
  return new ClusterNodeSubscriber(address, options, nodes ?? (() => address.nodes));
}

/** The nodes a cluster connection knows now (masters and replicas), for createRedisSubscriber. */
export function clusterNodesOf(client: RedisClient, fallback: RedisNode[]): () => RedisNode[] {
  if (!(client instanceof ioredis().Cluster)) return () => fallback;
  return () => {
    const known = client.nodes('all').map((n) => ({ host: String(n.options.host), port: Number(n.options.port) }));
    const seen = new Set(known.map((n) => `${n.host}:${n.port}`));
    return [...known, ...fallback.filter((n) => !seen.has(`${n.host}:${n.port}`))];
  };
}

/**
 * One subscriber connection on some node of a cluster. On losing it: `close`,
 * then the next node (in turn, from the list `nodes` gives at that moment)
 * until one is ready: `ready`. The caller subscribes again on `ready`
 * (autoResubscribe is never used: the caller must know the gap happened).
 */
class ClusterNodeSubscriber extends EventEmitter implements RedisSubscriber {
  private current: Redis | null = null;
  private stopped = false;
  private attempt = 0;
  private next = Math.floor(Math.random() * 1024);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly address: RedisAddress,
    private readonly options: RedisClientOptions,
    private readonly nodes: () => RedisNode[],
  ) {
    super();
  }

  /** Resolves once a node is ready; rejects if none of the nodes known answers. */
  async connect(): Promise<void> {
    const candidates = this.nodes();
    let last: unknown = new Error('no Redis Cluster node to subscribe on');
    for (let i = 0; i < candidates.length; i++) {
      try {
        await this.open(candidates[(this.next + i) % candidates.length]!);
        this.next += i + 1;
        return;
      } catch (err) {
        last = err;
      }
    }
    throw last;
  }

  private open(node: RedisNode): Promise<void> {
    const conn = new (ioredis().Redis)({
      ...nodeOptions(this.address, this.options),
      host: node.host,
      port: node.port,
      lazyConnect: true,
      enableOfflineQueue: true,
      autoResubscribe: false,
      // Lost: move to another node rather than wait for this one.
      retryStrategy: () => null,
      connectTimeout: this.options.connectTimeout ?? 2000,
    });
    // An EventEmitter throws an 'error' nobody listens to: passed on only when someone does.
    conn.on('error', (err: Error) => {
      if (this.listenerCount('error') > 0) this.emit('error', err);
    });
    return conn.connect().then(
      () => {
        if (this.stopped) {
          conn.disconnect();
          return;
        }
        this.current = conn;
        this.attempt = 0;
        conn.on('message', (channel: string, message: string) => this.emit('message', channel, message));
        conn.once('end', () => this.lost(conn));
        this.emit('ready');
      },
      (err: unknown) => {
        conn.disconnect();
        throw err;
      },
    );
  }

  private lost(conn: Redis): void {
    if (this.current !== conn) return;
    this.current = null;
    this.emit('close');
    this.retry();
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    const delay = Math.min(50 * 2 ** this.attempt++, 1000);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      const candidates = this.nodes();
      const node = candidates[this.next++ % Math.max(1, candidates.length)];
      if (!node) return this.retry();
      this.open(node).catch(() => this.retry());
    }, delay);
  }

  async subscribe(channel: string): Promise<unknown> {
    if (!this.current) throw new Error('Redis subscriber: no node connected');
    return this.current.subscribe(channel);
  }

  async unsubscribe(channel: string): Promise<unknown> {
    if (!this.current) return 0;
    return this.current.unsubscribe(channel);
  }

  disconnect(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const conn = this.current;
    this.current = null;
    conn?.disconnect();
  }
}

/**
 * Publishes on a classic channel and says how many subscribers it reached.
 * One server or a Sentinel's primary: PUBLISH's own count. A cluster: PUBLISH
 * counts only the subscribers of the node it ran on (0, usually), while the
 * message reaches every node; so the subscribers of the channel on every node,
 * masters and replicas (CLUSTER NODES names them all), are counted with
 * PUBSUB NUMSUB, which is per node on a cluster. A node that does not answer
 * within a second counts none: its subscribers' connections are as good as
 * lost, and they resubscribe (and flush) elsewhere.
 */
export async function publishCounted(client: RedisClient, channel: string, message: string): Promise<number> {
  const reached = await client.publish(channel, message);
  if (!(client instanceof ioredis().Cluster)) return reached;
  const counts = await Promise.all((await clusterAddresses(client)).map((node) => subscribersOn(client, node, channel)));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * Every node of the cluster, masters and replicas, as CLUSTER NODES names them (the client's pool holds
 * masters only, scaleReads being master; CLUSTER SLOTS lists a replica only once its master's view of it
 * has settled). Nodes flagged failed are left out: their subscribers' connections are gone.
 */
async function clusterAddresses(client: Cluster): Promise<RedisNode[]> {
  const text = String(await client.cluster('NODES'));
  const seen = new Map<string, RedisNode>();
  for (const line of text.split('\n')) {
    const [, address, flags] = line.trim().split(' ');
    if (!address || !flags || /(^|,)(fail|noaddr|handshake)(,|$)/.test(flags)) continue;
    const m = /^(.*):(\d+)@/.exec(address);
    if (m && m[1]) seen.set(`${m[1]}:${m[2]}`, { host: m[1], port: Number(m[2]) });
  }
  return [...seen.values()];
}

async function subscribersOn(client: Cluster, node: RedisNode, channel: string): Promise<number> {
  const pooled = client.nodes('all').find((n) => n.options.host === node.host && Number(n.options.port) === node.port);
  const conn =
    pooled ??
    new (ioredis().Redis)({ ...client.options.redisOptions, host: node.host, port: node.port, lazyConnect: true, retryStrategy: () => null, enableOfflineQueue: true, connectTimeout: 1000, commandTimeout: 1000, maxRetriesPerRequest: 0 });
  if (!pooled) conn.on('error', () => undefined);
  try {
    const reply = (await Promise.race([
      conn.pubsub('NUMSUB', channel),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000).unref()),
    ])) as unknown[];
    return Number(reply[1] ?? 0);
  } catch {
    return 0;
  } finally {
    if (!pooled) conn.disconnect();
  }
}

/**
 * Runs one command per hash slot for keys that may live on different slots
 * (on a cluster a multi-key command whose keys hash to different slots fails
 * with CROSSSLOT). Keys are grouped by their hash tag (`{…}`), which is how
 * this project puts keys on one slot; keys without one go one by one.
 */
export function groupByHashTag(keys: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  let untagged = 0;
  for (const key of keys) {
    const open = key.indexOf('{');
    const close = open < 0 ? -1 : key.indexOf('}', open + 1);
    const tag = close > open + 1 ? key.slice(open + 1, close) : `\u0000${untagged++}`;
    const group = groups.get(tag);
    if (group) group.push(key);
    else groups.set(tag, [key]);
  }
  return [...groups.values()];
}
