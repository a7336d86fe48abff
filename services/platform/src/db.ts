import pg from 'pg';
import { METHODOLOGY_VERSION, type RecordState } from '@evidence-record/contract';
import type { Counter } from 'prom-client';
import type { Metrics } from './metrics';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// Dates and numerics come back as strings we control, never as JS Dates in local time.
pg.types.setTypeParser(1082, (v) => v); // date -> 'YYYY-MM-DD'
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric -> number
pg.types.setTypeParser(20, (v) => Number(v)); // int8 -> number

export interface PoolOptions {
  max?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
  /** Counts failed round trips and broken connections as er_dependency_errors_total{dependency="postgres"}. */
  metrics?: Metrics;
  /**
   * Commits do not wait for the WAL flush. Only for a writer whose every write is made again if lost to a
   * database crash (the monitor: a lost check, lease or host slot is a check not yet made).
   */
  asyncCommit?: boolean;
  /**
   * Named (server-side prepared) statements, as the queries name them. Off for a pooler in transaction mode
   * that does not track them (PgBouncer before 1.21, or 1.21+ with max_prepared_statements = 0): there each
   * transaction may land on another server connection, and a name prepared on one is missing or already
   * taken on the next. Off, every statement is sent unnamed (decision 2320). Default on.
   */
  namedStatements?: boolean;
  /** How long a caller waits for a connection before the pool gives up (default 3000 ms). */
  connectTimeoutMs?: number;
  /** A streaming standby for the snapshot reads of this pool (`withSnapshot`), used only while it is caught up (decision 2320). */
  readReplica?: ReadReplicaOptions;
}

export interface ReadReplicaOptions {
  url: string;
  /** How long a snapshot read waits for the replica (a connection, then its caught-up check) before the primary answers. Default 500 ms. */
  timeoutMs?: number;
  /** After the replica failed (refused, lost, too slow), snapshot reads skip it this long. Default 5000 ms. */
  retryAfterMs?: number;
}

/** What each pool made by createPool sets in every transaction it opens (never as startup parameters, which PgBouncer refuses). */
interface TransactionSettings {
  statementTimeoutMs: number;
  asyncCommit: boolean;
}
const transactionSettings = new WeakMap<pg.Pool, TransactionSettings>();
const readReplicas = new WeakMap<pg.Pool, ReadReplica>();

/**
 * A pool whose connections give up instead of hanging: every query has a deadline.
 *
 * It sends no startup parameter but application_name (decision 2320): a pooler in transaction mode
 * (PgBouncer) refuses the others. The statement timeout, and the monitor's asynchronous commit, are
 * set with `SET LOCAL` in the message that opens each transaction; a statement outside a transaction
 * has the client-side deadline (and the role's own statement_timeout, where the operator sets one).
 */
