import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics, createLogger, createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { UsageLog, type UsageRow } from '../src/usage/usage-log';

/** The usage log against the real usage_log table. */
let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

function row(i: number): UsageRow {
  return {
    at: new Date(),
    requestId: `req_${i.toString(16).padStart(24, '0')}`,
    keyId: null,
    orgId: null,
    capability: 'get_record_version',
    origin: 'rest',
    httpStatus: 200,
    errorCode: null,
    entitiesCharged: 0,
    latencyMs: 1.5,
  };
}

async function written(): Promise<number> {
  return (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM usage_log')).rows[0]!.n;
}

describe('usage log', () => {
  it('writes full batches as they fill, leaves a partial batch for the next tick, and writes everything on stop', async () => {
    const inserts: number[] = [];
    const counting = new Proxy(pool, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver);
        return (config: { values: unknown[][] }) => {
          inserts.push(config.values[0]!.length);
          return target.query(config as never);
        };
      },
    });
    const usage = new UsageLog(counting, createLogger('usage-log-test', 'silent'), new Metrics('usage-log-test'), { intervalMs: 60_000, batchSize: 100 });
    // Arrivals while the first batch is being written: a drain that ran until the queue was empty
    // would write the 50 left over at once, one small INSERT after every write under steady load.
    for (let i = 0; i < 250; i++) usage.record(row(i));
    await usage.flush();
    expect(inserts).toEqual([100, 100]);
    expect(await written()).toBe(200);

    await usage.stop();
    expect(inserts).toEqual([100, 100, 50]);
    expect(await written()).toBe(250);
  });
});
