import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { IngredientNames, addSource, policyOf, rederiveStates, runOnce } from '@evidence-record/sources';
import { startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { localhostOnly, product, realLabel, testMonitor, testSettings } from './support';

/**
 * A state read under the old reading rule (a declared 0 read as undisclosed,
 * DSLD's long unit names kept) is read again from its preserved label bytes:
 * by the operator step, and by the monitor when it reads the same bytes
 * again. Either way the state keeps its id and dates, no state and no
 * candidate is added, and what it held is kept. Runs against a real
 * Postgres and a real DSLD label (214224, "Trans Fat 0 Gram(s)") served
 * byte for byte.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
const omega = realLabel(214224);
/** Ravage Fruit Punch, whose blends DSLD lists with their members as forms (decision 1007, amended 2026-11-28). */
const ravage = realLabel(1179);

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  src = await startSourceServer();
  src.labelBodies.set(214224, omega);
  src.labelBodies.set(1179, ravage);
});

afterAll(async () => {
  await src?.close();
  await pool?.end();
  await db?.drop();
});

/** What the rule before decision 1400 wrote for this label: Trans Fat undisclosed, units as DSLD spells them. */
async function asTheOldRuleRead(stateId: string): Promise<void> {
  await pool.query(`UPDATE declared_ingredients SET amount = NULL, unit = NULL WHERE state_id = $1 AND amount = 0`, [stateId]);
  await pool.query(`UPDATE declared_ingredients SET unit = CASE unit WHEN 'g' THEN 'Gram(s)' WHEN 'Calories' THEN 'Calorie(s)' ELSE unit END WHERE state_id = $1`, [stateId]);
}

const lines = async (stateId: string) =>
  (await pool.query(`SELECT declared_name, amount, unit FROM declared_ingredients WHERE state_id = $1 AND declared_name IN ('Calories', 'Total Fat', 'Trans Fat') ORDER BY position`, [stateId])).rows;

/** A product whose real DSLD label `labelId` the monitor reads on 2026-03-02: the monitor, the source and its one state. */
async function firstReading(name: string, labelId: number) {
  const settings = testSettings({ DSLD_BASE_URL: `${src.origin}/dsld/v9` });
  const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
  const productId = await product(pool, name);
  const source = await addSource(pool, { product_id: productId, kind: 'dsld_label', url: src.labelUrl(labelId) }, policyOf(settings), localhostOnly);
  day('2026-03-02');
  expect(await runOnce(deps, { productId })).toMatchObject({ valid: 1, states_created: 1 });
  const state = (await pool.query<{ state_id: string; observed_from: string; observed_to: string }>(`SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1`, [productId])).rows[0]!;
  return { deps, day, productId, source, state };
}

