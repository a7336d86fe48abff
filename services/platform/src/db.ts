import pg from 'pg';
import { METHODOLOGY_VERSION, type RecordState } from '@evidence-record/contract';
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
}

/** A pool whose connections give up instead of hanging: every query has a deadline. */
export function createPool(connectionString: string, opts: PoolOptions = {}): pg.Pool {
  const statementTimeout = opts.statementTimeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 1_000,
    application_name: opts.applicationName ?? 'evidence-record',
    keepAlive: true,
    ...(opts.asyncCommit ? { options: '-c synchronous_commit=off' } : {}),
  });
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
  pool.on('connect', (client) => {
    client.on('error', failed);
    if (metrics) client.query = countingFailures(client.query.bind(client), failed) as typeof client.query;
  });
  if (metrics) {
    // Every promise-returning round trip, wherever it is made (handlers, readiness, background loops).
    // The pool's own query() calls the client's with a callback, so one failure counts once.
    pool.query = countingFailures(pool.query.bind(pool), failed) as typeof pool.query;
    pool.connect = countingFailures(pool.connect.bind(pool), failed) as typeof pool.connect;
  }
  return pool;
}

function countingFailures<F extends (...args: never[]) => unknown>(fn: F, failed: () => void): F {
  return ((...args: Parameters<F>) => {
    const result = fn(...args);
    if (result instanceof Promise) result.catch(failed);
    return result;
  }) as F;
}

const stateCache = new Map<string, RecordState>();

/**
 * The data state visible to this transaction. Reading it inside the same
 * repeatable-read snapshot as the answer's data is what makes
 * `record_version` honest.
 */
export async function readRecordState(client: pg.ClientBase): Promise<RecordState> {
  const { rows } = await client.query<{ version: string; committed_at: Date; methodology_version: string }>({
    name: 'record-state-version',
    text: 'SELECT version, committed_at, methodology_version FROM record_versions ORDER BY id DESC LIMIT 1',
  });
  const head = rows[0];
  if (!head) {
    return { record_version: 'rv_00000000', record_as_of: '1970-01-01', record_timestamp: '1970-01-01T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };
  }
  const cached = stateCache.get(head.version);
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
  if (stateCache.size > 64) stateCache.clear();
  stateCache.set(head.version, state);
  return state;
}

/**
 * Runs `fn` in one read-only repeatable-read transaction: every query sees
 * one committed state of the Record, and `record` names it.
 */
export async function withSnapshot<T>(pool: pg.Pool, fn: (client: pg.PoolClient, record: RecordState) => Promise<T>): Promise<T> {
  return inTransaction(pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', async (client) => fn(client, await readRecordState(client)));
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

/** Runs `fn` between `begin` and COMMIT on one pooled client; any failure rolls back. */
async function inTransaction<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
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
