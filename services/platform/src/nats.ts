import type { ConnectionOptions, NatsConnection, JetStreamManager, RetentionPolicy, StreamInfo } from 'nats';
import { streamNames, type StreamNames } from '@evidence-record/contract';
import { ensureDurableConsumer, type DurableConsumerOptions } from './durable-consumer';
import type { Logger } from './logger';
import { natsClient } from './nats-client';

export type { NatsConnection };

/**
 * NATS_URL as the services read it: one server or a cluster's servers,
 * comma-separated (decision 2340):
 *
 *   nats://127.0.0.1:4222
 *   nats://n1:4222,nats://n2:4222,nats://n3:4222
 *   nats://user:pass@n1:4222,n2:4222,n3:4222      (an entry without a scheme takes the first entry's scheme and credentials)
 *   tls://token@n1:4222,tls://token@n2:4222
 *
 * nats.js takes neither a comma-separated string (handed one, it dials one
 * address) nor credentials inside a server URL (it silently drops them), so
 * every connection of the project goes through `natsConnectOptions`, which
 * gives nats.js the list of servers and the credentials as options.
 */
export interface NatsServerList {
  /** `host:port` of each server, in the order given (nats.js shuffles them per connection to spread clients). */
  servers: string[];
  /** tls://: the connection is refused unless it is encrypted. */
  tls: boolean;
  user?: string;
  pass?: string;
  token?: string;
}

export type NatsUrlErrorCode = 'nats_url_empty' | 'nats_url_scheme' | 'nats_url_address' | 'nats_url_credentials_differ' | 'nats_url_tls_mixed';

/** Why a NATS_URL was refused. The message names entries by position and never quotes them: an entry may carry a password. */
export interface NatsUrlError {
  code: NatsUrlErrorCode;
  message: string;
}

export type NatsUrlResult = { ok: true; value: NatsServerList } | { ok: false; error: NatsUrlError };

const DEFAULT_NATS_PORT = 4222;

interface Entry {
  scheme: 'nats' | 'tls' | null;
  credentials: string | null;
  host: string;
  port: number;
}