export function createPool(connectionString: string, opts: PoolOptions = {}): pg.Pool {
  const statementTimeout = opts.statementTimeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 3_000,
    idleTimeoutMillis: 30_000,
    query_timeout: statementTimeout + 1_000,
    application_name: opts.applicationName ?? 'evidence-record',
    keepAlive: true,
  });
  transactionSettings.set(pool, { statementTimeoutMs: statementTimeout, asyncCommit: opts.asyncCommit ?? false });
  // A dropped idle connection must not crash the process; the pool replaces it.
  // (Counted by the client's own listener below, which sees idle and busy clients alike.)
  pool.on('error', () => undefined);
  // The pool listens for errors only on idle clients. A connection that dies
  // while a client is checked out (Postgres restarting mid-transaction) emits
  // 'error' on that client, which would crash the process with nobody
  // listening. The query in flight still fails with the error, and release()
  // drops the broken client from the pool.
  const metrics = opts.metrics;
  const failed = () => metrics?.dependencyErrors.inc({ dependency: 'postgres' });
  const named = opts.namedStatements ?? true;
  pool.on('connect', (client) => {
    client.on('error', failed);
    // Every query of the pool goes through its client's query() (pool.query too), so names are dropped here once.
    if (!named) client.query = withoutNames(client.query.bind(client)) as typeof client.query;
    if (metrics) client.query = countingFailures(client.query.bind(client), failed) as typeof client.query;
  });
  if (metrics) {
    // Every promise-returning round trip, wherever it is made (handlers, readiness, background loops).
    // The pool's own query() calls the client's with a callback, so one failure counts once.
    pool.query = countingFailures(pool.query.bind(pool), failed) as typeof pool.query;
    pool.connect = countingFailures(pool.connect.bind(pool), failed) as typeof pool.connect;
  }
  if (opts.asyncCommit) {
    // A statement outside a transaction would commit synchronously: it runs in one of its own, whose opening
    // sets the setting (3 round trips instead of 1, cheaper than a WAL flush). Its failures are counted by the
    // client's and connect's counters, as in any transaction.
    pool.query = inOwnTransaction(pool) as typeof pool.query;
  }
  if (opts.readReplica) {
    const replica = new ReadReplica(
      createPool(opts.readReplica.url, {
        max: opts.max ?? 10,
        statementTimeoutMs: statementTimeout,
        applicationName: opts.applicationName ?? 'evidence-record',
        namedStatements: named,
        connectTimeoutMs: opts.readReplica.timeoutMs ?? 500,
      }),
      opts.readReplica,
      metrics,
    );
    readReplicas.set(pool, replica);
    const endPrimary = pool.end.bind(pool);
    pool.end = (async () => {
      await Promise.all([endPrimary(), replica.end()]);
    }) as typeof pool.end;
  }
  return pool;
}

/** The same query without its name: sent as an unnamed statement (or by the simple protocol when it has no values). */
function withoutNames<F extends (...args: never[]) => unknown>(query: F): F {
  return ((config: unknown, ...rest: unknown[]) => {
    const unnamed =
      config !== null && typeof config === 'object' && typeof (config as { submit?: unknown }).submit !== 'function' && (config as { name?: unknown }).name
        ? { ...(config as object), name: undefined }
        : config;
    return (query as unknown as (...a: unknown[]) => unknown)(unnamed, ...rest);
  }) as unknown as F;
}

