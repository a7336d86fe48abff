import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { addSource, policyOf, runOnce } from '@evidence-record/sources';
import { dsldLabel, startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { waitFor } from '@evidence-record/test-support/wait';
import { freePort, launchReady, type ServiceProcess } from '@evidence-record/test-support/launcher';
import { product, testMonitor, testSettings } from './support';

/**
 * A real monitor process is killed (SIGKILL) in the middle of reading a
 * source. Its lease expires, another replica retakes the check, and the
 * Record holds it once: one check, one capture, one state.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
let replica: ServiceProcess | null = null;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  src = await startSourceServer();
});

afterAll(async () => {
  replica?.kill();
  await src?.close();
  await pool?.end();
  await db?.drop();
});

describe('a replica killed mid-check', () => {
  it('has its lease retaken after expiry, with no duplicate check, capture or state', async () => {
    const settings = testSettings({ MONITOR_LEASE_MS: 5_000, DSLD_BASE_URL: `${src.origin}/dsld/v9` });
    const p = await product(pool, 'Killed Flow');
    const path = '/dsld/v9/label/6001';
    src.labels.set(6001, dsldLabel({ id: 6001, brand: 'Testbrand Labs', name: 'Killed Flow', caffeineMg: 90 }));
    // The first request hangs: the replica is mid-read when it dies.
    src.behaviours.set(path, { delayMs: 60_000, status: 200, body: '{}', times: 1 });
    const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(6001) }, policyOf(settings));
    replica = await launchReady({
      service: 'monitor',
      port: await freePort(),
      env: { DATABASE_URL: db.url, MONITOR_ALLOW_LOCALHOST: '1', MONITOR_LEASE_MS: '5000', MONITOR_READ_TIMEOUT_MS: '60000', MONITOR_POLL_MS: '100', MONITOR_HOST_INTERVAL_MS: '0', LOG_LEVEL: 'warn' },
      readyTimeoutMs: 90_000,
    });
    await waitFor('the replica to be mid-read', () => (src.hits.get(path) ?? 0) > 0, 60_000, 50);
    expect(src.hits.get(path)).toBe(1);
    const held = await pool.query('SELECT lease_owner IS NOT NULL AS leased FROM sources WHERE source_id = $1', [source_id]);
    expect(held.rows[0].leased).toBe(true);
    replica.child.kill('SIGKILL');
    await replica.exited;
    replica = null;

    // Another replica: nothing to take while the dead one's lease runs, then the check is retaken and recorded once.
    const { deps } = testMonitor(pool, settings, { owner: 'survivor', realClock: true });
    expect((await runOnce(deps, { deadlineMs: 500 })).checked).toBe(0);
    const taken = await waitFor('the expired lease to be retaken', async () => (await runOnce(deps, { deadlineMs: 1_000 })).checked, 60_000, 250);
    expect(taken).toBe(1);
    const counts = await pool.query(
      `SELECT (SELECT count(*)::int FROM monitoring_checks WHERE source_id = $1) AS checks,
              (SELECT count(*)::int FROM captures WHERE source_id = $1) AS captures,
              (SELECT count(*)::int FROM history_states WHERE product_id = $2) AS states,
              (SELECT lease_owner FROM sources WHERE source_id = $1) AS lease_owner`,
      [source_id, p],
    );
    expect(counts.rows[0]).toEqual({ checks: 1, captures: 1, states: 1, lease_owner: null });
    await deps.close();
  }, 180_000);
});
