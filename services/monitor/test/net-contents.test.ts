import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RunningService } from '@evidence-record/platform';
import { computeEditionDocument, declaredLines, labelOf } from '@evidence-record/curation';
import { IngredientNames, addSource, policyOf, rederiveStates, runOnce, type MonitorSettings } from '@evidence-record/sources';
import { dsldLabel, type SourceServer } from '@evidence-record/demo-sources';
import { answerOf, localhostOnly, product, realLabel, recordWorld, testMonitor } from './support';

/**
 * Net contents (decision 2410): kept as the label declares them, a serving
 * change when they change, gained by re-derivation (never a change) by states
 * read before the Record read them, and divided by the serving size into
 * servings per container where the label declares none, in the record
 * service's answers and in the month's ledger edition. Real DSLD labels 19173
 * (60 caplets, servingsPerContainer null) and 1179 (20 servings declared) are
 * served byte for byte; the capsule labels of the second test are composed
 * here from the demo's label builder, not real. Real Postgres throughout.
 */
const world = recordWorld();
let pool: Pool;
let src: SourceServer;
let settings: MonitorSettings;
let record: RunningService;

beforeAll(() => {
  ({ pool, src, record, settings } = world);
  src.labelBodies.set(19173, realLabel(19173));
  src.labelBodies.set(1179, realLabel(1179));
});

type Calc = { name: string; result: number | null; operands: Array<{ name: string; value: unknown; source: string | null }>; note?: string | null };
type Economics = { calculations: Calc[]; commercial_facts: Array<{ servings_per_container: number | null }>; limitations: string[]; confidence: { basis: string } };
type ProductRecord = { verified_facts: Array<{ kind: string; value: { declared_name: string; amount: number | null; unit: string | null; blend?: string | null } }> };

const netContentsOf = async (productId: string) =>
  (await pool.query<{ net_contents: unknown }>(`SELECT net_contents FROM history_states WHERE product_id = $1 ORDER BY observed_from, state_id`, [productId])).rows.map((r) => r.net_contents);
const candidates = async (productId: string) =>
  (await pool.query(`SELECT dimension, summary FROM candidates WHERE product_id = $1 ORDER BY candidate_id`, [productId])).rows;