/** One server of the list, or why not: 'scheme' (not nats:// or tls://), 'address' (no host[:port]). */
function parseEntry(raw: string): Entry | 'scheme' | 'address' {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/)?(?:([^@/?#]*)@)?([^@/?#]+?)\/?$/.exec(raw);
  if (!m) return 'address';
  const scheme = m[1] === undefined ? null : m[1].toLowerCase();
  if (scheme !== null && scheme !== 'nats' && scheme !== 'tls') return 'scheme';
  // The URL parser checks the host (names, IPv4, bracketed IPv6) and the port; nothing else of it is used.
  let url: URL;
  try {
    url = new URL(`nats://${m[3]}`);
  } catch {
    return 'address';
  }
  if (!url.hostname) return 'address';
  const port = url.port === '' ? DEFAULT_NATS_PORT : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return 'address';
  return { scheme, credentials: m[2] ?? null, host: url.hostname, port };
}

function credentialsOf(userinfo: string): Pick<NatsServerList, 'user' | 'pass' | 'token'> {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { token: decodeURIComponent(userinfo) };
  return { user: decodeURIComponent(userinfo.slice(0, colon)), pass: decodeURIComponent(userinfo.slice(colon + 1)) };
}

/** NATS_URL read: the servers and the credentials, or why it is refused (an error value, never a throw). */
export function parseNatsUrl(text: string): NatsUrlResult {
  const fail = (code: NatsUrlErrorCode, message: string): NatsUrlResult => ({ ok: false, error: { code, message } });
  const raws = text.split(',').map((s) => s.trim());
  if (raws.length === 0 || raws.some((r) => r === '')) return fail('nats_url_empty', 'one or more nats:// URLs separated by commas, none of them empty');
  const entries: Entry[] = [];
  for (const [i, raw] of raws.entries()) {
    const e = parseEntry(raw);
    if (e === 'scheme') return fail('nats_url_scheme', `server ${i + 1}: must be a nats:// or tls:// URL`);
    if (e === 'address') return fail('nats_url_address', `server ${i + 1}: not a host[:port] address`);
    if (i === 0 && e.scheme === null) return fail('nats_url_scheme', 'must be a nats:// URL (tls:// for TLS); the servers after the first may be host:port');
    entries.push(e);
  }
  const first = entries[0]!;
  try {
    for (const [i, e] of entries.entries()) {
      if (e.scheme !== null && e.scheme !== first.scheme) return fail('nats_url_tls_mixed', `server ${i + 1}: every server is nats:// or every one tls://`);
      if (e.credentials !== null && e.credentials !== first.credentials) return fail('nats_url_credentials_differ', `server ${i + 1}: the servers of one NATS_URL share one user (or token); give it on the first server only`);
    }
    const creds = first.credentials ? credentialsOf(first.credentials) : {};
    const servers = entries.map((e) => (e.host.includes(':') ? `[${e.host.replace(/^\[|\]$/g, '')}]:${e.port}` : `${e.host}:${e.port}`));
    return { ok: true, value: { servers: [...new Set(servers)], tls: first.scheme === 'tls', ...creds } };
  } catch {
    // decodeURIComponent: a malformed %-escape in the credentials.
    return fail('nats_url_address', 'server 1: the user or password holds a malformed %-escape');
  }
}

/** The nats.js options that reach every server of NATS_URL, with its credentials. The URL was validated by the config schema. */
export function natsConnectOptions(url: string): Pick<ConnectionOptions, 'servers' | 'user' | 'pass' | 'token' | 'tls'> {
  const parsed = parseNatsUrl(url);
  if (!parsed.ok) throw new Error(`NATS_URL: ${parsed.error.message}`);
  const { servers, tls, user, pass, token } = parsed.value;
  return { servers, ...(user !== undefined ? { user, pass } : {}), ...(token !== undefined ? { token } : {}), ...(tls ? { tls: {} } : {}) };
}

/** NATS_URL as it may be printed: the servers without credentials. */
export function natsServersForDisplay(url: string): string {
  const parsed = parseNatsUrl(url);
  return parsed.ok ? parsed.value.servers.join(',') : '(invalid NATS_URL)';
}

export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return natsClient().connect({ ...natsConnectOptions(url), name, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true });
}

const DAY_NS = 24 * 60 * 60 * 1e9;

export interface EnsureStreamsOptions {
  /**
   * Replicas of a stream this call creates (NATS_STREAM_REPLICAS; 1 on a
   * single server). A stream that exists keeps its own: see ensureStreams.
   */
  replicas?: number;
  /** Told when an existing stream has other replicas than `replicas` (it is left as it is). */
  log?: Pick<Logger, 'warn'>;
}

/**
 * Creates the streams this project uses, or brings their retention settings
 * to this code's. Safe to call from every replica at every start-up and
 * every reconnect. Duplicate windows are long so that an outbox that
 * republishes after an outage never delivers an event twice.
 *
 * Replicas are set when a stream is created and never changed here
 * (decision 2340): a start or a reconnect with another setting (a pod of
 * the previous version, a CLI run without NATS_STREAM_REPLICAS) must not turn
 * an R3 stream into R1, which would make its one node a single point of
 * failure. Raising replicas is an operator's act (`nats stream edit`,
 * docs/kubernetes.md). Consumers are created without replicas of their own,
 * so they follow their stream's.
 */
export async function ensureStreams(nc: NatsConnection, prefix = '', opts: EnsureStreamsOptions = {}): Promise<StreamNames> {
  const names = streamNames(prefix);
  const jsm = await nc.jetstreamManager();
  const replicas = opts.replicas ?? 1;
  const retention = natsClient().RetentionPolicy;
  await upsert(jsm, { name: names.signals.stream, subjects: [names.signals.released], retention: retention.Limits, max_age: 30 * DAY_NS }, replicas, opts.log);
  await upsert(jsm, { name: names.alerts.stream, subjects: [names.alerts.requested], retention: retention.Workqueue, max_age: 14 * DAY_NS }, replicas, opts.log);
  return names;
}

/**
 * Whether a JetStream API call failed only because JetStream is not ready:
 * no answer in time, no responder, or "temporarily unavailable". A cluster
 * electing its meta leader, or creating a replicated stream on a loaded
 * machine, answers so for a few seconds; the call itself was fine.
 */
export function isJetStreamNotReady(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'TIMEOUT' || code === '503' || /temporarily unavailable|no responders/i.test(String(err));
}

/**
 * A long-running service's JetStream set-up at start-up (its streams and
 * durable consumer), tried again while JetStream is not ready, for up to
 * `waitMs` (60 s by default). A worker that exits because the cluster was
 * still electing its leaders only restarts into the same wait; any other
 * error is thrown at once. Both set-up calls are idempotent.
 */
export async function untilJetStreamAnswers<T>(setUp: () => Promise<T>, opts: { log: Pick<Logger, 'warn'>; waitMs?: number }): Promise<T> {
  const deadline = Date.now() + (opts.waitMs ?? 60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await setUp();
    } catch (err) {
      if (!isJetStreamNotReady(err) || Date.now() >= deadline) throw err;
      opts.log.warn({ err: String(err), attempt }, 'JetStream not ready at start-up; trying again');
      await new Promise((r) => setTimeout(r, Math.min(2_000, 250 * attempt)));
    }
  }
}

