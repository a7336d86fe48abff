import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, takeRecordWriterLock, withRecordChange, withSharedRecordChange, type Pool } from '@evidence-record/platform';
import { LeaseLost, addSource, leaseDue, policyOf, type Reading } from '@evidence-record/sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { waitFor } from '@evidence-record/test-support/wait';
import { localhostOnly, product, testMonitor, testSettings } from './support';

/**
 * The recorder's group commit (decision 1010) against a real Record: checks
 * that finish while a write is committing share the next transaction and
 * record version; a check whose lease was lost, or whose write fails, is
 * refused alone and the rest of its batch is recorded.
 */
let db: TestDatabase;
let pool: Pool;
const settings = testSettings({ MONITOR_ALLOW_HOSTS: ['.recorder.test'], MONITOR_ALLOW_LOCALHOST: false });
const unreadable: Reading = { outcome: 'unreadable', reason: 'server error (500)', status: 500, retryAfterMs: null };

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 8 });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

async function leased(name: string, n: number) {
  const p = await product(pool, name);
  for (let i = 0; i < n; i++) await addSource(pool, { product_id: p, kind: 'offer_page', url: `http://h${i}.${name.toLowerCase().replace(/\W/g, '')}.recorder.test/shop/${i}` }, policyOf(settings), localhostOnly);
  return { product_id: p, sources: await leaseDue(pool, { owner: 'recorder-test', limit: n, leaseMs: 60_000, productId: p }) };
}

const lockWaiter = async () => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0]!.n === 1;
const versions = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM record_versions')).rows[0]!.n;
const checksOf = async (productId: string) => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM monitoring_checks WHERE product_id = $1', [productId])).rows[0]!.n;

describe('the check recorder', () => {
  it('writes the checks that finish during a commit in one transaction and one record version', async () => {
    const { product_id, sources } = await leased('Batch Flow', 6);
    expect(sources).toHaveLength(6);
    const { deps } = testMonitor(pool, settings, { realClock: true });
    // Another writer holds the Record's writer lock: the first check's write waits for it, the other five queue behind.
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await takeRecordWriterLock(holder);
    const before = await versions();
    const recorded = sources.map((s) => deps.recorder.record(s, unreadable, 5));
    await waitFor('a write waiting for the writer lock', lockWaiter, 10_000);
    await holder.query('COMMIT');
    holder.release();
    const summaries = await Promise.all(recorded);
    expect(summaries.map((s) => s.outcome)).toEqual(Array(6).fill('unreadable'));
    expect(await checksOf(product_id)).toBe(6);
    // One version for the first check, one for the five that queued behind it.
    expect((await versions()) - before).toBe(2);
    const leases = await pool.query(`SELECT count(*)::int AS n FROM sources WHERE product_id = $1 AND lease_token IS NOT NULL`, [product_id]);
    expect(leases.rows[0].n).toBe(0);
    await deps.close();
  });

  it('refuses alone a check whose lease was lost or whose write fails, and records the rest of its batch', async () => {
    const { product_id, sources } = await leased('Fenced Flow', 4);
    const { deps } = testMonitor(pool, settings, { realClock: true });
    // Source 1's lease was retaken by another replica; source 2's check names a product that does not exist.
    await pool.query(`UPDATE sources SET lease_token = gen_random_uuid() WHERE source_id = $1`, [sources[1]!.source_id]);
    const broken = { ...sources[2]!, product_id: 'prd_000000000000' };
    const holder = await pool.connect();
    await holder.query('BEGIN');
    await takeRecordWriterLock(holder);
    const first = deps.recorder.record(sources[3]!, unreadable, 5);
    await waitFor('a write waiting for the writer lock', lockWaiter, 10_000);
    const outcomes = [sources[0]!, sources[1]!, broken].map((s) => deps.recorder.record(s, unreadable, 5).then(() => 'recorded', (e: unknown) => e));
    await holder.query('COMMIT');
    holder.release();
    await first;
    const [ok, lost, failed] = await Promise.all(outcomes);
    expect(ok).toBe('recorded');
    expect(lost).toBeInstanceOf(LeaseLost);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(LeaseLost);
    const per = await pool.query(`SELECT source_id FROM monitoring_checks WHERE product_id = $1 ORDER BY source_id`, [product_id]);
    expect(per.rows.map((r) => Number(r.source_id))).toEqual([sources[0]!.source_id, sources[3]!.source_id].sort((a, b) => a - b));
    expect(await checksOf('prd_000000000000')).toBe(0);
    await deps.close();
  });

  it('lets shared writers commit side by side, each with its own version in commit order, while an exclusive writer waits for them', async () => {
    const brand = (c: { query: (q: string, v: unknown[]) => Promise<unknown> }, id: string) => c.query(`INSERT INTO brands (brand_id, name, name_norm) VALUES ($1, $1, $1)`, [id]);
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    // A writes and stays open; B writes and commits meanwhile (the writer lock is shared between them).
    const a = withSharedRecordChange(pool, 'shared writer A', async (c) => {
      await brand(c, 'brd_shared_a');
      wrote();
      await gate;
    });
    await written;
    const b = await withSharedRecordChange(pool, 'shared writer B', (c) => brand(c, 'brd_shared_b'));
    expect(b.record_version).toMatch(/^rv_\d{8}$/);
    // An exclusive writer (capture import, curation, a release) waits until A is done.
    let exclusiveDone = false;
    const x = withRecordChange(pool, 'exclusive writer', (c) => brand(c, 'brd_exclusive')).then((r) => ((exclusiveDone = true), r));
    await waitFor('the exclusive writer to wait for the shared one', lockWaiter, 10_000);
    expect(exclusiveDone).toBe(false);
    open();
    const [ra, rx] = await Promise.all([a, x]);
    // Versions follow commit order: B, then A, then the exclusive writer.
    expect([b.record_version, ra.record_version, rx.record_version]).toEqual([b.record_version, ra.record_version, rx.record_version].slice().sort());
    expect(new Set([b.record_version, ra.record_version, rx.record_version]).size).toBe(3);
    const reasons = await pool.query(`SELECT reason FROM record_versions WHERE version = ANY($1) ORDER BY id`, [[b.record_version, ra.record_version, rx.record_version]]);
    expect(reasons.rows.map((r) => r.reason)).toEqual(['shared writer B', 'shared writer A', 'exclusive writer']);
    // A shared writer that changed nothing in the Record makes no version.
    expect((await withSharedRecordChange(pool, 'reads only', (c) => c.query('SELECT 1'))).record_version).toBeNull();
  });
});
