import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RunningService } from '@evidence-record/platform';
import { applyIngredientCatalogue, approveCandidate, computeEditionDocument, releaseSignals } from '@evidence-record/curation';
import { addSource, policyOf, runOnce, type MonitorSettings } from '@evidence-record/sources';
import { dsldLabel, type SourceServer } from '@evidence-record/demo-sources';
import { answerOf, localhostOnly, product, realLabel, recordWorld, testMonitor } from './support';

/**
 * An amount a label states as a bound (decision 2430): "Protein >1 g", "Total Sugars <1 g". The Record always kept
 * the operator with the line; answers now show it, and nothing calculates with the bound as if it were the amount.
 * Real DSLD labels 230132 (OLLY Bedtime Beauty, "Protein >1 Gram(s)") and 306183 (Nutricost Performance BCAA+,
 * "Total Sugars <1 Gram(s)") are served byte for byte; the caffeine labels of the second test are composed here from
 * the demo's label builder (one of them given a "<" here), not real. Real Postgres throughout.
 */
const world = recordWorld();
let pool: Pool;
let src: SourceServer;
let settings: MonitorSettings;
let record: RunningService;

beforeAll(async () => {
  ({ pool, src, record, settings } = world);
  src.labelBodies.set(230132, realLabel(230132));
  src.labelBodies.set(306183, realLabel(306183));
  // The two benchmark ingredients, so the composed labels' lines are identified as they would be in the Record; the
  // rest of the catalogue is applied by the last test (until then the real labels' panel lines are unidentified).
  await pool.query(`INSERT INTO ingredients (ingredient_id, name) VALUES ('ing_caffeine', 'Caffeine'), ('ing_beta_alanine', 'Beta-Alanine')`);
  await pool.query(
    `INSERT INTO ingredient_synonyms (synonym, synonym_norm, ingredient_id) VALUES ('Caffeine Anhydrous', 'caffeine anhydrous', 'ing_caffeine'), ('Beta-Alanine', 'beta-alanine', 'ing_beta_alanine')`,
  );
});

type Value = { declared_name: string; amount: number | null; unit: string | null; operator?: string; amount_disclosed?: boolean };
type ProductRecord = { verified_facts: Array<{ kind: string; value: Value }>; limitations: string[] };
type Economics = { calculations: Array<{ name: string; unit: string; result: number | null }>; limitations: string[] };
type Comparison = { comparison: { ingredients: Array<{ name: string; declared: Array<{ product_id: string; declared: boolean; amount: number | null; unit: string | null; operator?: string }> }> }; limitations: string[] };

const lineOf = async (productId: string, name: string) =>
  (await answerOf<ProductRecord>(record, `/products/${productId}`)).verified_facts.find((f) => f.kind === 'declared_ingredient' && f.value.declared_name === name)?.value;

