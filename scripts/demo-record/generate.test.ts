import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionHash } from '@evidence-record/contract';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { generateRecord, type GenerateResult } from './generate';

describe('the large-Record generator (2000 products, 1000 Signals)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let result: GenerateResult;
  const one = async <T extends Record<string, unknown>>(sql: string) => (await pool.query<T>(sql)).rows[0]!;

  beforeAll(async () => {
    db = await emptyDatabase();
    pool = createPool(db.url, { max: 2 });
    result = await generateRecord(db.url, { products: 2000, signals: 1000 });
  }, 120_000);
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('makes the requested numbers of products and released Signals, in one record version', async () => {
    const c = await one<{ products: number; signals: number; released: number; versions: number; demo: boolean }>(
      `SELECT (SELECT count(*)::int FROM products) AS products, (SELECT count(*)::int FROM signals) AS signals,
              (SELECT count(*)::int FROM signals WHERE released_on IS NOT NULL) AS released,
              (SELECT count(*)::int FROM record_versions) AS versions, (SELECT bool_and(is_demo) FROM products) AS demo`,
    );
    expect(c).toEqual({ products: 2000, signals: 1000, released: 1000, versions: 2, demo: true });
    expect(result.counts.products).toBe(2000);
    expect(result.counts.signals).toBe(1000);
    expect((await one<{ version: string }>('SELECT version FROM record_versions ORDER BY id DESC LIMIT 1')).version).toBe(result.record_version);
  });

  it('keeps the Record rules: approved candidates only, open and refused ones never released, list prices on both sides', async () => {
    const c = await one<{ unapproved: number; open: number; refused: number; leaked: number; non_list: number; windows: number; zero: number }>(
      `SELECT (SELECT count(*)::int FROM signals s JOIN candidates c USING (candidate_id) WHERE c.status <> 'approved') AS unapproved,
              (SELECT count(*)::int FROM candidates WHERE status = 'open') AS open,
              (SELECT count(*)::int FROM candidates WHERE status = 'refused') AS refused,
              (SELECT count(*)::int FROM candidates c JOIN signals s USING (candidate_id) WHERE c.status IN ('open', 'refused')) AS leaked,
              (SELECT count(*)::int FROM signals s JOIN price_observations o ON o.observation_id IN (s.before_price_id, s.after_price_id)
                WHERE o.price_basis <> 'list' OR o.product_id <> s.product_id) AS non_list,
              (SELECT count(*)::int FROM signals WHERE exact_change_date IS NOT NULL AND exact_change_date NOT BETWEEN window_start AND window_end) AS windows,
              (SELECT count(*)::int FROM declared_ingredients WHERE amount = 0) AS zero`,
    );
    expect(c).toEqual({ unapproved: 0, open: expect.any(Number), refused: expect.any(Number), leaked: 0, non_list: 0, windows: 0, zero: 0 });
    expect(c.open).toBeGreaterThan(0);
    expect(c.refused).toBeGreaterThan(0);
    const price = await one<{ n: number; changed: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE b.price_cents <> a.price_cents)::int AS changed FROM signals s
         JOIN price_observations b ON b.observation_id = s.before_price_id JOIN price_observations a ON a.observation_id = s.after_price_id`,
    );
    expect(price.n).toBeGreaterThan(0);
    expect(price.changed).toBe(price.n);
  });

  it('releases in batches whose dates strictly increase, none after the newest observation', async () => {
    const { rows } = await pool.query<{ batch_id: number; release_date: string }>('SELECT batch_id, release_date FROM release_batches ORDER BY batch_id');
    expect(rows.length).toBeGreaterThan(3);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.release_date > rows[i - 1]!.release_date).toBe(true);
    expect(rows.at(-1)!.release_date <= '2026-11-17').toBe(true);
    const mismatched = await one<{ n: number }>('SELECT count(*)::int AS n FROM signals s JOIN release_batches b USING (batch_id) WHERE b.release_date <> s.released_on');
    expect(mismatched.n).toBe(0);
  });

  it('links every label Signal to two consecutive comparable states whose labels differ', async () => {
    const c = await one<{ label: number; same: number }>(
      `SELECT count(*)::int AS label,
              count(*) FILTER (WHERE (SELECT array_agg(ingredient_id || ':' || coalesce(amount::text, '-') ORDER BY position) FROM declared_ingredients WHERE state_id = s.before_state_id)
                                   IS NOT DISTINCT FROM (SELECT array_agg(ingredient_id || ':' || coalesce(amount::text, '-') ORDER BY position) FROM declared_ingredients WHERE state_id = s.after_state_id)
                                 AND b.servings_per_container = a.servings_per_container)::int AS same
         FROM signals s JOIN history_states b ON b.state_id = s.before_state_id JOIN history_states a ON a.state_id = s.after_state_id
        WHERE s.dimension IN ('formula', 'serving') AND b.observed_to = s.window_start AND a.observed_from = s.window_end`,
    );
    const labelSignals = await one<{ n: number }>("SELECT count(*)::int AS n FROM signals WHERE dimension IN ('formula', 'serving')");
    expect(c.label).toBe(labelSignals.n);
    expect(c.same).toBe(0);
  });

  it('has ambiguous generic names only, a REGISTERED product without a comparable state, and closed editions whose hash recomputes', async () => {
    const generic = await one<{ n: number }>("SELECT count(DISTINCT product_id)::int AS n FROM product_aliases WHERE alias_norm = 'pre workout'");
    expect(generic.n).toBeGreaterThanOrEqual(2);
    // Only the generic names are shared: brand + product name names one product, as on real labels.
    const repeated = await one<{ n: number }>(
      "SELECT count(*)::int AS n FROM (SELECT brand_id, name_norm FROM products WHERE name NOT IN ('Pre-Workout', 'Original') GROUP BY 1, 2 HAVING count(*) > 1) x",
    );
    expect(repeated.n).toBe(0);
    const registered = await one<{ n: number; comparable: number }>(
      `SELECT count(DISTINCT p.product_id)::int AS n, count(h.*) FILTER (WHERE h.classification = 'comparable')::int AS comparable
         FROM products p LEFT JOIN history_states h USING (product_id) WHERE p.depth_class = 'REGISTERED'`,
    );
    expect(registered.n).toBeGreaterThan(0);
    expect(registered.comparable).toBe(0);
    const { rows } = await pool.query<{ status: string; document: unknown; edition_hash: string | null }>('SELECT status, document, edition_hash FROM ledger_editions ORDER BY period');
    expect(rows.map((r) => r.status)).toEqual(['closed', 'closed', 'open']);
    for (const r of rows.filter((x) => x.status === 'closed')) expect(r.edition_hash).toBe(editionHash(r.document));
  });

  it('refuses to generate into a database that already holds products', async () => {
    await expect(generateRecord(db.url, { products: 10, signals: 10 })).rejects.toThrow(/already holds products/);
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM products')).n).toBe(2000);
  });
});
