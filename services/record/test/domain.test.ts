import { describe, expect, it } from 'vitest';
import { Calculation } from '@evidence-record/contract';
import { commercialFact, grams, newestPerBasis, pricePerGramOf, pricePerServing, servingsFor } from '../src/domain/economics';
import { neutralDescription, readsAsVerdict, whatItIs } from '../src/domain/filings';
import { boundedAmountCount, declaredFacts, declaredZeroCount, historyState, servingFacts, undisclosedAmountCount } from '../src/domain/facts';
import { limitation } from '../src/domain/limitations';
import { mergeDeclaring, rankSearch, recogniseIngredients, significantTokens } from '../src/domain/search-ranking';
import type { PriceRow } from '../src/queries/prices';
import type { DeclaredRow, StateRow } from '../src/queries/label';

const price = (over: Partial<PriceRow> = {}): PriceRow => ({
  product_id: 'prd_aaaaaaaaaaaa',
  observed_at: '2026-05-01',
  retailer: 'Shelfwise Supply',
  price_cents: 4499,
  price_basis: 'list',
  servings_per_container: null,
  state_servings: 30,
  state_serving_size: 10,
  state_serving_unit: 'g',
  state_net_contents: [],
  source_url: 'https://shelfwise.example/p/1',
  source_variant: null,
  ...over,
});

/** A latest label state that declares `servings` per container. */
const declaring = (servings: number | null) => ({ servings_per_container: servings, serving_size: 10, serving_unit: 'g', net_contents: [] });