describe('an amount a label states as a bound', () => {
  it('is shown with its operator in the product record and the comparison, and never priced per gram', async () => {
    const gummies = await product(pool, 'Bedtime Beauty Real 230132');
    await addSource(pool, { product_id: gummies, kind: 'dsld_label', url: src.labelUrl(230132) }, policyOf(settings), localhostOnly);
    src.offers.set('shelfwise/gummies', { name: 'Bedtime Beauty', price: 14.99, listPrice: 14.99 });
    await addSource(pool, { product_id: gummies, kind: 'offer_page', url: src.offerUrl('shelfwise', 'gummies'), retailer: 'Shelfwise' }, policyOf(settings), localhostOnly);
    const bcaa = await product(pool, 'BCAA+ Real 306183');
    await addSource(pool, { product_id: bcaa, kind: 'dsld_label', url: src.labelUrl(306183) }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-03');
    expect(await runOnce(deps, { productId: gummies })).toMatchObject({ valid: 2, states_created: 1, prices_recorded: 1 });
    expect(await runOnce(deps, { productId: bcaa })).toMatchObject({ valid: 1, states_created: 1 });

    // The label's ">1 g" and "<1 g", never "1 g"; an amount stated as itself carries no operator.
    expect(await lineOf(gummies, 'Protein')).toEqual({ declared_name: 'Protein', amount: 1, unit: 'g', operator: '>', ingredient_id: null, blend: null, amount_disclosed: true });
    expect(await lineOf(bcaa, 'Total Sugars')).toMatchObject({ amount: 1, unit: 'g', operator: '<' });
    expect(await lineOf(bcaa, 'Total Carbohydrates')).not.toHaveProperty('operator');
    const answer = await answerOf<ProductRecord>(record, `/products/${gummies}`);
    expect(answer.verified_facts.filter((f) => f.value.operator !== undefined).map((f) => f.value.declared_name)).toEqual(['Protein']);
    expect(answer.limitations).toContainEqual(expect.stringMatching(/^1 declared amount is stated as a bound .*"<".* calculates nothing from it\.$/));
    expect((await answerOf<ProductRecord>(record, `/products/${bcaa}`)).limitations.filter((l) => l.includes('stated as a bound'))).toHaveLength(1);

    // 2 gummies a serving, 20 servings: $0.7495 a serving. The (here unidentified) lines the label states at 1 g or
    // more are priced per gram; Protein ">1 g" is not a gram of protein, so it is not (before decision 2430 the bound
    // passed the 1 g minimum and was priced at $0.7495 per gram).
    const economics = await answerOf<Economics>(record, `/products/${gummies}/serving-economics`);
    expect(economics.calculations.find((c) => c.name === 'price_per_serving')?.result).toBe(0.7495);
    expect(economics.calculations.filter((c) => c.name === 'price_per_gram_of_ingredient').map((c) => [c.unit, c.result])).toEqual([
      ['USD per gram of Total Carbohydrates', 0.2498],
      ['USD per gram of Total Sugars', 0.3748],
      ['USD per gram of Added Sugars', 0.3748],
    ]);
    expect(economics.limitations).toContainEqual('No price per gram is calculated for an amount the label states as a bound (for example "<1 g"): the bound is not a quantity.');

    // Side by side, each cell as its label states it.
    const res = await fetch(`http://127.0.0.1:${record.port}/api/v1/products/compare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product_ids: [gummies, bcaa] }) });
    expect(res.status).toBe(200);
    const compared = (await res.json()) as Comparison;
    const sugars = compared.comparison.ingredients.find((r) => r.declared.some((d) => d.product_id === bcaa && d.operator === '<'));
    expect(sugars?.declared.find((d) => d.product_id === bcaa)).toMatchObject({ declared: true, amount: 1, unit: 'g', operator: '<' });
    const protein = compared.comparison.ingredients.find((r) => r.declared.some((d) => d.product_id === gummies && d.operator === '>'));
    expect(protein?.name).toMatch(/protein/i);
    expect(compared.limitations).toContainEqual(expect.stringMatching(/^2 declared amounts are stated as a bound/));
  });

  it("is a change when a label starts stating one, worded as the label states it, and the ledger neither counts it as the amount nor shows it as one", async () => {
    // Composed (not real): caffeine labels from the demo's builder; the later label of the second product states its
    // caffeine as "<5 mg", given here.
    const withCaffeine = (id: number, name: string, mg: number, operator = '=') => {
      const label = dsldLabel({ id, brand: 'Boundbrand Labs', name, caffeineMg: mg });
      for (const row of label.ingredientRows as Array<{ name: string; quantity: Array<{ operator: string }> }>) if (row.name === 'Caffeine Anhydrous') row.quantity[0]!.operator = operator;
      return JSON.stringify(label);
    };
    src.labelBodies.set(9501, withCaffeine(9501, 'Stated', 200));
    src.labelBodies.set(9502, withCaffeine(9502, 'Bounded', 5));
    const stated = await product(pool, 'Boundbrand Stated');
    const bounded = await product(pool, 'Boundbrand Bounded');
    await addSource(pool, { product_id: stated, kind: 'dsld_label', url: src.labelUrl(9501) }, policyOf(settings), localhostOnly);
    await addSource(pool, { product_id: bounded, kind: 'dsld_label', url: src.labelUrl(9502) }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-09-01');
    expect(await runOnce(deps, { productId: stated })).toMatchObject({ valid: 1, states_created: 1 });
    expect(await runOnce(deps, { productId: bounded })).toMatchObject({ valid: 1, states_created: 1 });
    expect(await lineOf(bounded, 'Caffeine Anhydrous')).not.toHaveProperty('operator');

    // "5 mg" becoming "<5 mg" is a change of what the label declares: a new state and a candidate saying so.
    src.labelBodies.set(9502, withCaffeine(9502, 'Bounded', 5, '<'));
    day('2026-09-08');
    expect(await runOnce(deps, { productId: bounded })).toMatchObject({ valid: 1, states_created: 1, candidates_opened: 1 });
    expect(await lineOf(bounded, 'Caffeine Anhydrous')).toMatchObject({ amount: 5, unit: 'mg', operator: '<' });
    const { rows: candidates } = await pool.query<{ candidate_id: number; summary: string }>(`SELECT candidate_id, summary FROM candidates WHERE product_id = $1`, [bounded]);
    expect(candidates).toEqual([{ candidate_id: expect.any(Number), summary: expect.stringContaining('Caffeine Anhydrous: 5 mg → < 5 mg') }]);
    await approveCandidate(pool, { candidate_id: candidates[0]!.candidate_id, reviewer: 'tester', note: 'both labels read' });
    await releaseSignals(pool, { releasedBy: 'tester', publicBaseUrl: 'https://record.example', clock: () => new Date('2026-09-10T12:00:00Z') });

    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const edition = await computeEditionDocument(client, { edition_id: 'ed_2026_09', period: '2026-09', status: 'open' }, '2026-09-20');
      await client.query('ROLLBACK');
      // The benchmark counts only caffeine stated as an amount: "<5 mg" is not 5 mg.
      const median = edition.category_benchmarks.find((x) => x.name === 'Median declared caffeine per serving');
      expect(median).toMatchObject({ value: 200, cohort: { denominator: 1 } });
      expect(median?.cohort.description).toMatch(/stated only as a bound such as "<1 g", is not counted/);
      // The changed product's label, in the edition's comparison, as it states its caffeine.
      const compared = edition.product_comparison.find((p) => p.product_id === bounded);
      expect(compared?.declared.find((l) => l.declared_name === 'Caffeine Anhydrous')).toEqual({ ingredient_id: 'ing_caffeine', declared_name: 'Caffeine Anhydrous', amount: 5, unit: 'mg', operator: '<' });
      // A line stated as itself carries no operator, so a document without bounds reads as it did before.
      expect(compared?.declared.find((l) => l.declared_name === 'Beta-Alanine')).toEqual({ ingredient_id: 'ing_beta_alanine', declared_name: 'Beta-Alanine', amount: 3200, unit: 'mg' });
    } finally {
      client.release();
    }
  });

  it("prices no nutrition panel figure per gram, nor looks one up as an ingredient, once the catalogue identifies it as one (decision 0202, amended)", async () => {
    const gummies = (await pool.query<{ product_id: string }>(`SELECT product_id FROM products WHERE name = 'Bedtime Beauty Real 230132'`)).rows[0]!.product_id;
    expect(await applyIngredientCatalogue(pool, 'test')).toMatchObject({ lines_reidentified: expect.any(Number) });
    expect(await lineOf(gummies, 'Total Carbohydrates')).toMatchObject({ ingredient_id: 'ing_total_carbohydrate', amount: 3, unit: 'g' });
    expect(await lineOf(gummies, 'Protein')).toMatchObject({ ingredient_id: 'ing_protein', operator: '>' });
    // "Total Carbohydrates 3 g", "Total Sugars 2 g" and "Added Sugars 2 g" say what the serving holds; they are no
    // ingredient whose unit cost the serving's price could stand for.
    const economics = await answerOf<Economics>(record, `/products/${gummies}/serving-economics`);
    expect(economics.calculations.find((c) => c.name === 'price_per_serving')?.result).toBe(0.7495);
    expect(economics.calculations.filter((c) => c.name === 'price_per_gram_of_ingredient')).toEqual([]);

    // Nor are they ingredients a research or regulatory question about the product looks up and charges for: the
    // gummies' research context is about its actives, and the budget header names them only.
    for (const path of ['/research/context', '/regulatory/context']) {
      const res = await fetch(`http://127.0.0.1:${record.port}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product_id: gummies }) });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { coverage: { ingredients: Array<{ ingredient_id: string }> }; limitations: string[] };
      const looked = answer.coverage.ingredients.map((i) => i.ingredient_id);
      expect(looked).toContain('ing_l_theanine');
      expect(looked.filter((id) => ['ing_calories', 'ing_total_carbohydrate', 'ing_total_sugars', 'ing_added_sugars', 'ing_protein'].includes(id))).toEqual([]);
      expect(answer.limitations).toContainEqual(
        "The label's nutrition panel figures are not ingredients and are not looked up (nor counted against the daily ingredient budget): Calories, Total Carbohydrates, Total Sugars, Added Sugars, Protein.",
      );
      const charged = res.headers.get('x-budget-entities') ?? '';
      expect(charged).toContain('ing_l_theanine');
      expect(charged).not.toMatch(/ing_(calories|total_carbohydrate|total_sugars|added_sugars|protein)\b/);
    }
  });
});