/** What a worker's durable consumer is, as `runDurableConsumer` takes it (beside its handler). */
export type WorkerConsumer = Pick<DurableConsumerOptions, 'nc' | 'stream' | 'durable' | 'filterSubject' | 'ackWaitMs'>;

/**
 * A worker's JetStream at start-up: the project's streams, then its durable
 * consumer on the released Signals (the watch fan-out) or on the requested
 * alerts (the email worker), the whole tried again while JetStream is not
 * ready (untilJetStreamAnswers).
 */
export async function setUpWorkerConsumer(opts: {
  nc: NatsConnection;
  natsPrefix: string;
  /** NATS_STREAM_REPLICAS: replicas of the streams if this start creates them (existing ones keep theirs; the consumer follows its stream). */
  streamReplicas?: number;
  consumes: 'signals' | 'alerts';
  durable: string;
  ackWaitMs: number;
  log: Pick<Logger, 'warn'>;
  waitMs?: number;
}): Promise<WorkerConsumer> {
  return untilJetStreamAnswers(async () => {
    const names = await ensureStreams(opts.nc, opts.natsPrefix, { replicas: opts.streamReplicas ?? 1, log: opts.log });
    const [stream, filterSubject] = opts.consumes === 'signals' ? [names.signals.stream, names.signals.released] : [names.alerts.stream, names.alerts.requested];
    const consumer: WorkerConsumer = { nc: opts.nc, stream, filterSubject, durable: opts.durable, ackWaitMs: opts.ackWaitMs };
    await ensureDurableConsumer(consumer);
    return consumer;
  }, opts);
}

interface ManagedConfig {
  name: string;
  subjects: string[];
  retention: RetentionPolicy;
  max_age: number;
}

/** The settings this code owns on a stream; everything else (replicas, placement, limits an operator set) is left alone. */
function managed(cfg: ManagedConfig) {
  const { StorageType, DiscardPolicy } = natsClient();
  return { subjects: cfg.subjects, retention: cfg.retention, max_age: cfg.max_age, storage: StorageType.File, discard: DiscardPolicy.Old, duplicate_window: DAY_NS };
}

function differs(info: StreamInfo, want: ReturnType<typeof managed>): boolean {
  const c = info.config;
  return (
    JSON.stringify([...(c.subjects ?? [])].sort()) !== JSON.stringify([...want.subjects].sort()) ||
    c.retention !== want.retention ||
    c.max_age !== want.max_age ||
    c.storage !== want.storage ||
    c.discard !== want.discard ||
    c.duplicate_window !== want.duplicate_window
  );
}

async function upsert(jsm: JetStreamManager, cfg: ManagedConfig, replicas: number, log: EnsureStreamsOptions['log']): Promise<void> {
  const want = managed(cfg);
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(cfg.name);
  } catch (err) {
    if (!String(err).includes('stream not found')) throw err;
    try {
      await jsm.streams.add({ name: cfg.name, ...want, num_replicas: replicas });
    } catch (addErr) {
      // Another replica created it between our two calls.
      if (!String(addErr).includes('already in use')) throw addErr;
    }
    return;
  }
  if (info.config.num_replicas !== replicas) {
    log?.warn({ stream: cfg.name, replicas: info.config.num_replicas, NATS_STREAM_REPLICAS: replicas }, 'stream keeps its replicas; NATS_STREAM_REPLICAS applies to streams created from now on (raise an existing one with: nats stream edit --replicas)');
  }
  // Updated only when this code's settings changed, and never its replicas: nats.js merges the
  // update into the stream's current configuration, whose num_replicas is sent back unchanged.
  if (differs(info, want)) await jsm.streams.update(cfg.name, { ...want, num_replicas: info.config.num_replicas });
}