/** pool.query for an asynchronously committing pool: each statement in its own transaction, opened with the pool's settings. */
function inOwnTransaction(pool: pg.Pool) {
  return async (config: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> =>
    inTransaction(pool, 'BEGIN', (client) => client.query(config as pg.QueryConfig, values));
}

function countingFailures<F extends (...args: never[]) => unknown>(fn: F, failed: () => void): F {
  return ((...args: Parameters<F>) => {
    const result = fn(...args);
    if (result instanceof Promise) result.catch(failed);
    return result;
  }) as F;
}

/**
 * Values that never change within one record version of one Record, kept per
 * pool and version: a version names a state of one Record, and one process may
 * read several (a test worker, a tool). At most `versions` per pool; the
 * oldest are dropped together.
 */
export class RecordVersionCache<T> {
  private readonly byPool = new WeakMap<pg.Pool, Map<string, T>>();

  constructor(private readonly versions: number) {}

  get(pool: pg.Pool, version: string): T | undefined {
    return this.byPool.get(pool)?.get(version);
  }

  set(pool: pg.Pool, version: string, value: T): void {
    let cache = this.byPool.get(pool);
    if (!cache) this.byPool.set(pool, (cache = new Map()));
    if (cache.size >= this.versions) cache.clear();
    cache.set(version, value);
  }
}

const recordStates = new RecordVersionCache<RecordState>(64);

/**
 * The data state visible to this transaction. Reading it inside the same
 * repeatable-read snapshot as the answer's data is what makes
 * `record_version` honest.
 */
async function readRecordState(pool: pg.Pool, client: pg.ClientBase): Promise<RecordState> {
  const { rows } = await client.query<RecordHead>({ name: 'record-state-version', text: RECORD_HEAD_SQL });
  return recordStateOf(pool, client, rows[0]);
}

/** The newest record version visible to the transaction (its id orders versions by commit). */
const RECORD_HEAD_SQL = 'SELECT id, version, committed_at, methodology_version FROM record_versions ORDER BY id DESC LIMIT 1';
interface RecordHead {
  id: number;
  version: string;
  committed_at: Date;
  methodology_version: string;
}

/** `pool` is the one `client` came from (the primary's or the replica's): states are cached per pool. */
async function recordStateOf(pool: pg.Pool, client: pg.ClientBase, head: RecordHead | undefined): Promise<RecordState> {
  if (!head) {
    return { record_version: 'rv_00000000', record_as_of: '1970-01-01', record_timestamp: '1970-01-01T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };
  }
  const cached = recordStates.get(pool, head.version);
  if (cached) return cached;
  const newest = await client.query<{ newest: Date | null }>({
    name: 'record-state-newest',
    text: `SELECT greatest(
             (SELECT max(observed_at) FROM captures),
             (SELECT max(observed_at)::timestamptz FROM price_observations),
             (SELECT max(checked_at) FROM monitoring_checks)) AS newest`,
  });
  const newestObservation = newest.rows[0]?.newest ?? head.committed_at;
  const state: RecordState = {
    record_version: head.version,
    record_as_of: head.committed_at.toISOString().slice(0, 10),
    record_timestamp: newestObservation.toISOString(),
    methodology_version: head.methodology_version,
  };
  recordStates.set(pool, head.version, state);
  return state;
}

const SNAPSHOT_BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/**
 * Runs `fn` in one read-only repeatable-read transaction: every query sees
 * one committed state of the Record, and `record` names it.
 *
 * When the pool has a read replica (createPool's `readReplica`), the snapshot is taken there if the
 * replica has replayed at least the newest record version the primary holds as the read starts;
 * otherwise, or when the replica fails or is slow, the primary answers (decision 2320). `fn` must
 * only read: it may run on the replica, fail there, and run again on the primary.
 */
export async function withSnapshot<T>(pool: pg.Pool, fn: (client: pg.PoolClient, record: RecordState) => Promise<T>): Promise<T> {
  const replica = readReplicas.get(pool);
  if (replica) {
    if (!replica.available()) {
      replica.count('primary', 'replica_down');
    } else {
      const outcome = await replica.snapshot(await primaryHeadId(pool), fn);
      if (outcome.answered) return outcome.value;
    }
  }
  return inTransaction(pool, SNAPSHOT_BEGIN, async (client) => fn(client, await readRecordState(pool, client)));
}

/** The newest record version's id on the primary: no answer given so far can name a newer one. */
async function primaryHeadId(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ id: number }>({ name: 'record-version-head-id', text: 'SELECT id FROM record_versions ORDER BY id DESC LIMIT 1' });
  return rows[0]?.id ?? 0;
}

type SnapshotReason = 'replica' | 'replica_behind' | 'replica_down' | 'replica_failed' | 'recovery_conflict';
const snapshotReadCounters = new WeakMap<Metrics, Counter<'answered_by' | 'reason'>>();

function snapshotReadCounter(metrics: Metrics): Counter<'answered_by' | 'reason'> {
  let counter = snapshotReadCounters.get(metrics);
  if (!counter) {
    counter = metrics.counter('er_snapshot_reads_total', 'Snapshot reads by the server that answered (replica, primary) and why', ['answered_by', 'reason']);
    counter.inc({ answered_by: 'replica', reason: 'replica' }, 0);
    for (const reason of ['replica_behind', 'replica_down', 'replica_failed', 'recovery_conflict'] as const) counter.inc({ answered_by: 'primary', reason }, 0);
    snapshotReadCounters.set(metrics, counter);
  }
  return counter;
}

/**
 * A streaming standby that answers snapshot reads only while it has replayed the primary's newest
 * record version, and is skipped for `retryAfterMs` once it failed, so no reader waits on it twice.
 */
class ReadReplica {
  private downUntil = 0;
  private readonly timeoutMs: number;
  private readonly retryAfterMs: number;
  /** er_snapshot_reads_total, when the pool has metrics. */
  private readonly counter: Counter<'answered_by' | 'reason'> | null;

  constructor(
    private readonly pool: pg.Pool,
    opts: ReadReplicaOptions,
    metrics: Metrics | undefined,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 500;
    this.retryAfterMs = opts.retryAfterMs ?? 5_000;
    this.counter = metrics ? snapshotReadCounter(metrics) : null;
  }

  available(): boolean {
    return Date.now() >= this.downUntil;
  }

  count(answeredBy: 'replica' | 'primary', reason: SnapshotReason): void {
    this.counter?.inc({ answered_by: answeredBy, reason });
  }

  /**
   * `fn` in a snapshot of the replica that holds record version `headId` or a newer one, or
   * `answered: false` for the primary to answer: the replica is behind, failed, or too slow.
   */
  async snapshot<T>(headId: number, fn: (client: pg.PoolClient, record: RecordState) => Promise<T>): Promise<{ answered: true; value: T } | { answered: false }> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return this.failed('replica_failed');
    }
    try {
      // One round trip, under the replica's short deadline: open the snapshot and read its newest record version.
      const opened = (await client.query({
        text: `${openingOf(this.pool, SNAPSHOT_BEGIN)}; ${RECORD_HEAD_SQL}`,
        query_timeout: this.timeoutMs,
      } as pg.QueryConfig)) as unknown as pg.QueryResult[];
      const head = opened[opened.length - 1]?.rows[0] as RecordHead | undefined;
      if ((head?.id ?? 0) < headId) {
        await client.query('ROLLBACK');
        client.release();
        this.count('primary', 'replica_behind');
        return { answered: false };
      }
      const value = await fn(client, await recordStateOf(this.pool, client, head));
      await client.query('COMMIT');
      client.release();
      this.count('replica', 'replica');
      return { answered: true, value };
    } catch (err) {
      // Never ROLLBACK on a connection that may hang: dropping it ends the transaction on the server.
      client.release(err instanceof Error ? err : new Error(String(err)));
      if (isRecoveryConflict(err)) {
        this.count('primary', 'recovery_conflict');
        return { answered: false };
      }
      if (isConnectionFailure(err)) return this.failed('replica_failed');
      throw err;
    }
  }

  private failed(reason: 'replica_failed'): { answered: false } {
    this.downUntil = Date.now() + this.retryAfterMs;
    this.count('primary', reason);
    return { answered: false };
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** The standby cancelled a query whose rows replay was about to remove (or a buffer-pin deadlock): the primary has no such conflict. */
function isRecoveryConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01' || code === '57P04';
}

