import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  Metrics,
  createLogger,
  createPool,
  currentRecordVersion,
  databasePoolOptions,
  startService,
  withRecordChange,
  withSnapshot,
  withTransaction,
  type Pool,
  type RunningService,
} from '@evidence-record/platform';
import { runMigrations } from '@evidence-record/record-store/migrations';
import { createRecordApp, loadRecordConfig } from '@evidence-record/record';
import { configSchema as watchConfigSchema } from '@evidence-record/watch/config';
import { configSchema as gatewayConfigSchema } from '@evidence-record/gateway/config';
import { seedDemoRecord } from '@evidence-record/demo-record/seed';
import { productId } from '@evidence-record/demo-record/ids';
import { pgbouncerVersion, startPgBouncer, startPostgresPrimaryWithStandby, type PgBouncer, type PostgresPair } from '@evidence-record/test-support/postgres-replica';
import { waitFor } from '@evidence-record/test-support/wait';
import { recordFigures, round } from '../resilience/support/figures';
import { freePort } from '@evidence-record/test-support/launcher';
import { signedAsGateway, testSigningEnv } from '@evidence-record/test-support/signing';
import { request, scrape, spawnService, valueOf, type ServiceProcess } from './support';

/**
 * Snapshot reads on a streaming standby (decision 2320), against a real primary and hot standby
 * started by this file on loopback, the demo Record loaded on the primary and replicated:
 * the replica answers only once it has replayed the primary's newest record version; behind,
 * stopped or hung, the primary answers, at once, and record_version never goes backwards.
 * Then the same through PgBouncer in transaction mode.
 */
const DB = 'er_replica';
const TIMEOUT_MS = 300;
const RETRY_MS = 1_000;
const surge = productId('ironvale-surge');

let pair: PostgresPair;
let pool: Pool;
let writer: Pool;
let metrics: Metrics;
let running: RunningService;
let baseUrl: string;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  // Replay waits at most 200 ms for a standby query in its way (PostgreSQL's default is 30 s), so a recovery conflict comes quickly.
  pair = await startPostgresPrimaryWithStandby({ standbySettings: ['max_standby_streaming_delay=200ms'] });
  const admin = new pg.Client({ connectionString: pair.primaryUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  await runMigrations(pair.primaryUrl(DB));
  await seedDemoRecord(pair.primaryUrl(DB));
  await pair.waitForReplay();

  metrics = new Metrics('record');
  pool = createPool(pair.primaryUrl(DB), { max: 6, metrics, readReplica: { url: pair.standbyUrl(DB), timeoutMs: TIMEOUT_MS, retryAfterMs: RETRY_MS } });
  writer = createPool(pair.primaryUrl(DB), { max: 2 });
  const log = createLogger('read-replica-test', 'silent');
  running = await startService(createRecordApp({ pool, publicBaseUrl: 'https://er.test', log, metrics }), { port: 0, log, graceMs: 100, handleSignals: false });
  baseUrl = `http://127.0.0.1:${running.port}`;
}, 180_000);

afterAll(async () => {
  await recordFigures('read-replica', figures);
  await running?.close();
  await pool?.end();
  await writer?.end();
  await pair?.stop();
});

/** er_snapshot_reads_total by "answered_by:reason". */
async function reads(): Promise<Record<string, number>> {
  const metric = await metrics.registry.getSingleMetric('er_snapshot_reads_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [`${String(v.labels.answered_by)}:${String(v.labels.reason)}`, v.value]));
}

function delta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]).filter(([, v]) => v !== 0));
}

