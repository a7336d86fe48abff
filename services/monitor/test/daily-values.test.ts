import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RunningService } from '@evidence-record/platform';
import { IngredientNames, addSource, policyOf, rederiveStates, runOnce, type MonitorSettings } from '@evidence-record/sources';
import type { SourceServer } from '@evidence-record/demo-sources';
import { answerOf, localhostOnly, product, realLabel, recordWorld, testMonitor } from './support';

/**
 * The % Daily Value a label prints beside a line (decision 2440): kept with the line as printed, shown in the
 * product record, never read as an amount and never compared, and given to states read before by re-derivation
 * from their kept bytes. Real DSLD labels 15923 (Emergen-C Multi Vitamin+, whose vitamins are printed only as
 * percents) and 295773 (Transparent Labs Bulk, a pre-workout: "<1%" beside its carbohydrates, the footnote beside
 * its actives) are served byte for byte. Real Postgres throughout.
 */
const world = recordWorld();
let pool: Pool;
let src: SourceServer;
let settings: MonitorSettings;
let record: RunningService;
const adults = 'Adults and children 4 or more years of age';

beforeAll(() => {
  ({ pool, src, record, settings } = world);
  src.labelBodies.set(15923, realLabel(15923));
  src.labelBodies.set(295773, realLabel(295773));
});

type Value = { declared_name: string; amount: number | null; unit: string | null; amount_disclosed?: boolean; daily_values?: unknown[] };
type ProductRecord = { verified_facts: Array<{ kind: string; value: Value }>; limitations: string[]; record_version: string };
const linesOf = async (productId: string) =>
  (await answerOf<ProductRecord>(record, `/products/${productId}`)).verified_facts.filter((f) => f.kind === 'declared_ingredient').map((f) => f.value);
const lineOf = async (productId: string, name: string) => (await linesOf(productId)).find((v) => v.declared_name === name);
/** The product's lines as a monitor before decision 2440 wrote them: no daily values read. */
const asBeforeDecision2440 = (productId: string) =>
  pool.query(`UPDATE declared_ingredients d SET daily_values = NULL FROM history_states h WHERE h.state_id = d.state_id AND h.product_id = $1`, [productId]);

describe('the % Daily Value a label prints beside a line', () => {
  it('is shown as printed beside the line, never as its amount', async () => {
    const multi = await product(pool, 'Emergen-C Real 15923');
    await addSource(pool, { product_id: multi, kind: 'dsld_label', url: src.labelUrl(15923) }, policyOf(settings), localhostOnly);
    const bulk = await product(pool, 'Bulk Real 295773');
    await addSource(pool, { product_id: bulk, kind: 'dsld_label', url: src.labelUrl(295773) }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-03');
    expect(await runOnce(deps, { productId: multi })).toMatchObject({ valid: 1, states_created: 1 });
    expect(await runOnce(deps, { productId: bulk })).toMatchObject({ valid: 1, states_created: 1 });

    // "Vitamin C 833%": the label gives a percent, not an amount; the line keeps amount null and the percent beside it.
    expect(await lineOf(multi, 'Vitamin C')).toMatchObject({ amount: null, unit: null, amount_disclosed: false, daily_values: [{ percent: 833, target_group: adults }] });
    expect(await lineOf(multi, 'Sodium')).toMatchObject({ amount: 60, unit: 'mg', daily_values: [{ percent: 3, target_group: adults }] });
    expect(await lineOf(bulk, 'Total Carbohydrates')).toMatchObject({ daily_values: [{ percent: 1, operator: '<', target_group: adults }] });
    expect(await lineOf(bulk, 'Citrulline Malate')).toMatchObject({ daily_values: [{ percent: null, target_group: adults, note: 'Daily Value not established' }] });
    // A line that prints none carries none.
    expect(await lineOf(multi, 'Calories')).not.toHaveProperty('daily_values');
  });

  it('is given to a state read before from its kept bytes, with no new state and no candidate', async () => {
    const multi = (await pool.query<{ product_id: string }>(`SELECT product_id FROM products WHERE name = 'Emergen-C Real 15923'`)).rows[0]!.product_id;
    const shown = await linesOf(multi);
    await asBeforeDecision2440(multi);
    // The answer shows none rather than guess.
    expect((await linesOf(multi)).some((v) => v.daily_values !== undefined)).toBe(false);
    const names = new IngredientNames(pool);
    expect(await rederiveStates(pool, names, { by: 'test', productId: multi, dryRun: true })).toMatchObject({ examined: 1, rederived: [expect.any(String)], review: [], record_version: null });
    expect((await linesOf(multi)).some((v) => v.daily_values !== undefined)).toBe(false);
    const done = await rederiveStates(pool, names, { by: 'test', productId: multi });
    expect(done).toMatchObject({ examined: 1, rederived: [expect.any(String)], review: [], record_version: expect.stringMatching(/^rv_/) });
    expect(await linesOf(multi)).toEqual(shown);
    expect(await rederiveStates(pool, names, { by: 'test', productId: multi })).toMatchObject({ rederived: [], unchanged: 1, record_version: null });

    // Without the step, the monitor's next reading of the same bytes gives them back the same way.
    await asBeforeDecision2440(multi);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-04');
    expect(await runOnce(deps, { productId: multi })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    expect(await linesOf(multi)).toEqual(shown);
  });

  it('changing alone is not a change of the label: no state and no candidate', async () => {
    const bulk = (await pool.query<{ product_id: string }>(`SELECT product_id FROM products WHERE name = 'Bulk Real 295773'`)).rows[0]!.product_id;
    // The real record with one percent changed here (so not real): "<1%" becomes "2%".
    const changed = realLabel(295773).replace(/"operator":\s*"<",\s*"percent":\s*1,/, '"operator": "=", "percent": 2,');
    expect(changed).not.toBe(realLabel(295773));
    src.labelBodies.set(295773, changed);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-10');
    expect(await runOnce(deps, { productId: bulk })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM history_states WHERE product_id = $1`, [bulk]);
    expect(rows[0]).toEqual({ n: 1 });
  });
});
