import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { editionHash } from '@evidence-record/contract';
import { createPool, type Pool } from '@evidence-record/platform';
import { migrationsDir, runMigrations } from '@evidence-record/record-store/migrations';
import { demoDatabase, emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { adminQuery, databaseUrl, dropDatabase, uniqueSuffix } from '@evidence-record/test-support/infra';
import { normalizeName } from '@evidence-record/record-store';
import { notable } from './products';
import { productId } from './ids';
import { seedDemoRecord } from './seed';

const run = promisify(execFile);

describe('migrations', () => {
  const name = `er_${inject('runId')}_migrations_${uniqueSuffix()}`;
  afterAll(() => dropDatabase(name));

  it('apply to an empty database, and a second run applies nothing', async () => {
    await adminQuery(`CREATE DATABASE "${name}"`);
    const files = readdirSync(migrationsDir()).filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, '')).sort();
    expect(await runMigrations(databaseUrl(name))).toEqual(files);
    expect(await runMigrations(databaseUrl(name))).toEqual([]);
  });
});

describe('seeding the demo Record', () => {
  let db: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await emptyDatabase();
    pool = createPool(db.url, { max: 2 });
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('creates exactly one record version, with its reason, fast', async () => {
    const before = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM record_versions');
    const started = Date.now();
    const { record_version } = await seedDemoRecord(db.url);
    expect(Date.now() - started).toBeLessThan(5_000);
    const after = await pool.query<{ version: string; reason: string }>('SELECT version, reason FROM record_versions ORDER BY id');
    expect(after.rows).toHaveLength(before.rows[0]!.n + 1);
    expect(after.rows.at(-1)).toEqual({ version: record_version, reason: 'demo Record seed' });
  });

  it('is deterministic: a second seed elsewhere has the same ids and edition hashes', async () => {
    const other = await demoDatabase();
    const otherPool = createPool(other.url, { max: 1 });
    try {
      const fingerprint = async (p: Pool) =>
        (
          await p.query<{ f: string }>(`SELECT concat_ws('|',
             (SELECT string_agg(product_id || name, ',' ORDER BY product_id) FROM products),
             (SELECT string_agg(state_id, ',' ORDER BY state_id) FROM history_states),
             (SELECT string_agg(signal_id || released_on || candidate_id, ',' ORDER BY signal_id) FROM signals),
             (SELECT string_agg(observation_id || ':' || price_cents, ',' ORDER BY observation_id) FROM price_observations),
             (SELECT string_agg(edition_id || coalesce(edition_hash, '-'), ',' ORDER BY edition_id) FROM ledger_editions)) AS f`)
        ).rows[0]!.f;
      expect(await fingerprint(pool)).toBe(await fingerprint(otherPool));
    } finally {
      await otherPool.end();
      await other.drop();
    }
  });

  it('new rows after the seed get fresh ids (sequences moved past the explicit ids)', async () => {
    const { rows } = await pool.query<{ id: number; max: number }>(
      `SELECT nextval(pg_get_serial_sequence('candidates', 'candidate_id'))::int AS id, (SELECT max(candidate_id)::int FROM candidates) AS max`,
    );
    expect(rows[0]!.id).toBeGreaterThan(rows[0]!.max);
  });

  it('the seed command refuses a database that already holds products', async () => {
    const { stdout } = await run('npx', ['tsx', 'scripts/seed-demo.ts'], { env: { ...process.env, DATABASE_URL: db.url }, cwd: process.cwd() });
    expect(JSON.parse(stdout.trim())).toEqual({ seeded: false, reason: 'not empty' });
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM products');
    expect(rows[0]!.n).toBeGreaterThanOrEqual(40);
  });
});

