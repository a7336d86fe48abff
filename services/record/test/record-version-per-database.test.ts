import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { demoDatabase, emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startRecordService, type RecordHarness } from './support/harness';

/**
 * A record version names a state of one Record. One process that reads two
 * Records at the same version string (a test worker running several files, a
 * tool) must answer each from its own: the record state and the coverage
 * counts are cached by database as well as by version (decision 2401).
 */
let demo: TestDatabase;
let empty: TestDatabase;
let demoService: RecordHarness;
let emptyService: RecordHarness;

async function headOf(url: string): Promise<{ id: number; version: string }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ id: number; version: string }>('SELECT id, version FROM record_versions ORDER BY id DESC LIMIT 1');
    return rows[0]!;
  } finally {
    await c.end();
  }
}

/** Commits record version `id` to the database, dated `day` (the ids need not follow on: a rolled-back writer leaves gaps too). */
async function commitVersion(url: string, id: number, day: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`INSERT INTO record_versions (id, txid, reason, committed_at) VALUES ($1, txid_current(), 'test: the version string of another Record', $2)`, [id, `${day}T12:00:00Z`]);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  [demo, empty] = await Promise.all([demoDatabase(), emptyDatabase()]);
  const [d, e] = await Promise.all([headOf(demo.url), headOf(empty.url)]);
  // Both Records at the same version string, each committed on a day of its own.
  const id = Math.max(d.id, e.id) + 1;
  await commitVersion(demo.url, id, '2024-03-01');
  await commitVersion(empty.url, id, '2023-07-15');
  demoService = await startRecordService(demo.url);
  emptyService = await startRecordService(empty.url);
});
afterAll(async () => {
  await demoService?.close();
  await emptyService?.close();
  await Promise.all([demo?.drop(), empty?.drop()]);
});

describe('two Records at one version string, read by one process', () => {
  it('each answer carries its own Record state and coverage counts', async () => {
    const fromDemo = await demoService.answer('GET', '/api/v1/record/version');
    const fromEmpty = await emptyService.answer('GET', '/api/v1/record/version');
    // The second read would be served from the first's cache if the caches were keyed by version alone.
    const fromDemoAgain = await demoService.answer('GET', '/api/v1/record/version');

    const products = (r: typeof fromDemo) => (r.body.coverage?.counts as { products: number }).products;
    expect(fromDemo.body.record_version).toBe(fromEmpty.body.record_version);
    expect(fromDemo.body.record_as_of).toBe('2024-03-01');
    expect(fromEmpty.body.record_as_of).toBe('2023-07-15');
    expect(products(fromDemo)).toBeGreaterThan(0);
    expect(products(fromEmpty)).toBe(0);
    expect(fromDemoAgain.body.record_as_of).toBe('2024-03-01');
    expect(products(fromDemoAgain)).toBe(products(fromDemo));
  });
});
