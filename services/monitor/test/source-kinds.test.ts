import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSourceKind, monitoredSourceKinds, storedSourceKindNames, storedSourceKinds } from '@evidence-record/contract';
import { createPool, type Pool } from '@evidence-record/platform';
import { AddSourceInput, kindOf, sourceKinds } from '@evidence-record/sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';

/**
 * A source kind is one file under services/sources/src/kinds, its
 * registration and a migration (docs/monitor.md, "Adding a source kind"):
 * the three agree — every kind the contract marks monitored has a reading
 * registered, and the database admits exactly the contract's stored kinds as
 * sources and its monitored kinds as evidence.
 */
let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** The kinds a CHECK constraint's `kind IN (…)` admits. */
async function admitted(table: string, constraint: string): Promise<string[]> {
  const { rows } = await pool.query<{ def: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.conname = $2`,
    [table, constraint],
  );
  expect(rows, `${table}.${constraint}`).toHaveLength(1);
  return [...rows[0]!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]!).sort();
}

describe('source kinds', () => {
  it('every monitored kind has its reading registered under its own name, and no other kind has one', () => {
    expect([...sourceKinds]).toEqual(['dsld_label', 'offer_page']);
    expect([...sourceKinds]).toEqual(monitoredSourceKinds);
    for (const name of sourceKinds) expect(kindOf(name).name).toBe(name);
    for (const name of storedSourceKindNames.filter((k) => !storedSourceKinds[k].monitored)) expect(() => kindOf(name)).toThrow(/not one the monitor reads/);
    expect(() => kindOf('toString')).toThrow(/not one the monitor reads/);
  });

  it('`source add` takes the monitored kinds only; answers name every stored kind', () => {
    expect(AddSourceInput.safeParse({ product_id: 'prd_000000000000', kind: 'offer_page', url: 'https://shop.example/p' }).success).toBe(true);
    expect(AddSourceInput.safeParse({ product_id: 'prd_000000000000', kind: 'retailer', url: 'https://shop.example/p' }).success).toBe(false);
    expect(Object.fromEntries(storedSourceKindNames.map((k) => [k, answerSourceKind(k)]))).toEqual({ manufacturer: 'manufacturer', retailer: 'retailer', dsld_label: 'manufacturer', offer_page: 'retailer' });
  });

  it('the migrations admit exactly the contract stored kinds as sources and its monitored kinds as evidence', async () => {
    expect(await admitted('sources', 'sources_kind_check')).toEqual([...storedSourceKindNames].sort());
    expect(await admitted('evidence', 'evidence_kind_check')).toEqual([...monitoredSourceKinds].sort());
  });
});