describe('the demo Record', () => {
  let db: TestDatabase;
  let pool: Pool;
  const one = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) => (await pool.query<T>(sql, values)).rows[0]!;
  const all = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) => (await pool.query<T>(sql, values)).rows;

  beforeAll(async () => {
    db = await demoDatabase();
    pool = createPool(db.url, { max: 2 });
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('has at least 40 fictional products across 10 fictional brands, powders and capsules', async () => {
    const c = await one<{ products: number; brands: number; demo: boolean; forms: string[] }>(
      `SELECT (SELECT count(*)::int FROM products) AS products, (SELECT count(DISTINCT brand_id)::int FROM products) AS brands,
              (SELECT bool_and(is_demo) FROM products) AND (SELECT bool_and(is_demo) FROM brands) AS demo,
              (SELECT array_agg(DISTINCT form ORDER BY form) FROM products) AS forms`,
    );
    expect(c.products).toBeGreaterThanOrEqual(40);
    expect(c.brands).toBe(10);
    expect(c.demo).toBe(true);
    expect(c.forms).toEqual(expect.arrayContaining(['capsule', 'powder']));
    const urls = await all<{ url: string }>('SELECT url FROM sources');
    for (const { url } of urls) expect(new URL(url).hostname).toMatch(/\.example$/);
  });

  it('stores the named-without-amount ingredient as NULL, never 0 (no demo label declares a zero)', async () => {
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM declared_ingredients WHERE amount = 0')).n).toBe(0);
    const named = await all<{ amount: number | null; unit: string | null; blend_id: number | null }>(
      `SELECT d.amount, d.unit, d.blend_id FROM declared_ingredients d JOIN history_states h USING (state_id)
        WHERE h.product_id = $1 AND d.declared_name = $2`,
      [productId(notable.namedWithoutAmount.product), notable.namedWithoutAmount.declaredName],
    );
    expect(named).toEqual([{ amount: null, unit: null, blend_id: null }]);
  });

  it('holds proprietary blends whose members have no amount but whose total is declared', async () => {
    const blends = await all<{ total_amount: number; members: number; with_amount: number }>(
      `SELECT b.total_amount, count(d.*)::int AS members, count(d.amount)::int AS with_amount
         FROM declared_blends b JOIN declared_ingredients d ON d.blend_id = b.blend_id GROUP BY b.blend_id, b.total_amount`,
    );
    expect(blends.length).toBeGreaterThan(0);
    for (const b of blends) {
      expect(b.total_amount).toBeGreaterThan(0);
      expect(b.members).toBeGreaterThan(1);
      expect(b.with_amount).toBe(0);
    }
  });

  it('never turns an open or refused candidate into a Signal, and every Signal comes from an approved candidate', async () => {
    const c = await one<{ open: number; refused: number; leaked: number; unapproved: number; unreviewed: number }>(
      `SELECT count(*) FILTER (WHERE c.status = 'open')::int AS open,
              count(*) FILTER (WHERE c.status = 'refused')::int AS refused,
              count(s.signal_id) FILTER (WHERE c.status <> 'approved')::int AS leaked,
              (SELECT count(*)::int FROM signals s2 JOIN candidates c2 USING (candidate_id) WHERE c2.status <> 'approved') AS unapproved,
              count(*) FILTER (WHERE c.status = 'approved' AND (c.reviewer IS NULL OR c.review_note IS NULL OR c.reviewed_at IS NULL))::int AS unreviewed
         FROM candidates c LEFT JOIN signals s ON s.candidate_id = c.candidate_id`,
    );
    expect(c.open).toBeGreaterThan(0);
    expect(c.refused).toBeGreaterThan(0);
    expect(c.leaked).toBe(0);
    expect(c.unapproved).toBe(0);
    expect(c.unreviewed).toBe(0);
  });

  it('has at least 30 released Signals across at least 4 months, in formula, serving and price, one corrected and one withdrawn', async () => {
    const c = await one<{ released: number; months: number; dims: string[]; corrected: number; withdrawn: number }>(
      `SELECT count(*)::int AS released, count(DISTINCT to_char(released_on, 'YYYY-MM'))::int AS months,
              array_agg(DISTINCT dimension ORDER BY dimension) AS dims,
              count(*) FILTER (WHERE status = 'corrected')::int AS corrected, count(*) FILTER (WHERE status = 'withdrawn')::int AS withdrawn
         FROM signals WHERE released_on IS NOT NULL`,
    );
    expect(c.released).toBeGreaterThanOrEqual(30);
    expect(c.months).toBeGreaterThanOrEqual(4);
    expect(c.dims).toEqual(['formula', 'price', 'serving']);
    expect(c.corrected).toBeGreaterThanOrEqual(1);
    expect(c.withdrawn).toBeGreaterThanOrEqual(1);
    const notes = await all<{ status: string; kinds: string[] }>(
      `SELECT s.status, array_agg(k.kind) AS kinds FROM signals s JOIN signal_corrections k USING (signal_id) GROUP BY s.signal_id, s.status`,
    );
    expect(notes).toEqual(expect.arrayContaining([{ status: 'corrected', kinds: ['correction'] }, { status: 'withdrawn', kinds: ['withdrawal'] }]));
  });

  it('releases in batches whose dates strictly increase with the batch id, one batch per date', async () => {
    const batches = await all<{ batch_id: number; release_date: string }>('SELECT batch_id, release_date FROM release_batches ORDER BY batch_id');
    for (let i = 1; i < batches.length; i++) expect(batches[i]!.release_date > batches[i - 1]!.release_date).toBe(true);
    const mismatched = await one<{ n: number }>(
      'SELECT count(*)::int AS n FROM signals s JOIN release_batches b USING (batch_id) WHERE s.released_on <> b.release_date',
    );
    expect(mismatched.n).toBe(0);
    const newest = await one<{ d: string }>('SELECT max(release_date) AS d FROM release_batches');
    expect(newest.d < '2026-11-21').toBe(true);
  });

  it('keeps exact change dates NULL or inside the observation window, and NULL on most Signals', async () => {
    const c = await one<{ outside: number; exact: number; total: number }>(
      `SELECT count(*) FILTER (WHERE exact_change_date IS NOT NULL AND exact_change_date NOT BETWEEN window_start AND window_end)::int AS outside,
              count(exact_change_date)::int AS exact, count(*)::int AS total FROM signals`,
    );
    expect(c.outside).toBe(0);
    expect(c.exact).toBeGreaterThanOrEqual(1);
    expect(c.exact).toBeLessThan(c.total / 4);
  });

  it('has price Signals only for list-price changes, each comparing two list prices', async () => {
    const prices = await all<{ before_basis: string; after_basis: string; before_cents: number; after_cents: number }>(
      `SELECT b.price_basis AS before_basis, a.price_basis AS after_basis, b.price_cents AS before_cents, a.price_cents AS after_cents
         FROM signals s JOIN price_observations b ON b.observation_id = s.before_price_id JOIN price_observations a ON a.observation_id = s.after_price_id
        WHERE s.dimension = 'price'`,
    );
    const priceSignals = await one<{ n: number }>("SELECT count(*)::int AS n FROM signals WHERE dimension = 'price'");
    expect(prices.length).toBe(priceSignals.n);
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) {
      expect([p.before_basis, p.after_basis]).toEqual(['list', 'list']);
      expect(p.before_cents).not.toBe(p.after_cents);
    }
    const bases = await all<{ price_basis: string }>('SELECT DISTINCT price_basis FROM price_observations ORDER BY 1');
    expect(bases.map((b) => b.price_basis)).toEqual(['list', 'promotional', 'subscription', 'unspecified']);
  });

  it('has a REGISTERED product with no comparable state, and a retired product that keeps its id and history', async () => {
    const registered = await all<{ product_id: string; comparable: number }>(
      `SELECT p.product_id, count(h.*) FILTER (WHERE h.classification = 'comparable')::int AS comparable
         FROM products p LEFT JOIN history_states h USING (product_id) WHERE p.depth_class = 'REGISTERED' GROUP BY p.product_id`,
    );
    expect(registered.length).toBeGreaterThanOrEqual(1);
    for (const r of registered) expect(r.comparable).toBe(0);
    const retired = await one<{ retired_on: string; states: number }>(
      'SELECT p.retired_on, (SELECT count(*)::int FROM history_states h WHERE h.product_id = p.product_id) AS states FROM products p WHERE product_id = $1',
      [productId(notable.retired)],
    );
    expect(retired.retired_on).toBe('2026-07-31');
    expect(retired.states).toBeGreaterThan(0);
  });

  it('has TRACKED products with several states and real reformulations', async () => {
    const c = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT product_id FROM history_states JOIN products USING (product_id)
        WHERE depth_class = 'TRACKED' AND classification = 'comparable' GROUP BY product_id HAVING count(*) >= 3) x`,
    );
    expect(c.n).toBeGreaterThanOrEqual(5);
  });

  it('resolves the generic names ambiguously and the unique aliases to one product', async () => {
    for (const generic of notable.ambiguousAliases) {
      const { n } = await one<{ n: number }>('SELECT count(DISTINCT product_id)::int AS n FROM product_aliases WHERE alias_norm = $1', [normalizeName(generic)]);
      expect(n, generic).toBeGreaterThanOrEqual(2);
    }
    const { n } = await one<{ n: number }>('SELECT count(DISTINCT product_id)::int AS n FROM product_aliases WHERE alias_norm = $1', [normalizeName('iv surge')]);
    expect(n).toBe(1);
    const bad = await one<{ n: number }>('SELECT count(*)::int AS n FROM product_aliases WHERE alias_norm <> lower(alias_norm) OR alias_norm ~ $1', ['[^a-z0-9 ]|  |^ | $']);
    expect(bad.n).toBe(0);
  });

  it('stores every *_norm column with the normalisation rule of the record service, so lookups are equalities', async () => {
    const rows = await all<{ text: string; norm: string }>(
      `SELECT name AS text, name_norm AS norm FROM brands UNION ALL SELECT name, name_norm FROM products
       UNION ALL SELECT alias, alias_norm FROM product_aliases UNION ALL SELECT synonym, synonym_norm FROM ingredient_synonyms`,
    );
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) expect(r.norm, r.text).toBe(normalizeName(r.text));
  });

  it('has at least one unreadable manufacturer source whose recent checks fail', async () => {
    const sources = await all<{ source_id: number; health_since: Date }>("SELECT source_id, health_since FROM sources WHERE kind = 'manufacturer' AND health = 'unreadable'");
    expect(sources.length).toBeGreaterThanOrEqual(1);
    const { outcomes } = await one<{ outcomes: string[] }>(
      'SELECT array_agg(DISTINCT outcome) AS outcomes FROM monitoring_checks WHERE source_id = $1 AND checked_at >= $2',
      [sources[0]!.source_id, sources[0]!.health_since],
    );
    expect(outcomes).toEqual(['unreadable']);
  });

  it('has research context for at least 12 ingredients, and regulatory records that are never approvals', async () => {
    const r = await one<{ n: number }>('SELECT count(DISTINCT ingredient_id)::int AS n FROM research_context WHERE range_low IS NOT NULL');
    expect(r.n).toBeGreaterThanOrEqual(12);
    const regs = await all<{ ingredient_id: string; what_it_is: string; is_caution: boolean }>('SELECT ingredient_id, what_it_is, is_caution FROM regulatory_records');
    expect(new Set(regs.map((x) => x.ingredient_id))).toEqual(new Set(['ing_dmaa', 'ing_dmha', 'ing_bmpea', 'ing_phenibut', 'ing_caffeine']));
    expect(regs.some((x) => x.is_caution)).toBe(true);
    for (const x of regs) expect(x.what_it_is).not.toMatch(/\bapprov/i);
    const declared = await one<{ n: number }>(
      "SELECT count(*)::int AS n FROM declared_ingredients WHERE ingredient_id IN ('ing_dmaa', 'ing_dmha', 'ing_bmpea', 'ing_phenibut')",
    );
    expect(declared.n).toBe(0);
  });

  it('has three editions, two closed whose stored hash recomputes from the stored document', async () => {
    const editions = await all<{ edition_id: string; status: string; document: Record<string, unknown> | null; edition_hash: string | null; count_released: number; period: string }>(
      'SELECT edition_id, status, document, edition_hash, count_released, period FROM ledger_editions ORDER BY period',
    );
    expect(editions.map((e) => e.status)).toEqual(['closed', 'closed', 'open']);
    for (const e of editions.filter((x) => x.status === 'closed')) {
      expect(e.edition_hash).toBe(editionHash(e.document));
      expect(e.document).toMatchObject({ edition_id: e.edition_id, period: e.period, status: 'closed' });
      const changes = e.document!.confirmed_changes as { signal_id: string }[];
      expect(changes).toHaveLength(e.count_released);
      const released = await one<{ n: number }>("SELECT count(*)::int AS n FROM signals WHERE to_char(released_on, 'YYYY-MM') = $1", [e.period]);
      expect(released.n).toBe(e.count_released);
      for (const b of e.document!.category_benchmarks as { cohort: { denominator: number } }[]) expect(b.cohort.denominator).toBeGreaterThan(0);
    }
  });

  it('refuses any change to a closed edition', async () => {
    await expect(pool.query("UPDATE ledger_editions SET count_released = count_released + 1 WHERE status = 'closed'")).rejects.toThrow(/closed and never changes/);
    await expect(pool.query("DELETE FROM ledger_editions WHERE status = 'closed'")).rejects.toThrow(/closed and never changes/);
  });

  it('has monitoring over several months, with empty and unreadable checks, recoveries, and a span that began mid-month', async () => {
    const c = await one<{ months: number; outcomes: string[]; recoveries: number }>(
      `SELECT count(DISTINCT to_char(checked_at, 'YYYY-MM'))::int AS months, array_agg(DISTINCT outcome ORDER BY outcome) AS outcomes,
              count(*) FILTER (WHERE recovered)::int AS recoveries FROM monitoring_checks`,
    );
    expect(c.months).toBeGreaterThanOrEqual(6);
    expect(c.outcomes).toEqual(['empty', 'unreadable', 'valid']);
    expect(c.recoveries).toBeGreaterThan(0);
    const span = await one<{ started_on: string }>('SELECT started_on FROM monitoring_spans WHERE product_id = $1', [productId(notable.monitoringBeganMidMonth.product)]);
    expect(span.started_on).toBe(notable.monitoringBeganMidMonth.on);
    const outside = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM monitoring_checks c WHERE NOT EXISTS (
         SELECT 1 FROM monitoring_spans s WHERE s.product_id = c.product_id AND c.checked_at::date >= s.started_on AND (s.ended_on IS NULL OR c.checked_at::date <= s.ended_on))`,
    );
    expect(outside.n).toBe(0);
  });

  it('keeps every date in 2026 and before today, the newest observation a few days ago', async () => {
    const c = await one<{ newest: Date; oldest: Date }>(
      `SELECT greatest((SELECT max(observed_at) FROM captures), (SELECT max(observed_at)::timestamptz FROM price_observations), (SELECT max(checked_at) FROM monitoring_checks)) AS newest,
              least((SELECT min(observed_at) FROM captures), (SELECT min(observed_at)::timestamptz FROM price_observations), (SELECT min(checked_at) FROM monitoring_checks)) AS oldest`,
    );
    expect(c.newest.toISOString() < '2026-11-21').toBe(true);
    expect(c.newest.toISOString() >= '2026-11-14').toBe(true);
    expect(c.oldest.toISOString() >= '2026-01-01').toBe(true);
  });

  it('keeps history states inside their captures: each state starts on the capture that created it', async () => {
    const c = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM history_states h JOIN captures c USING (capture_id) WHERE (c.observed_at AT TIME ZONE 'UTC')::date <> h.observed_from`,
    );
    expect(c.n).toBe(0);
  });
});