describe('net contents', () => {
  it('price a real label that declares no servings per container by its net contents ÷ its serving size, and say so', async () => {
    const p = await product(pool, 'Caplets Real 19173');
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(19173) }, policyOf(settings), localhostOnly);
    src.offers.set('shelfwise/caplets', { name: 'Caplets', price: 29.99, listPrice: 29.99 });
    await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('shelfwise', 'caplets'), retailer: 'Shelfwise' }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 2, valid: 2, states_created: 1, prices_recorded: 1 });
    expect(await netContentsOf(p)).toEqual([[{ quantity: 60, unit: 'Caplet(s)' }]]);

    const facts = (await answerOf<ProductRecord>(record, `/products/${p}`)).verified_facts.filter((f) => f.kind === 'serving_configuration');
    expect(facts.map((f) => f.value)).toEqual([
      { declared_name: 'serving size', amount: 1, unit: 'Caplet(s)' },
      { declared_name: 'net contents', amount: 60, unit: 'Caplet(s)' },
    ]);

    const economics = await answerOf<Economics>(record, `/products/${p}/serving-economics`);
    const perServing = economics.calculations.find((c) => c.name === 'price_per_serving')!;
    expect(perServing.result).toBe(0.4998);
    expect(perServing.operands[1]).toMatchObject({
      name: 'servings_per_container',
      value: 60,
      source: 'derived from the label state matched to the price observation: net contents 60 Caplet(s) ÷ serving size 1 Caplet(s)',
    });
    expect(perServing.note).toBe("The label declares no servings per container; 60 is the service's net contents 60 Caplet(s) ÷ serving size 1 Caplet(s).");
    expect(economics.limitations).toContainEqual(expect.stringMatching(/derives them as its net contents ÷ its serving size/));
    expect(economics.confidence.basis).toMatch(/derived from the declared net contents and serving size/);
    // What the price observation says stays what was declared: none.
    expect(economics.commercial_facts[0]!.servings_per_container).toBeNull();

    // The month's ledger edition counts the price too, by its label (before, only prices carrying their own servings
    // counted, and no price the monitor reads from a retailer page carries any). Real label 1179 declares 20 servings.
    const declared = await product(pool, 'Ravage Real 1179');
    await addSource(pool, { product_id: declared, kind: 'dsld_label', url: src.labelUrl(1179) }, policyOf(settings), localhostOnly);
    src.offers.set('shelfwise/ravage', { name: 'Ravage', price: 39.99, listPrice: 39.99 });
    await addSource(pool, { product_id: declared, kind: 'offer_page', url: src.offerUrl('shelfwise', 'ravage'), retailer: 'Shelfwise' }, policyOf(settings), localhostOnly);
    expect(await runOnce(deps, { productId: declared })).toMatchObject({ valid: 2, prices_recorded: 1 });
    // Its blends list their members as forms (decision 1007, amended 2026-11-28): the product record names each
    // inside its blend, without an amount, beside the blend's declared total.
    const ravageFacts = (await answerOf<ProductRecord>(record, `/products/${declared}`)).verified_facts;
    expect(ravageFacts).toContainEqual(expect.objectContaining({ kind: 'proprietary_blend', value: expect.objectContaining({ declared_name: 'Muscle Buffering System', amount: 3.2, unit: 'g' }) }));
    expect(ravageFacts).toContainEqual(expect.objectContaining({
      kind: 'declared_ingredient',
      value: expect.objectContaining({ declared_name: 'CarnoSyn', amount: null, unit: null, blend: 'Muscle Buffering System', amount_disclosed: false }),
    }));
    expect(ravageFacts.filter((f) => f.kind === 'declared_ingredient' && f.value.blend === 'ATP Optimizing Creatine Module')).toHaveLength(10);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const edition = await computeEditionDocument(client, { edition_id: 'ed_2026_08', period: '2026-08', status: 'open' }, '2026-08-20');
      await client.query('ROLLBACK');
      expect(edition.serving_economics.map(({ product_id, servings_per_container, servings_source, price_per_serving_usd }) => ({ product_id, servings_per_container, servings_source, price_per_serving_usd }))).toEqual(
        expect.arrayContaining([
          { product_id: p, servings_per_container: 60, servings_source: 'derived: net contents 60 Caplet(s) ÷ serving size 1 Caplet(s)', price_per_serving_usd: 0.5 },
          { product_id: declared, servings_per_container: 20, servings_source: 'label state', price_per_serving_usd: 2 },
        ]),
      );
      expect(edition.category_benchmarks.find((b) => b.name === 'Median list price per serving')?.cohort.denominator).toBe(2);
    } finally {
      client.release();
    }
  });

  it('are gained by re-derivation without a change, and a change of them is a serving change worded as one', async () => {
    // Composed here (not real): a capsule label that declares no servings per container.
    const capsules = (count: number, version: string) => ({
      ...dsldLabel({ id: 9301, brand: 'Testbrand Labs', name: 'Capsule Focus', caffeineMg: 100, productVersionCode: version }),
      servingsPerContainer: null,
      servingSizes: [{ order: 1, minQuantity: 1, maxQuantity: 1, unit: 'Capsule(s)', inSFB: true }],
      netContents: [{ order: 1, quantity: count, unit: 'Vegetable Capsule(s)', display: `${count} Vegetable Capsule(s)` }],
    });
    const p = await product(pool, 'Capsule Focus');
    src.labelBodies.set(9301, JSON.stringify(capsules(60, 'A')));
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(9301) }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    const sixty = [{ quantity: 60, unit: 'Vegetable Capsule(s)' }];
    day('2026-08-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 1 });
    expect(await netContentsOf(p)).toEqual([sixty]);

    // As a monitor before decision 2410 wrote it: no net contents. Reading the same bytes re-derives them.
    const asBefore = () => pool.query(`UPDATE history_states SET net_contents = '[]' WHERE product_id = $1`, [p]);
    await asBefore();
    day('2026-08-04');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    expect(await netContentsOf(p)).toEqual([sixty]);
    // So does the operator step.
    await asBefore();
    const names = new IngredientNames(pool);
    expect(await rederiveStates(pool, names, { by: 'test', productId: p })).toMatchObject({ examined: 1, rederived: [expect.stringMatching(/^hs_/)] });
    expect(await netContentsOf(p)).toEqual([sixty]);

    // Other bytes that say the same, read against a state that holds none: the same label, not a change.
    await asBefore();
    src.labelBodies.set(9301, JSON.stringify(capsules(60, 'B')));
    day('2026-08-05');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    await rederiveStates(pool, names, { by: 'test', productId: p });

    // The bottle grows: a new state and one serving candidate that names it.
    src.labelBodies.set(9301, JSON.stringify(capsules(90, 'C')));
    day('2026-08-10');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 1, candidates_opened: 1 });
    expect(await netContentsOf(p)).toEqual([sixty, [{ quantity: 90, unit: 'Vegetable Capsule(s)' }]]);
    expect(await candidates(p)).toEqual([{ dimension: 'serving', summary: 'Net contents: 60 Vegetable Capsule(s) → 90 Vegetable Capsule(s)' }]);
    // The console's label diff shows them beside the serving.
    const [older, newer] = (await pool.query<{ state_id: string }>(`SELECT state_id FROM history_states WHERE product_id = $1 ORDER BY observed_from`, [p])).rows;
    expect(declaredLines(await labelOf(pool, older!.state_id)).slice(0, 3)).toEqual(['Serving: 1 Capsule(s)', 'Servings per container: ?', 'Net contents: 60 Vegetable Capsule(s)']);
    expect(declaredLines(await labelOf(pool, newer!.state_id))[2]).toBe('Net contents: 90 Vegetable Capsule(s)');
    // The product's history shows each state's net contents beside its serving.
    const history = await answerOf<{ history: Array<{ state_id: string; net_contents?: unknown }> }>(record, `/products/${p}/history`);
    expect(history.history.map((s) => [s.state_id, s.net_contents])).toEqual([
      [older!.state_id, sixty],
      [newer!.state_id, [{ quantity: 90, unit: 'Vegetable Capsule(s)' }]],
    ]);

    // Both states as an older monitor wrote them: re-derivation restores both, and since only net contents were
    // gained, it lists no candidate for a curator to review, though one names both states.
    await asBefore();
    expect(await rederiveStates(pool, names, { by: 'test', productId: p })).toMatchObject({ rederived: [older!.state_id, newer!.state_id], review: [] });
    expect(await netContentsOf(p)).toEqual([sixty, [{ quantity: 90, unit: 'Vegetable Capsule(s)' }]]);
  });
});
