import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { withRecordChange } from '@evidence-record/platform';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { waitFor } from '@evidence-record/test-support/wait';
import { productId } from '@evidence-record/demo-record/ids';
import { startRecordService, type RecordHarness } from './support/harness';

/**
 * Two answers that share a record_version come from one committed state,
 * even when a Record change commits while they are being read.
 *
 * The change takes an exclusive lock on price_observations before the
 * answers start, so they take their snapshot, then wait on the lock in the
 * middle of reading; the change commits (new list price, new record
 * version) while they wait. Read in one repeatable-read snapshot, both must
 * still answer with the old version AND the old price; read any other way,
 * they would pair the old version with the new price.
 */
let db: TestDatabase;
let svc: RecordHarness;
const surge = productId('ironvale-surge');

beforeAll(async () => {
  db = await demoDatabase();
  svc = await startRecordService(db.url);
});
afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

const listPerServing = (body: { calculations: Array<{ name: string; price_basis?: string | null; result: number | null }> }) =>
  body.calculations.find((c) => c.name === 'price_per_serving' && c.price_basis === 'list')?.result;

async function waitForBlockedReaders(watcher: pg.Client, count: number): Promise<void> {
  await waitFor('the readers to reach the locked table', async () => {
    const { rows } = await watcher.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'price_observations'::regclass`,
    );
    return rows[0]!.n >= count;
  }, 5_000, 25);
}

describe('one answer, one snapshot', () => {
  it('answers sharing a record_version see the same data while a price change commits between their reads', async () => {
    const before = await svc.answer('GET', `/api/v1/products/${surge}/serving-economics`);
    expect(listPerServing(before.body)).toBe(1.9996);

    const watcher = new pg.Client({ connectionString: db.url });
    await watcher.connect();
    let inFlight: Promise<Array<Awaited<ReturnType<RecordHarness['answer']>>>> | undefined;
    const change = await withRecordChange(svc.pool, 'test: list price rises at Shelfwise Supply', async (client) => {
      await client.query('LOCK TABLE price_observations IN ACCESS EXCLUSIVE MODE');
      await client.query(
        `INSERT INTO price_observations (product_id, retailer, observed_at, price_cents, price_basis, state_id)
         SELECT product_id, retailer, '2026-11-20', 5999, 'list', state_id FROM price_observations
          WHERE product_id = $1 AND price_basis = 'list' AND retailer = 'Shelfwise Supply' ORDER BY observed_at DESC LIMIT 1`,
        [surge],
      );
      inFlight = Promise.all([
        svc.answer('GET', `/api/v1/products/${surge}/serving-economics`),
        svc.answer('GET', `/api/v1/products/${surge}/serving-economics`),
        svc.answer('GET', `/api/v1/products/${surge}`),
      ]);
      await waitForBlockedReaders(watcher, 3);
    });
    await watcher.end();
    const during = await inFlight!;

    expect(change.record_version).not.toBe(before.body.record_version);
    for (const r of during) expect(r.body.record_version).toBe(before.body.record_version);
    expect(listPerServing(during[0]!.body)).toBe(1.9996);
    expect(during[0]!.body.calculations).toEqual(during[1]!.body.calculations);
    expect(during[0]!.body.commercial_facts).toEqual(before.body.commercial_facts);
    expect(during[2]!.body.commercial_facts.some((f) => f.observed_at === '2026-11-20')).toBe(false);

    const after = await Promise.all([
      svc.answer('GET', `/api/v1/products/${surge}/serving-economics`),
      svc.answer('GET', `/api/v1/products/${surge}/serving-economics`),
    ]);
    for (const r of after) {
      expect(r.body.record_version).toBe(change.record_version);
      expect(listPerServing(r.body)).toBe(2.3996);
    }
    expect(after[0]!.body.calculations).toEqual(after[1]!.body.calculations);
  });

  it('under a stream of changes, every answer with one record_version carries one price', async () => {
    const seen = new Map<string, Set<string>>();
    let writes = 0;
    const stop = Date.now() + 1500;
    const writer = (async () => {
      for (let cents = 6000; Date.now() < stop; cents += 1) {
        await withRecordChange(svc.pool, 'test: price churn', (c) =>
          c.query(`UPDATE price_observations SET price_cents = $2 WHERE observation_id = (
                     SELECT observation_id FROM price_observations WHERE product_id = $1 AND price_basis = 'list' ORDER BY observed_at DESC, observation_id DESC LIMIT 1)`,
          [surge, cents]),
        );
        writes += 1;
      }
    })();
    const reader = async () => {
      while (Date.now() < stop) {
        const r = await svc.answer('GET', `/api/v1/products/${surge}/serving-economics`);
        const prices = seen.get(r.body.record_version) ?? new Set<string>();
        prices.add(JSON.stringify([r.body.commercial_facts, listPerServing(r.body)]));
        seen.set(r.body.record_version, prices);
      }
    };
    await Promise.all([writer, reader(), reader(), reader()]);
    expect(writes).toBeGreaterThan(5);
    expect(seen.size).toBeGreaterThan(2);
    for (const [version, variants] of seen) expect(variants.size, version).toBe(1);
  });
});