/**
 * The replica, not the query, failed: connection refused, lost or timed out (no SQLSTATE, or class 08),
 * the server shutting down or not yet accepting connections (57P01–57P03), out of connections (53300).
 */
function isConnectionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; syscall?: unknown; severity?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (e.severity === undefined) {
    // Not a server error: a socket error (ECONNREFUSED, ECONNRESET, ETIMEDOUT) or the driver's own.
    return typeof e.syscall === 'string' || /^E[A-Z]+$/.test(code) || /connection|timeout|terminated|not queryable/i.test(e.message);
  }
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * Runs `fn` in one read-write transaction that changes the Record. The
 * statement triggers create exactly one new record version for it; the
 * reason is recorded with that version.
 */
export async function withRecordChange<T>(
  pool: pg.Pool,
  reason: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; record_version: string | null }> {
  return inTransaction(pool, 'BEGIN', async (client) => {
    await client.query("SELECT set_config('record.change_reason', $1, true)", [reason]);
    const result = await fn(client);
    const { rows } = await client.query<{ version: string }>('SELECT version FROM record_versions WHERE txid = txid_current()');
    return { result, record_version: rows[0]?.version ?? null };
  });
}

/**
 * The Record's one writer lock (the record-schema migration's bump_record_version takes it on a transaction's
 * first Record write): record versions follow commit order because writers take it in turn.
 */