/** One client call: the answer's record_version and how long it took. */
async function call(path = '/api/v1/record/version'): Promise<{ version: string; ms: number }> {
  const from = performance.now();
  const res = await fetch(`${baseUrl}${path}`, { headers: { 'x-request-id': `req_${randomBytes(12).toString('hex')}` } });
  const body = (await res.json()) as { record_version?: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { version: body.record_version!, ms: performance.now() - from };
}

/** A Record change on the primary: one new record version. */
async function change(): Promise<string> {
  const { record_version } = await withRecordChange(writer, 'test: product touched', (c) => c.query('UPDATE products SET name = name WHERE product_id = $1', [surge]));
  return record_version!;
}

const idOf = (version: string) => Number(version.slice(3));

async function standbyHead(): Promise<string> {
  const c = new pg.Client({ connectionString: pair.standbyUrl(DB) });
  await c.connect();
  try {
    return (await c.query<{ version: string }>('SELECT version FROM record_versions ORDER BY id DESC LIMIT 1')).rows[0]!.version;
  } finally {
    await c.end();
  }
}

describe('snapshot reads on a read replica', () => {
  it('are answered by the replica once it has replayed the newest record version', async () => {
    await pair.waitForReplay();
    const head = await currentRecordVersion(writer);
    const before = await reads();
    for (let i = 0; i < 20; i++) expect((await call()).version).toBe(head);
    for (let i = 0; i < 5; i++) expect((await call(`/api/v1/products/${surge}`)).version).toBe(head);
    expect(delta(before, await reads())).toEqual({ 'replica:replica': 25 });
    figures.caught_up = { reads: 25, answered_by_replica: 25 };
  });

  it('right after a commit, every read names the new version (the primary answers while the standby has not replayed it)', async () => {
    const before = await reads();
    for (let i = 0; i < 30; i++) {
      const committed = await change();
      expect((await call()).version).toBe(committed);
    }
    const d = delta(before, await reads());
    expect((d['replica:replica'] ?? 0) + (d['primary:replica_behind'] ?? 0)).toBe(30);
    figures.right_after_commit = { reads: 30, standby_behind_primary_answered: d['primary:replica_behind'] ?? 0, replica_answered: d['replica:replica'] ?? 0 };
  });

  it('with replay paused while the Record changes, reads fall back to the primary and record_version never goes backwards', async () => {
    await pair.waitForReplay();
    const start = await call();
    await pair.pauseReplay();
    const before = await reads();
    const seen: string[] = [start.version];
    let writing = true;
    // A client reading without pause while the Record changes under it.
    const client = (async () => {
      while (writing) seen.push((await call()).version);
    })();
    const committed: string[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        committed.push(await change());
        // The next call after a commit names it, though the standby is still at the version before the pause.
        expect((await call()).version).toBe(committed[i]);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      writing = false;
      await client;
    }
    // The standby alone would have answered an older version: this is what the fallback prevents.
    expect(idOf(await standbyHead())).toBeLessThan(idOf(committed[0]!));
    for (let i = 1; i < seen.length; i++) expect(idOf(seen[i]!), `call ${i}: ${seen[i - 1]} then ${seen[i]}`).toBeGreaterThanOrEqual(idOf(seen[i - 1]!));
    expect(seen.at(-1)).toBe(committed.at(-1));
    const d = delta(before, await reads());
    expect(d['primary:replica_behind']).toBeGreaterThanOrEqual(5);
    // Reads before the first commit may still go to the standby (it had replayed everything up to then); none after.
    expect(d['replica:replica'] ?? 0).toBeLessThanOrEqual(seen.length - 1 - 5);
    figures.replay_paused = { changes: 5, client_calls: seen.length - 1, went_backwards: 0, primary_answered_behind: d['primary:replica_behind'], replica_answered: d['replica:replica'] ?? 0, standby_head: await standbyHead(), last_committed: committed.at(-1) };

    await pair.resumeReplay();
    await pair.waitForReplay();
    const resumed = await reads();
    expect((await call()).version).toBe(committed.at(-1));
    expect(delta(resumed, await reads())).toEqual({ 'replica:replica': 1 });
  });

  it('with the replica hung (every process stopped), reads are answered by the primary within the replica timeout', async () => {
    await pair.waitForReplay();
    const head = await currentRecordVersion(writer);
    await pair.freezeStandby();
    const before = await reads();
    const answers: Array<{ version: string; ms: number }> = [];
    try {
      for (let i = 0; i < 10; i++) answers.push(await call());
    } finally {
      await pair.thawStandby();
    }
    for (const a of answers) expect(a.version).toBe(head);
    // A read that tries the hung replica waits for its deadline; the others skip it until RETRY_MS has passed.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(TIMEOUT_MS + 700);
    const d = delta(before, await reads());
    figures.replica_hung = { reads: 10, first_read_ms: round(answers[0]!.ms), slowest_other_ms: round(Math.max(...answers.slice(1).map((a) => a.ms))), ...d };
    expect(d['primary:replica_failed']).toBeGreaterThanOrEqual(1);
    expect((d['primary:replica_failed'] ?? 0) + (d['primary:replica_down'] ?? 0)).toBe(10);
    expect(answers.filter((a) => a.ms >= TIMEOUT_MS).length).toBeLessThanOrEqual(d['primary:replica_failed']!);

    // Thawed and RETRY_MS later, the replica answers again.
    await waitFor('the replica to answer again', async () => {
      const b = await reads();
      await call();
      return (delta(b, await reads())['replica:replica'] ?? 0) === 1;
    }, 10_000, 200);
  });

  it('with the replica stopped, reads are answered by the primary at once, and by the replica again once it is back', async () => {
    await pair.waitForReplay();
    await pair.stopStandby('immediate');
    const before = await reads();
    const answers: Array<{ version: string; ms: number }> = [];
    const committed = await change();
    for (let i = 0; i < 10; i++) answers.push(await call());
    for (const a of answers) expect(a.version).toBe(committed);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(TIMEOUT_MS + 700);
    const d = delta(before, await reads());
    expect(d['primary:replica_failed']).toBeGreaterThanOrEqual(1);
    expect((d['primary:replica_failed'] ?? 0) + (d['primary:replica_down'] ?? 0)).toBe(10);
    figures.replica_stopped = { reads: 10, slowest_ms: round(Math.max(...answers.map((a) => a.ms))), ...d };

    const restarted = performance.now();
    await pair.startStandby();
    await pair.waitForReplay();
    await waitFor('the replica to answer again', async () => {
      const b = await reads();
      expect((await call()).version).toBe(committed);
      return (delta(b, await reads())['replica:replica'] ?? 0) === 1;
    }, 10_000, 200);
    (figures.replica_stopped as Record<string, unknown>).replica_answering_again_s = round((performance.now() - restarted) / 1000, 2);
  });

  it('a read the standby cancels for a recovery conflict is answered again by the primary', async () => {
    await withTransaction(writer, async (c) => {
      await c.query('CREATE TABLE IF NOT EXISTS conflict_probe (n int)');
      await c.query('TRUNCATE conflict_probe');
      await c.query('INSERT INTO conflict_probe SELECT generate_series(1, 1000)');
    });
    await pair.waitForReplay();
    const before = await reads();
    const answeredOn: string[] = [];
    let inStandbySnapshot!: () => void;
    const started = new Promise<void>((r) => (inStandbySnapshot = r));
    const read = withSnapshot(pool, async (c) => {
      const recovery = (await c.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0]!.r;
      answeredOn.push(recovery ? 'standby' : 'primary');
      const first = (await c.query<{ n: number }>('SELECT count(*)::int AS n FROM conflict_probe')).rows[0]!.n;
      if (recovery) {
        inStandbySnapshot();
        // Holds the standby's snapshot while the primary removes the rows it sees.
        await c.query('SELECT pg_sleep(5)');
      }
      return first;
    });
    await started;
    await writer.query('DELETE FROM conflict_probe');
    await writer.query('VACUUM conflict_probe');
    const from = performance.now();
    expect(await read).toBe(0);
    expect(answeredOn).toEqual(['standby', 'primary']);
    expect(performance.now() - from).toBeLessThan(4_000);
    expect(delta(before, await reads())).toEqual({ 'primary:recovery_conflict': 1 });
    await writer.query('DROP TABLE conflict_probe');
  });

  it('a read that is not a snapshot (the refusals’ record version) and every write stay on the primary', async () => {
    await pair.pauseReplay();
    try {
      const committed = await change();
      expect(await currentRecordVersion(pool)).toBe(committed);
      // A transaction on the pool is the primary's: it sees what it just wrote.
      const seenInTransaction = await withTransaction(pool, async (c) => {
        await c.query('UPDATE products SET name = name WHERE product_id = $1', [surge]);
        return (await c.query<{ version: string }>('SELECT version FROM record_versions WHERE txid = txid_current()')).rows[0]?.version;
      });
      expect(idOf(seenInTransaction!)).toBeGreaterThan(idOf(committed));
    } finally {
      await pair.resumeReplay();
    }
  });
});

describe('through PgBouncer in transaction mode', () => {
  let version: string | null;
  const bouncers: PgBouncer[] = [];
  const pools: Pool[] = [];
  beforeAll(async () => {
    version = await pgbouncerVersion();
  });
  afterAll(async () => {
    for (const p of pools) await p.end();
    for (const b of bouncers) await b.stop();
  });
  const bouncer = async (targetPort: number, poolSize: number) => {
    if (!version) throw new Error('pgbouncer is not installed: bash -c "source scripts/infra.sh && ensure_vitest_packages" (npm test does)');
    const b = await startPgBouncer({ targetPort, poolMode: 'transaction', poolSize });
    bouncers.push(b);
    return b;
  };
  const tracked = (p: Pool) => (pools.push(p), p);

  it('refuses a startup parameter; createPool sends none, and its timeout is set per transaction', async () => {
    const b = await bouncer(pair.primaryPort, 1);
    const old = new pg.Client({ connectionString: b.url(DB), statement_timeout: 1000 } as pg.ClientConfig);
    await expect(old.connect()).rejects.toThrow(/unsupported startup parameter/);

    const p = tracked(createPool(b.url(DB), { max: 2, statementTimeoutMs: 300, namedStatements: false }));
    await expect(withSnapshot(p, (c) => c.query('SELECT pg_sleep(2)'))).rejects.toMatchObject({ code: '57014' });
    // SET LOCAL ended with that transaction: the one server connection has no timeout left behind.
    expect((await p.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout).toBe('0');
    expect(await withSnapshot(p, async (c) => (await c.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout)).toBe('300ms');

    const asyncPool = tracked(createPool(b.url(DB), { max: 2, asyncCommit: true, namedStatements: false }));
    expect((await asyncPool.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('off');
    expect((await p.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('on');
  });

  it('named statements collide on one server connection unless tracked; with DATABASE_NAMED_STATEMENTS off they never do', async () => {
    const b = await bouncer(pair.primaryPort, 1);
    // Two clients of one server connection: the second prepares a name the first already prepared there.
    const named = [tracked(createPool(b.url(DB), { max: 1 })), tracked(createPool(b.url(DB), { max: 1 }))];
    await currentRecordVersion(named[0]!);
    if (Number(version!.split('.')[1]) < 21) {
      await expect(currentRecordVersion(named[1]!)).rejects.toThrow(/prepared statement "record-version-head" already exists/);
    }
    figures.pgbouncer = { version, pool_mode: 'transaction' };
    const unnamed = Array.from({ length: 6 }, () => tracked(createPool(b.url(DB), { max: 2, namedStatements: false })));
    const head = await currentRecordVersion(writer);
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => {
        const p = unnamed[i % unnamed.length]!;
        return i % 2 ? currentRecordVersion(p) : withSnapshot(p, async (_c, record) => record.record_version);
      }),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    for (const r of results) expect((r as PromiseFulfilledResult<string>).value).toBe(head);
  });

  it('reads go to the replica through a second PgBouncer in front of the standby', async () => {
    const toPrimary = await bouncer(pair.primaryPort, 2);
    const toStandby = await bouncer(pair.standbyPort, 2);
    const m = new Metrics('record');
    const p = tracked(createPool(toPrimary.url(DB), { max: 4, metrics: m, namedStatements: false, readReplica: { url: toStandby.url(DB), timeoutMs: TIMEOUT_MS } }));
    await pair.waitForReplay();
    const head = await currentRecordVersion(writer);
    for (let i = 0; i < 10; i++) expect(await withSnapshot(p, async (_c, record) => record.record_version)).toBe(head);
    const values = (await m.registry.getSingleMetric('er_snapshot_reads_total')!.get()).values;
    expect(values.find((v) => v.labels.answered_by === 'replica')?.value).toBe(10);
  });
});

describe('the settings', () => {
  it('DATABASE_READ_URL is optional (empty is unset) and only the snapshot services read it; DATABASE_NAMED_STATEMENTS is on or off', () => {
    const base = { ...testSigningEnv('record'), DATABASE_URL: 'postgres://er@db/evidence_record' };
    const plain = loadRecordConfig(base);
    expect(databasePoolOptions(plain)).toEqual({ namedStatements: true });
    expect(databasePoolOptions(loadRecordConfig({ ...base, DATABASE_READ_URL: '' }))).toEqual({ namedStatements: true });
    expect(
      databasePoolOptions(loadRecordConfig({ ...base, DATABASE_READ_URL: 'postgres://er:pw@replica/evidence_record', DATABASE_READ_TIMEOUT_MS: '250', DATABASE_NAMED_STATEMENTS: 'off' })),
    ).toEqual({ namedStatements: false, readReplica: { url: 'postgres://er:pw@replica/evidence_record', timeoutMs: 250, retryAfterMs: 5_000 } });
    expect(() => loadRecordConfig({ ...base, DATABASE_READ_URL: 'mysql://replica/x' })).toThrow(/DATABASE_READ_URL/);
    expect(() => loadRecordConfig({ ...base, DATABASE_NAMED_STATEMENTS: 'no' })).toThrow(/DATABASE_NAMED_STATEMENTS/);
    // The services that write, or read what they wrote, have no replica setting.
    expect(Object.keys(watchConfigSchema.shape)).toContain('DATABASE_NAMED_STATEMENTS');
    expect(Object.keys(watchConfigSchema.shape)).not.toContain('DATABASE_READ_URL');
    expect(Object.keys(gatewayConfigSchema.shape)).not.toContain('DATABASE_READ_URL');
  });
});

describe('the entrypoints', () => {
  const processes: ServiceProcess[] = [];
  afterAll(() => {
    for (const p of processes) p.kill();
  });

  it('record, signals and ledger read DATABASE_READ_URL and answer from the replica (named statements off)', async () => {
    await pair.waitForReplay();
    const head = await currentRecordVersion(writer);
    const env = { DATABASE_URL: pair.primaryUrl(DB), DATABASE_READ_URL: pair.standbyUrl(DB), DATABASE_NAMED_STATEMENTS: 'off', LOG_LEVEL: 'warn' };
    const targets = [
      { name: 'record', path: '/api/v1/record/version', env: {} },
      { name: 'signals', path: '/api/v1/signals', env: { CURSOR_SECRET: 'c'.repeat(40), NATS_URL: `nats://127.0.0.1:${await freePort()}` } },
      { name: 'ledger', path: '/api/v1/ledger', env: {} },
    ] as const;
    const started = await Promise.all(targets.map(async (t) => ({ ...t, proc: await spawnService(t.name, await freePort(), { ...env, ...t.env }) })));
    processes.push(...started.map((s) => s.proc));
    for (const { name, path, proc } of started) {
      const answer = await request(`http://127.0.0.1:${proc.port}${path}`, { headers: signedAsGateway(name, 'GET', path, { headers: { 'x-request-id': `req_${randomBytes(12).toString('hex')}` } }) });
      expect(answer.status, `${name}: ${answer.text}`).toBe(200);
      expect((JSON.parse(answer.text) as { record_version: string }).record_version).toBe(head);
      const { samples } = await scrape(proc.port);
      expect(valueOf(samples, 'er_snapshot_reads_total', { answered_by: 'replica', reason: 'replica' }), name).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'er_snapshot_reads_total', { answered_by: 'primary', reason: 'replica_failed' }), name).toBe(0);
    }
  }, 90_000);
});