describe('serving economics arithmetic', () => {
  it('price per serving is price / servings with its operands, date and basis', () => {
    const calc = pricePerServing(price(), servingsFor(price(), declaring(25)));
    expect(Calculation.parse(calc)).toEqual(calc);
    expect(calc.result).toBe(1.4997);
    expect(calc.as_of).toBe('2026-05-01');
    expect(calc.price_basis).toBe('list');
    expect(calc.operands.map((o) => [o.name, o.value])).toEqual([['price', 44.99], ['servings_per_container', 30]]);
    expect(calc.operands[1]!.source).toBe('label state matched to the price observation');
  });

  it('takes servings from the observation first, the matched state second, the latest state last', () => {
    expect(servingsFor(price({ servings_per_container: 20 }), declaring(25))).toEqual({ value: 20, source: 'price observation' });
    expect(servingsFor(price({ state_servings: null }), declaring(25))).toEqual({ value: 25, source: 'latest label state' });
    const none = pricePerServing(price({ state_servings: null }), servingsFor(price({ state_servings: null }), null));
    expect(none.result).toBeNull();
    expect(none.note).toMatch(/not calculated/i);
  });

  it('derives servings from net contents where a label declares none, and says so in the operand and the note', () => {
    // 60 caplets at 1 caplet a serving: DSLD's servingsPerContainer is null on such labels (real label 19173).
    const caplets = { state_servings: null, state_serving_size: 1, state_serving_unit: 'Caplet(s)', state_net_contents: [{ quantity: 60, unit: 'Caplet(s)' }] };
    const s = servingsFor(price(caplets), null);
    expect(s.value).toBe(60);
    expect(s.source).toBe('derived from the label state matched to the price observation: net contents 60 Caplet(s) ÷ serving size 1 Caplet(s)');
    const calc = pricePerServing(price(caplets), s);
    expect(Calculation.parse(calc)).toEqual(calc);
    expect(calc.result).toBe(0.7498);
    expect(calc.note).toBe("The label declares no servings per container; 60 is the service's net contents 60 Caplet(s) ÷ serving size 1 Caplet(s).");
    // A declaration always wins over a derivation, the matched state's over the latest's.
    expect(servingsFor(price({ ...caplets, state_servings: 45 }), null)).toEqual({ value: 45, source: 'label state matched to the price observation' });
    expect(servingsFor(price({ ...caplets, servings_per_container: 20 }), null).value).toBe(20);
    // Matched state neither declares nor derives: the latest state's derivation.
    const latest = { servings_per_container: null, serving_size: 2, serving_unit: 'Capsule(s)', net_contents: [{ quantity: 90, unit: 'Vegetable Capsule(s)' }] };
    expect(servingsFor(price({ state_servings: null }), latest)).toMatchObject({ value: 45, source: 'derived from the latest label state: net contents 90 Vegetable Capsule(s) ÷ serving size 2 Capsule(s)' });
    // A powder is never divided by its scoop.
    const powder = { servings_per_container: null, serving_size: 13, serving_unit: 'g', net_contents: [{ quantity: 390, unit: 'g' }] };
    expect(servingsFor(price({ state_servings: null }), powder)).toEqual({ value: null, source: null });
    expect(limitation.servingsDerived).toMatch(/not the label's/);
  });

  it('per gram only for ingredients declared at 1 g or more, converting units', () => {
    const perServing = pricePerServing(price(), servingsFor(price(), null));
    expect(grams(300, 'mg')).toBeCloseTo(0.3);
    expect(grams(250, 'mcg')).toBeCloseTo(0.00025);
    expect(grams(5, 'IU')).toBeNull();
    expect(grams(null, 'g')).toBeNull();
    expect(pricePerGramOf(perServing, { ingredient_id: 'ing_caffeine', declared_name: 'Caffeine Anhydrous', amount: 300, unit: 'mg' })).toBeNull();
    expect(pricePerGramOf(perServing, { ingredient_id: 'ing_x', declared_name: 'Blend member', amount: null, unit: null })).toBeNull();
    const creatine = pricePerGramOf(perServing, { ingredient_id: 'ing_creatine_monohydrate', declared_name: 'Creatine Monohydrate', amount: 5, unit: 'g' });
    expect(creatine?.result).toBe(0.2999);
    expect(creatine?.unit).toBe('USD per gram of Creatine Monohydrate');
    const citrulline = pricePerGramOf(perServing, { ingredient_id: 'ing_l_citrulline', declared_name: 'L-Citrulline', amount: 6000, unit: 'mg' });
    expect(citrulline?.result).toBe(0.25);
    // A bound is not a quantity (decision 2430): ">1 g" of protein or "<5 g" of carbohydrates gives no price per gram.
    expect(pricePerGramOf(perServing, { ingredient_id: 'ing_protein', declared_name: 'Protein', amount: 1, unit: 'g', operator: '>' })).toBeNull();
    expect(pricePerGramOf(perServing, { ingredient_id: null, declared_name: 'Total Carbohydrates', amount: 5, unit: 'g', operator: '<' })).toBeNull();
    expect(pricePerGramOf(perServing, { ingredient_id: null, declared_name: 'Total Carbohydrates', amount: 5, unit: 'g', operator: null })?.result).toBe(0.2999);
    // The nutrition panel's figures are not ingredients: no unit cost of "Total Carbohydrates 5 g" once identified as one.
    expect(pricePerGramOf(perServing, { ingredient_id: 'ing_total_carbohydrate', declared_name: 'Total Carbohydrates', amount: 5, unit: 'g', ingredient_kind: 'nutrition_fact' })).toBeNull();
    expect(pricePerGramOf(perServing, { ingredient_id: 'ing_creatine_monohydrate', declared_name: 'Creatine Monohydrate', amount: 5, unit: 'g', ingredient_kind: 'amino_acid_derivative' })?.result).toBe(0.2999);
  });

  it('keeps the newest observation of each basis apart, list first', () => {
    const rows = [
      price({ observed_at: '2026-06-01', price_basis: 'promotional', price_cents: 3599 }),
      price({ observed_at: '2026-05-01' }),
      price({ observed_at: '2026-04-01', price_cents: 3999 }),
      price({ observed_at: '2026-05-15', price_basis: 'subscription', price_cents: 3824 }),
    ];
    expect(newestPerBasis(rows).map((r) => [r.price_basis, r.observed_at])).toEqual([
      ['list', '2026-05-01'],
      ['promotional', '2026-06-01'],
      ['subscription', '2026-05-15'],
    ]);
  });
});

describe('commercial facts', () => {
  it('name the variant of a page of several only when the source reads one, and are otherwise as before', () => {
    expect(commercialFact(price())).toEqual({
      kind: 'price_observation',
      product_id: 'prd_aaaaaaaaaaaa',
      observed_at: '2026-05-01',
      retailer: 'Shelfwise Supply',
      price: { amount: 44.99, currency: 'USD' },
      price_basis: 'list',
      servings_per_container: 30,
      source_url: 'https://shelfwise.example/p/1',
    });
    expect(commercialFact(price({ source_variant: 'PW-60' }))).toMatchObject({ source_url: 'https://shelfwise.example/p/1', offer_variant: 'PW-60' });
  });
});

describe('regulatory wording', () => {
  const row = { ingredient_id: 'ing_x', record_kind: 'warning_letters', authority: 'U.S. Food and Drug Administration', year: 2019, title: 't', is_caution: false, reference_title: null, reference_url: null };

  it('keeps curated descriptions that say what the filing is, including denials of a verdict', () => {
    const text = 'Letters the FDA sent in 2019 to companies. They are correspondence to those firms, not a statement about any product in this Record.';
    expect(readsAsVerdict(text)).toBe(false);
    expect(whatItIs({ ...row, what_it_is: text })).toBe(text);
    expect(readsAsVerdict('It is not an approval, a warning about any product, or a finding of harm.')).toBe(false);
  });

  it('replaces wording that reads as an approval, a safety verdict or a finding of harm', () => {
    for (const bad of ['FDA approved this ingredient.', 'The ingredient is safe at 300 mg.', 'This substance is dangerous.', 'It causes harm to the heart.', 'Certified for sport.', 'Safe for daily use.']) {
      expect(readsAsVerdict(bad), bad).toBe(true);
      const replaced = whatItIs({ ...row, what_it_is: bad });
      expect(replaced).toBe(neutralDescription(row));
      expect(readsAsVerdict(replaced)).toBe(false);
    }
    expect(neutralDescription(row)).toMatch(/^This is warning letters: letters an agency sent/);
  });
});

describe('declared facts', () => {
  const state: StateRow = {
    state_id: 'hs_aaaaaaaaaaaa', product_id: 'prd_aaaaaaaaaaaa', observed_from: '2026-01-01', observed_to: '2026-02-01', classification: 'comparable',
    serving_size: 10, serving_unit: 'g', servings_per_container: 30, serving_description: '1 scoop', note: null, captured_on: '2026-02-01',
    source_url: 'https://brand.example/p', declared_ingredient_count: 3, other_servings: [], net_contents: [],
  };
  const line = (over: Partial<DeclaredRow>): DeclaredRow => ({
    row_kind: 'ingredient', state_id: state.state_id, position: 1, blend_id: null, blend_name: null, declared_name: 'X', amount: null, unit: null, operator: null, ingredient_id: null, ingredient_name: null, ingredient_kind: null, amount_note: null, daily_values: null, amounts_by_serving: [], ...over,
  });

  it('puts a blend with its total before its members, members keep amount null, and an empty blend is still declared', () => {
    const facts = declaredFacts(state, [
      line({ row_kind: 'blend', position: null, blend_id: 7, blend_name: 'Focus Matrix', declared_name: 'Focus Matrix', amount: 1.2, unit: 'g' }),
      line({ row_kind: 'blend', position: null, blend_id: 8, blend_name: 'Empty Matrix', declared_name: 'Empty Matrix', amount: 2, unit: 'g' }),
      line({ position: 1, declared_name: 'Caffeine Anhydrous', amount: 250, unit: 'mg', ingredient_id: 'ing_caffeine' }),
      line({ position: 2, blend_id: 7, blend_name: 'Focus Matrix', declared_name: 'L-Tyrosine', ingredient_id: 'ing_l_tyrosine' }),
      line({ position: 3, blend_id: 7, blend_name: 'Focus Matrix', declared_name: 'Huperzine A' }),
    ]);
    expect(facts.map((f) => [f.kind, f.value.declared_name, f.value.amount, f.value.blend ?? null])).toEqual([
      ['declared_ingredient', 'Caffeine Anhydrous', 250, null],
      ['proprietary_blend', 'Focus Matrix', 1.2, null],
      ['declared_ingredient', 'L-Tyrosine', null, 'Focus Matrix'],
      ['declared_ingredient', 'Huperzine A', null, 'Focus Matrix'],
      ['proprietary_blend', 'Empty Matrix', 2, null],
    ]);
    expect(facts.every((f) => f.observed_at === '2026-02-01' && f.source_url === 'https://brand.example/p')).toBe(true);
  });

  it('a declared 0 is a declared amount, never counted as undisclosed; an amount only in a note stays null beside the note', () => {
    const facts = declaredFacts(state, [
      line({ position: 1, declared_name: 'Trans Fat', amount: 0, unit: 'g' }),
      line({ position: 2, declared_name: 'L. acidophilus LA-5', amount_note: '1.25 billion CFU' }),
      line({ position: 3, declared_name: 'Huperzine A' }),
    ]);
    expect(facts.map((f) => f.value)).toEqual([
      { declared_name: 'Trans Fat', amount: 0, unit: 'g', ingredient_id: null, blend: null, amount_disclosed: true },
      { declared_name: 'L. acidophilus LA-5', amount: null, unit: null, ingredient_id: null, blend: null, amount_disclosed: false, amount_note: '1.25 billion CFU' },
      { declared_name: 'Huperzine A', amount: null, unit: null, ingredient_id: null, blend: null, amount_disclosed: false },
    ]);
    expect(undisclosedAmountCount(facts)).toBe(2);
    expect(declaredZeroCount(facts)).toBe(1);
    expect(limitation.declaredZero(1)).toMatch(/declared as 0 .* a declared fact, not an undisclosed amount/);
  });

  it('shows an amount stated as a bound with its operator, counts it neither as undisclosed nor as a declared 0 (decision 2430)', () => {
    // The shapes of real labels 321944 ("Total Carbohydrates <1 g"), 230132 ("Protein >1 g") and 47225 (a second serving's "<1 g").
    const facts = declaredFacts(state, [
      line({ position: 1, declared_name: 'Total Carbohydrates', amount: 1, unit: 'g', operator: '<' }),
      line({ position: 2, declared_name: 'Protein', amount: 1, unit: 'g', operator: '>' }),
      line({ position: 3, declared_name: 'Dietary Fiber', amount: 0, unit: 'g', operator: '<', amounts_by_serving: [{ serving_order: 1, serving_quantity: 58.3, amount: 1, unit: 'g', operator: '<' }] }),
      line({ position: 4, declared_name: 'Sugar', amount: 0, unit: 'g', operator: '=' }),
    ]);
    expect(facts.map((f) => f.value)).toEqual([
      { declared_name: 'Total Carbohydrates', amount: 1, unit: 'g', operator: '<', ingredient_id: null, blend: null, amount_disclosed: true },
      { declared_name: 'Protein', amount: 1, unit: 'g', operator: '>', ingredient_id: null, blend: null, amount_disclosed: true },
      {
        declared_name: 'Dietary Fiber', amount: 0, unit: 'g', operator: '<', ingredient_id: null, blend: null, amount_disclosed: true,
        amounts_by_serving: [{ serving_order: 1, serving_quantity: 58.3, amount: 1, unit: 'g', operator: '<' }],
      },
      { declared_name: 'Sugar', amount: 0, unit: 'g', ingredient_id: null, blend: null, amount_disclosed: true },
    ]);
    expect(boundedAmountCount(facts)).toBe(3);
    expect(declaredZeroCount(facts)).toBe(1);
    expect(undisclosedAmountCount(facts)).toBe(0);
    expect(limitation.boundedAmounts(3)).toMatch(/^3 declared amounts are stated as a bound .* calculates nothing from it\.$/);
  });

  it('shows the % Daily Value a label prints beside a line, as printed, and none where it prints none or was not read (decision 2440)', () => {
    // The shapes of real label 15923 (Vitamin C printed only as "833%", DSLD's amount "NP") and of a botanical's "†".
    const adults = 'Adults and children 4 or more years of age';
    const facts = declaredFacts(state, [
      line({ position: 1, declared_name: 'Vitamin C', daily_values: [{ percent: 833, target_group: adults }] }),
      line({ position: 2, declared_name: 'Vitamin B12', amount: 100, unit: 'mcg', daily_values: [{ note: 'Daily Value not established', target_group: adults, percent: null }] }),
      line({ position: 3, declared_name: 'Total Sugars', amount: 1, unit: 'g', operator: '<', daily_values: [{ percent: 1, operator: '<', target_group: adults }] }),
      line({ position: 4, declared_name: 'Caffeine', amount: 200, unit: 'mg', daily_values: [] }),
      line({ position: 5, declared_name: 'Beta-Alanine', amount: 3.2, unit: 'g', daily_values: null }),
    ]);
    expect(facts.map((f) => f.value.daily_values ?? 'absent')).toEqual([
      [{ percent: 833, target_group: adults }],
      [{ percent: null, target_group: adults, note: 'Daily Value not established' }],
      [{ percent: 1, operator: '<', target_group: adults }],
      'absent',
      'absent',
    ]);
    // A percent is never read as an amount: the line printed only as "833%" stays named without one.
    expect(facts[0]!.value).toMatchObject({ amount: null, unit: null, amount_disclosed: false });
    expect(undisclosedAmountCount(facts)).toBe(1);
  });

  it('keeps every serving size a label declares, and what each declares of a line', () => {
    const two: StateRow = { ...state, other_servings: [{ serving_order: 2, size: 2, unit: 'Scoop(s)', description: null, note: 'experienced users' }] };
    expect(servingFacts(two).map((f) => f.value)).toEqual([
      { declared_name: '1 scoop', amount: 10, unit: 'g' },
      { declared_name: 'servings per container', amount: 30, unit: 'servings' },
      { declared_name: 'experienced users', amount: 2, unit: 'Scoop(s)', serving_order: 2 },
    ]);
    const [caffeine] = declaredFacts(two, [line({ declared_name: 'Caffeine', amount: 200, unit: 'mg', amounts_by_serving: [{ serving_order: 2, serving_quantity: null, amount: 400, unit: 'mg', operator: null }] })]);
    expect(caffeine!.value.amounts_by_serving).toEqual([{ serving_order: 2, serving_quantity: null, amount: 400, unit: 'mg' }]);
    expect(historyState(two, 1).other_servings).toEqual([{ serving_order: 2, serving_size: 2, serving_unit: 'Scoop(s)', description: null, note: 'experienced users' }]);
    expect(historyState(state, 1)).not.toHaveProperty('other_servings');
  });
});

describe('search ranking', () => {
  it('drops question words that name nothing', () => {
    expect(significantTokens(['what', 'pre', 'workout', 'has', 'creatine', 'c4', 'x', 'labs'])).toEqual(['creatine', 'c4']);
    expect(significantTokens(['pre', 'workout'])).toEqual(['pre', 'workout']);
  });

  it('ranks an exact name above partial names and a name above an ingredient, and says what matched', () => {
    const ranked = rankSearch(
      [
        { product_id: 'prd_b', field: 'name', value: 'Surge Stim-Free', exact: false, score: 1.6 },
        { product_id: 'prd_a', field: 'name', value: 'Surge', exact: true, score: 3 },
        { product_id: 'prd_a', field: 'alias', value: 'IV Surge', exact: false, score: 2 },
      ],
      [{ ingredient_id: 'ing_creatine_monohydrate', name: 'Creatine Monohydrate', matched: 'Creatine', by: 'name' }],
      [{ product_id: 'prd_c', declared: [{ ingredient_id: 'ing_creatine_monohydrate', declared_name: 'Creatine Monohydrate' }] }],
    );
    expect(ranked.map((r) => r.product_id)).toEqual(['prd_a', 'prd_b', 'prd_c']);
    expect(ranked[0]!.matched).toEqual([{ field: 'name', value: 'Surge' }, { field: 'alias', value: 'IV Surge' }]);
    expect(ranked[2]!.matched).toEqual([{ field: 'declared_ingredient', value: 'Creatine Monohydrate', ingredient_id: 'ing_creatine_monohydrate' }]);
  });

  it('recognises the longest whole ingredient name, and a distinctive single word only when nothing whole used it', () => {
    const syn = (ingredient_id: string, synonym_norm: string, whole: boolean) => ({ ingredient_id, name: ingredient_id, synonym: synonym_norm, synonym_norm, whole });
    expect(recogniseIngredients([syn('ing_l_citrulline', 'citrulline', true), syn('ing_citrulline_malate', 'citrulline malate', true)], ['citrulline', 'malate']).map((i) => i.ingredient_id)).toEqual(['ing_citrulline_malate']);
    expect(recogniseIngredients([syn('ing_huperzine_a', 'huperzine a', false)], ['huperzine'])).toEqual([{ ingredient_id: 'ing_huperzine_a', name: 'ing_huperzine_a', matched: 'huperzine a', by: 'word' }]);
    expect(recogniseIngredients([syn('ing_sodium', 'sodium', true), syn('ing_sodium_nitrate', 'sodium nitrate', false)], ['sodium']).map((i) => i.ingredient_id)).toEqual(['ing_sodium']);
    expect(recogniseIngredients([syn('ing_beetroot_extract', 'beetroot extract', false), syn('ing_black_pepper_extract', 'black pepper fruit extract', false)], ['extract'])).toEqual([]);
  });

  it('counts an ingredient once when a product is found both by name and by ingredient', () => {
    const line = { ingredient_id: 'ing_caffeine', declared_name: 'Caffeine Anhydrous' };
    const merged = mergeDeclaring([{ product_id: 'prd_a', declared: [line] }], [{ product_id: 'prd_a', declared: [line] }, { product_id: 'prd_b', declared: [line] }]);
    expect(merged).toEqual([{ product_id: 'prd_a', declared: [line] }, { product_id: 'prd_b', declared: [line] }]);
    const ranked = rankSearch([], [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', matched: 'caffeine', by: 'name' }], merged);
    expect(ranked.map((r) => [r.product_id, r.score, r.matched.length])).toEqual([['prd_a', 10, 1], ['prd_b', 10, 1]]);
  });

  it('breaks ties by product id so the same question always ranks the same way', () => {
    const hits = ['prd_z', 'prd_m', 'prd_a'].map((id) => ({ product_id: id, field: 'name' as const, value: 'Original', exact: true, score: 3 }));
    expect(rankSearch(hits, [], []).map((r) => r.product_id)).toEqual(['prd_a', 'prd_m', 'prd_z']);
  });
});