describe('re-derivation', () => {
  it('reads a state the old rule read again from its kept bytes, in place, with what it held kept and no candidate', async () => {
    const { productId, state } = await firstReading('Omega-3D Lemon', 214224);
    expect(await lines(state.state_id)).toEqual([
      { declared_name: 'Calories', amount: 20, unit: 'Calories' },
      { declared_name: 'Total Fat', amount: 2, unit: 'g' },
      { declared_name: 'Trans Fat', amount: 0, unit: 'g' },
    ]);

    await asTheOldRuleRead(state.state_id);
    const names = new IngredientNames(pool);
    const dry = await rederiveStates(pool, names, { by: 'test', dryRun: true });
    expect(dry).toMatchObject({ examined: 1, rederived: [state.state_id], unchanged: 0, record_version: null });
    expect((await lines(state.state_id))[2]).toEqual({ declared_name: 'Trans Fat', amount: null, unit: null });

    const done = await rederiveStates(pool, names, { by: 'test' });
    expect(done).toMatchObject({ examined: 1, rederived: [state.state_id], not_rederivable: [], conflicts: [], record_version: expect.stringMatching(/^rv_/) });
    expect(await lines(state.state_id)).toEqual([
      { declared_name: 'Calories', amount: 20, unit: 'Calories' },
      { declared_name: 'Total Fat', amount: 2, unit: 'g' },
      { declared_name: 'Trans Fat', amount: 0, unit: 'g' },
    ]);
    const kept = await pool.query<{ before: { ingredients: Array<{ declared_name: string; amount: number | null }> }; rederived_by: string }>(`SELECT before, rederived_by FROM state_rederivations WHERE state_id = $1`, [state.state_id]);
    expect(kept.rows).toHaveLength(1);
    expect(kept.rows[0]!.rederived_by).toBe('test');
    expect(kept.rows[0]!.before.ingredients.find((i) => i.declared_name === 'Trans Fat')?.amount).toBeNull();
    const after = await pool.query(`SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1`, [productId]);
    expect(after.rows).toEqual([state]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM candidates WHERE product_id = $1`, [productId])).rows[0].n).toBe(0);

    // Run again: nothing left to re-derive.
    expect(await rederiveStates(pool, names, { by: 'test' })).toMatchObject({ examined: 1, rederived: [], unchanged: 1, record_version: null });
  });

  it('the monitor reading the same bytes again re-derives the state instead of opening a change', async () => {
    const { deps, day, productId, source, state } = await firstReading('Omega-3D Lemon Again', 214224);
    await asTheOldRuleRead(state.state_id);

    // A week later, the same bytes again (both a full read and a 304 re-read of the kept bytes).
    day('2026-03-09');
    expect(await runOnce(deps, { productId })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    await pool.query(`UPDATE sources SET etag = NULL, last_modified = NULL WHERE source_id = $1`, [source.source_id]);
    await asTheOldRuleRead(state.state_id);
    day('2026-03-16');
    expect(await runOnce(deps, { productId })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });

    const states = await pool.query(`SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1`, [productId]);
    expect(states.rows).toEqual([{ state_id: state.state_id, observed_from: '2026-03-02', observed_to: '2026-03-16' }]);
    expect((await lines(state.state_id))[2]).toEqual({ declared_name: 'Trans Fat', amount: 0, unit: 'g' });
    expect((await pool.query(`SELECT count(*)::int AS n FROM state_rederivations WHERE state_id = $1 AND rederived_by = 'monitor'`, [state.state_id])).rows[0].n).toBe(2);
    expect((await pool.query(`SELECT count(*)::int AS n FROM candidates WHERE product_id = $1`, [productId])).rows[0].n).toBe(0);
    const reasons = await pool.query<{ reason: string | null }>(`SELECT reason FROM monitoring_checks WHERE source_id = $1 ORDER BY check_id`, [source.source_id]);
    expect(reasons.rows.at(-1)!.reason).toMatch(/re-derived/);
  });

  it("a state read when a blend's members listed as its forms were dropped gets them back, by the operator step and by the monitor, with no candidate", async () => {
    const { deps, day, productId, state: { state_id: stateId } } = await firstReading('Ravage Fruit Punch', 1179);
    const members = async () =>
      (await pool.query<{ blend: string; declared_name: string }>(
        `SELECT b.name AS blend, d.declared_name FROM declared_ingredients d JOIN declared_blends b ON b.blend_id = d.blend_id WHERE d.state_id = $1 ORDER BY d.position`, [stateId])).rows;
    const blends = async () => (await pool.query<{ name: string }>(`SELECT name FROM declared_blends WHERE state_id = $1 ORDER BY blend_id`, [stateId])).rows.map((r) => r.name);
    const read = { members: await members(), blends: await blends() };
    expect(read.members).toHaveLength(22);
    expect(read.members.slice(0, 2)).toEqual([{ blend: 'Muscle Buffering System', declared_name: 'Astaxanthin' }, { blend: 'Muscle Buffering System', declared_name: 'CarnoSyn' }]);
    expect(read.blends).toContain('Caffeine Blend');
    /** What the rule before read of this label: the four blends with their totals, and not one member. */
    const asTheRuleBeforeRead = async () => {
      await pool.query(`DELETE FROM declared_ingredients WHERE state_id = $1 AND blend_id IS NOT NULL`, [stateId]);
      await pool.query(`DELETE FROM declared_blends WHERE state_id = $1 AND name = 'Caffeine Blend'`, [stateId]);
    };

    await asTheRuleBeforeRead();
    expect(await rederiveStates(pool, new IngredientNames(pool), { by: 'test', productId })).toMatchObject({ examined: 1, rederived: [stateId], conflicts: [], not_rederivable: [] });
    expect({ members: await members(), blends: await blends() }).toEqual(read);

    await asTheRuleBeforeRead();
    day('2026-03-09');
    expect(await runOnce(deps, { productId })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    expect({ members: await members(), blends: await blends() }).toEqual(read);
    expect((await pool.query(`SELECT count(*)::int AS n FROM candidates WHERE product_id = $1`, [productId])).rows[0].n).toBe(0);
    expect((await pool.query(`SELECT count(*)::int AS n FROM history_states WHERE product_id = $1`, [productId])).rows[0].n).toBe(1);
  });
});