export const RECORD_WRITER_LOCK = 7300001;

/** Taken exclusively, to commit's end, by a shared writer while it assigns its record version (migration 1763750000000). */
export const RECORD_VERSION_LOCK = 7300002;

/** Takes the writer lock now, inside a Record change, for a writer that must read under it or time its wait. */
export async function takeRecordWriterLock(client: pg.ClientBase): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [RECORD_WRITER_LOCK]);
}

/**
 * A Record change whose writes may run beside other shared writers' (the monitor's recorder, decision 1010):
 * `fn` runs holding the writer lock in shared mode (so no exclusive writer — capture import, curation, a
 * release — runs meanwhile), and the record version is assigned just before COMMIT under the version lock,
 * held to the end, so version ids still follow commit order. Shared writers that touch the same rows must
 * order themselves (the recorder locks the products it places readings for). `lockWaitMs` says how long the
 * shared lock took (an exclusive writer was at work); `versionHeldMs` how long the version lock was held.
 */
export async function withSharedRecordChange<T>(
  pool: pg.Pool,
  reason: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; record_version: string | null; lockWaitMs: number; versionHeldMs: number }> {
  let lockWaitMs = 0;
  let versionFrom = 0;
  const out = await inTransaction(pool, 'BEGIN', async (client) => {
    await client.query("SELECT set_config('record.change_reason', $1, true), set_config('record.version_at_commit', 'on', true)", [reason]);
    const waitFrom = performance.now();
    await client.query('SELECT pg_advisory_xact_lock_shared($1)', [RECORD_WRITER_LOCK]);
    lockWaitMs = performance.now() - waitFrom;
    const result = await fn(client);
    versionFrom = performance.now();
    const { rows } = await client.query<{ version: string | null }>({
      name: 'record-version-at-commit',
      text: `WITH locked AS (SELECT pg_advisory_xact_lock($1)),
                  bumped AS (
                    INSERT INTO record_versions (txid, reason)
                    SELECT txid_current(), $2 FROM locked WHERE current_setting('record.version_owed', true) = 'on'
                    ON CONFLICT (txid) DO NOTHING RETURNING version)
             SELECT (SELECT version FROM bumped) AS version`,
      values: [RECORD_VERSION_LOCK, reason],
    });
    return { result, record_version: rows[0]?.version ?? null };
  });
  return { ...out, lockWaitMs, versionHeldMs: performance.now() - versionFrom };
}

/** Plain transaction for tables outside the Record (keys, watches, alerts). */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, 'BEGIN', fn);
}

/**
 * The message that opens a transaction on this pool: `begin`, then the pool's settings with SET LOCAL
 * (one round trip, simple protocol; they end with the transaction, so a pooler may hand the server
 * connection to anyone next).
 */
function openingOf(pool: pg.Pool, begin: string): string {
  const settings = transactionSettings.get(pool);
  if (!settings) return begin;
  return `${begin}; SET LOCAL statement_timeout = ${settings.statementTimeoutMs}${settings.asyncCommit ? '; SET LOCAL synchronous_commit = off' : ''}`;
}

/** Runs `fn` between `begin` and COMMIT on one pooled client; any failure rolls back. */
async function inTransaction<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(openingOf(pool, begin));
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The newest record version, for refusals that are not read in a snapshot. */
export async function currentRecordVersion(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ version: string }>({
    name: 'record-version-head',
    text: 'SELECT version FROM record_versions ORDER BY id DESC LIMIT 1',
  });
  return rows[0]?.version ?? 'rv_00000000';
}
