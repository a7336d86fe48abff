import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_RESULT_CAP } from '@evidence-record/contract';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { fx, insertFixtureRecord, operatorNote, reviewNote, storagePath } from './support/fixture-record';
import { PUBLIC_BASE_URL, expectNoInternals, startRecordService, type RecordHarness } from './support/harness';

/**
 * Every capability against a small fixture Record whose edge cases the test
 * controls exactly (the demo Record tests cover the seeded data).
 */
let db: TestDatabase;
let svc: RecordHarness;

beforeAll(async () => {
  db = await emptyDatabase();
  svc = await startRecordService(db.url);
  await insertFixtureRecord(svc.pool);
});
afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

const DEMO = 'Demonstration data: fictional brands and products.';

describe('resolve_product', () => {
  it.each([
    ['Ignite Pre', 'name'],
    ['  IGNITE-pre ', 'name'],
    ['Fixture Labs Ignite Pre', 'brand_and_name'],
    ['fixture labs: ignite pre', 'brand_and_name'],
    ['FL Ignite', 'alias'],
    ['Fixture Labs FL Ignite', 'brand_and_alias'],
  ])('resolves %j exactly to one product (%s)', async (identifier, matchedOn) => {
    const r = await svc.answer('POST', '/api/v1/products/resolve', { identifier });
    expect(r.body.status).toBe('supported');
    expect(r.body.product?.product_id).toBe(fx.ignite);
    expect(r.body.candidates).toBeUndefined();
    expect(r.body.coverage?.matched_on).toBe(matchedOn);
    expect(r.body.limitations).toContain(DEMO);
    expect(r.entities).toEqual([fx.ignite]);
  });

  it('normalises accents and "&" with the stored rule', async () => {
    expect((await svc.answer('POST', '/api/v1/products/resolve', { identifier: 'cafe creme pre' })).body.product?.product_id).toBe(fx.cafe);
    const r = await svc.answer('POST', '/api/v1/products/resolve', { identifier: 'Northwind and Co Surge' });
    expect(r.body.product?.product_id).toBe(fx.surge);
  });

  it('a shared alias is ambiguous: candidates, no product, the first is not a default', async () => {
    const r = await svc.answer('POST', '/api/v1/products/resolve', { identifier: 'original' });
    expect(r.body.status).toBe('ambiguous');
    expect(r.body.product ?? null).toBeNull();
    expect(r.body.candidates?.map((c) => c.product_id).sort()).toEqual([fx.ignite, fx.surge].sort());
    expect(r.entities.sort()).toEqual([fx.ignite, fx.surge].sort());
  });

  it('a bare brand name is ambiguous with that brand\'s products, never resolved to one', async () => {
    const r = await svc.answer('POST', '/api/v1/products/resolve', { identifier: 'Fixture Labs' });
    expect(r.body.status).toBe('ambiguous');
    expect(r.body.product ?? null).toBeNull();
    expect(r.body.candidates?.map((c) => c.product_id).sort()).toEqual([fx.ignite, fx.legacy, fx.cafe].sort());
  });

  it('an uncovered or near-miss name is unsupported with no product', async () => {
    for (const identifier of ['Ignite', 'Ignite Pre Extreme', 'Nonexistent Booster']) {
      const r = await svc.answer('POST', '/api/v1/products/resolve', { identifier });
      expect(r.body.status, identifier).toBe('unsupported');
      expect(r.body.product ?? null).toBeNull();
      expect(r.body.candidates).toBeUndefined();
      expect(r.entities).toEqual([]);
    }
  });

  it('refuses empty, whitespace, punctuation-only, too long and unknown fields', async () => {
    for (const body of [{ identifier: '' }, { identifier: '   ' }, { identifier: '!!!' }, { identifier: 'x'.repeat(121) }, { identifier: 'Surge', extra: 1 }, {}]) {
      const r = await svc.refusal('POST', '/api/v1/products/resolve', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
  });

  it('a retired or REGISTERED product resolves and says so', async () => {
    const retired = await svc.answer('POST', '/api/v1/products/resolve', { identifier: 'Legacy Blend' });
    expect(retired.body.product).toMatchObject({ product_id: fx.legacy, retired: true, retired_on: '2026-06-30' });
    expect(retired.body.limitations.join(' ')).toMatch(/retired/);
    const registered = await svc.answer('POST', '/api/v1/products/resolve', { identifier: 'Ghost Label' });
    expect(registered.body.product?.depth_class).toBe('REGISTERED');
    expect(registered.body.limitations.join(' ')).toMatch(/REGISTERED/);
  });
});

describe('search_record', () => {
  it('ranks by name and shows what matched', async () => {
    const r = await svc.answer('POST', '/api/v1/record/search', { query: 'ignite pre' });
    expect(r.body.status).toBe('supported');
    expect(r.body.products?.[0]?.product_id).toBe(fx.ignite);
    const results = r.body.coverage?.results as Array<{ product_id: string; matched: Array<{ field: string; value: string }> }>;
    expect(results[0]!.matched).toContainEqual({ field: 'name', value: 'Ignite Pre' });
    expect(r.body.next_cursor).toBeUndefined();
    expect(r.entities).toEqual(r.body.products!.map((p) => p.product_id));
  });

  it('finds products by an ingredient their latest label declares, and says which declared line matched', async () => {
    const r = await svc.answer('POST', '/api/v1/record/search', { query: 'which pre-workouts contain creatine?' });
    const ids = r.body.products!.map((p) => p.product_id);
    expect(ids.sort()).toEqual([fx.ignite, fx.surge].sort());
    const results = r.body.coverage?.results as Array<{ product_id: string; matched: Array<{ field: string; value: string }> }>;
    expect(results.find((x) => x.product_id === fx.surge)!.matched).toContainEqual({ field: 'declared_ingredient', value: 'Creatine', ingredient_id: 'ing_creatine_monohydrate' });
  });

  it('an ingredient only an earlier state declared does not find the product', async () => {
    // Beta-Alanine is declared by Ignite's latest state only; Legacy's latest state declares caffeine without amount.
    const r = await svc.answer('POST', '/api/v1/record/search', { query: 'beta alanine' });
    expect(r.body.products!.map((p) => p.product_id)).toEqual([fx.ignite]);
  });

  it('is capped and never pages', async () => {
    const r = await svc.answer('POST', '/api/v1/record/search', { query: 'caffeine' });
    expect(r.body.products!.length).toBeLessThanOrEqual(SEARCH_RESULT_CAP);
    expect(r.body.coverage?.result_cap).toBe(SEARCH_RESULT_CAP);
    expect(r.body.limitations.join(' ')).toMatch(/never pages/);
  });

  it('a question nothing matches is unsupported and names nothing', async () => {
    const r = await svc.answer('POST', '/api/v1/record/search', { query: 'zzzyx qqqv' });
    expect(r.body.status).toBe('unsupported');
    expect(r.body.products).toEqual([]);
    expect(r.entities).toEqual([]);
  });

  it('refuses empty and whitespace queries, over-long queries and unknown fields', async () => {
    for (const body of [{ query: '' }, { query: ' \t ' }, { query: '???' }, { query: 'a'.repeat(301) }, { query: 'x', page: 2 }]) {
      const r = await svc.refusal('POST', '/api/v1/record/search', body);
      expect(r.body.error.code, JSON.stringify(body)).toBe('invalid_request');
    }
  });
});

describe('get_product_record', () => {
  it('identity, serving configuration, declared facts with blends, price context and source references; no internals', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.ignite}`);
    expect(r.body.status).toBe('supported');
    expect(r.body.product).toMatchObject({ product_id: fx.ignite, name: 'Ignite Pre', brand_name: 'Fixture Labs', retired: false, depth_class: 'TRACKED' });
    const facts = r.body.verified_facts;
    expect(facts.filter((f) => f.kind === 'serving_configuration').map((f) => [f.value.amount, f.value.unit])).toEqual([[12, 'g'], [30, 'servings']]);
    const declared = facts.filter((f) => f.kind !== 'serving_configuration');
    expect(declared.map((f) => [f.kind, f.value.declared_name, f.value.amount, f.value.unit, f.value.blend ?? null])).toEqual([
      ['declared_ingredient', 'Creatine Monohydrate', 5, 'g', null],
      ['declared_ingredient', 'Caffeine Anhydrous', 250, 'mg', null],
      ['declared_ingredient', 'Beta-Alanine', 3.2, 'g', null],
      ['proprietary_blend', 'Focus Matrix', 1.5, 'g', null],
      ['declared_ingredient', 'L-Tyrosine', null, null, 'Focus Matrix'],
      ['declared_ingredient', 'Alpha-GPC', null, null, 'Focus Matrix'],
      ['declared_ingredient', 'Mystery Root Extract', null, null, null],
    ]);
    expect(declared.every((f) => f.state_id === fx.igniteV2 && f.observed_at === '2026-04-13')).toBe(true);
    // Only the latest state's facts: the old caffeine amount is not here.
    expect(declared.some((f) => f.value.amount === 300)).toBe(false);
    expect(r.body.limitations).toContain('3 declared ingredients are named without an amount (for example inside a proprietary blend); an amount of null means undisclosed, never zero.');
    expect(r.body.limitations.join(' ')).toMatch(/undisclosed, not absent/);

    const prices = r.body.commercial_facts;
    expect(prices.map((p) => [p.observed_at, p.price_basis, p.price.amount])).toEqual([
      ['2026-09-01', 'list', 49.99],
      ['2026-09-01', 'subscription', 42.49],
      ['2026-06-01', 'promotional', 35.99],
    ]);
    expect(prices.filter((p) => p.price_basis === 'list')).toHaveLength(1);

    expect(r.body.source_references).toContainEqual({ url: 'https://fixture-labs.example/ignite', observed_at: '2026-04-13', kind: 'manufacturer', readable: true });
    expect(r.body.coverage?.latest_state).toMatchObject({ state_id: fx.igniteV2, classification: 'comparable' });
    expectNoInternals(r.body, [storagePath, 'a'.repeat(64)]);
    expect(r.entities).toEqual([fx.ignite]);
  });

  it('an unreadable manufacturer source is a limitation inside a 200 answer (stale), never an outage', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.surge}`);
    expect(r.body.status).toBe('stale');
    expect(r.body.limitations.some((l) => l.startsWith('The manufacturer source has been unreadable since 2026-03-01'))).toBe(true);
    expect(r.body.source_references).toContainEqual(expect.objectContaining({ url: 'https://northwind.example/surge', readable: false }));
    expect(r.body.commercial_facts[0]).toMatchObject({ price_basis: 'unspecified', retailer: 'Corner Market' });
    expect(r.body.limitations).toContain('A price is called a list price only where the Record recorded it as one.');
  });

  it('a REGISTERED product answers with identity, status partial and a limitation', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.ghost}`);
    expect(r.body.status).toBe('partial');
    expect(r.body.product?.depth_class).toBe('REGISTERED');
    expect(r.body.verified_facts.filter((f) => f.kind !== 'serving_configuration')).toEqual([]);
    expect(r.body.limitations.join(' ')).toMatch(/REGISTERED/);
    expect(r.body.confidence.level).toBe('low');
  });

  it('a retired product keeps its id and says it is retired; a presence-only label keeps amounts null', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.legacy}`);
    expect(r.body.product).toMatchObject({ retired: true, retired_on: '2026-06-30' });
    expect(r.body.verified_facts.find((f) => f.value.declared_name === 'Caffeine Anhydrous')?.value.amount).toBeNull();
    expect(r.body.limitations.join(' ')).toMatch(/presence only/);
  });

  it('unknown canonical id is not_found; a name or malformed id is invalid_request', async () => {
    const unknown = await svc.refusal('GET', '/api/v1/products/prd_zzzzzzzzzzzz');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    for (const path of ['Ignite%20Pre', 'ignite-pre', 'PRD_FX0000000001', 'prd_short']) {
      const r = await svc.refusal('GET', `/api/v1/products/${path}`);
      expect([r.status, r.body.error.code], path).toEqual([400, 'invalid_request']);
    }
  });
});

describe('get_formula_history', () => {
  it('the timeline, depth, comparable states and released Signals only, never an unreviewed candidate', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.ignite}/history`);
    expect(r.body.status).toBe('supported');
    expect(r.body.history?.map((h) => [h.state_id, h.classification, h.comparable])).toEqual([
      [fx.igniteV1, 'comparable', true],
      [fx.igniteV2, 'comparable', true],
    ]);
    expect(r.body.coverage).toMatchObject({ first_observed: '2026-01-05', last_observed: '2026-09-28', states: 2, comparable_states: 2, depth_class: 'TRACKED' });
    const signals = r.body.signals!;
    expect(signals.map((s) => s.signal_id).sort()).toEqual([fx.sigReleased, fx.sigWithdrawn, fx.sigCorrected].sort());
    expect(signals.some((s) => s.signal_id === fx.sigUnreleased)).toBe(false);
    const plain = signals.find((s) => s.signal_id === fx.sigReleased)!;
    expect(plain.observation_window).toEqual({ start: '2026-03-30', end: '2026-04-13', exact_change_date: null });
    expect(plain.review).toEqual({ released_at: '2026-04-21', reviewed: true });
    expect(plain.signal_url).toBe(`${PUBLIC_BASE_URL}/api/v1/signals/${fx.sigReleased}`);
    expect(plain.before).toEqual({ state_id: fx.igniteV1 });
    const withdrawn = signals.find((s) => s.signal_id === fx.sigWithdrawn)!;
    expect(withdrawn.status).toBe('withdrawn');
    expect(withdrawn.corrections).toEqual([{ kind: 'withdrawal', recorded_on: '2026-05-05', note: 'Withdrawn: duplicate of an earlier Signal.', summary_before: null, summary_after: null }]);
    expect(r.body.limitations.join(' ')).toMatch(new RegExp(`Signal ${fx.sigWithdrawn} was withdrawn on 2026-05-05`));
    expect(signals.find((s) => s.signal_id === fx.sigCorrected)!.observation_window.exact_change_date).toBe('2026-04-10');
    expect(r.body.limitations.join(' ')).toMatch(/not the date of the change/);
    expect(r.body.limitations.join(' ')).toMatch(/begins on 2026-01-05/);
    expect(JSON.stringify(r.body)).not.toContain('fixture change');
    expectNoInternals(r.body, [operatorNote, reviewNote]);
    expect(r.entities).toEqual([fx.ignite]);
  });

  it('a product with one state has no comparable pair; a REGISTERED one is partial', async () => {
    const one = await svc.answer('GET', `/api/v1/products/${fx.surge}/history`);
    expect(one.body.history?.map((h) => h.comparable)).toEqual([false]);
    expect(one.body.signals).toEqual([]);
    expect(one.body.limitations).toContain('The Record holds one label state of this product, so there is no earlier state to compare it with.');
    const reg = await svc.answer('GET', `/api/v1/products/${fx.ghost}/history`);
    expect(reg.body.status).toBe('partial');
    expect(reg.body.history?.[0]?.classification).toBe('identity_only');
  });

  it('unknown id is not_found', async () => {
    const r = await svc.refusal('GET', '/api/v1/products/prd_000000000000/history');
    expect(r.body.error.code).toBe('not_found');
  });
});

describe('compare_products', () => {
  it('declared doses side by side with units, undisclosed kept null, price per serving as a calculation, no winner', async () => {
    const r = await svc.answer('POST', '/api/v1/products/compare', { product_ids: [fx.ignite, fx.surge] });
    expect(r.body.status).toBe('supported');
    expect(r.body.products?.map((p) => p.product_id)).toEqual([fx.ignite, fx.surge]);
    const rows = r.body.comparison!.ingredients as Array<{ ingredient_id: string | null; declared: Array<{ product_id: string; declared: boolean; amount: number | null; unit: string | null }> }>;
    const creatine = rows.find((x) => x.ingredient_id === 'ing_creatine_monohydrate')!;
    expect(creatine.declared.map((d) => [d.product_id, d.amount, d.unit])).toEqual([[fx.ignite, 5, 'g'], [fx.surge, 3000, 'mg']]);
    const tyrosine = rows.find((x) => x.ingredient_id === 'ing_l_tyrosine')!;
    expect(tyrosine.declared).toEqual([
      { product_id: fx.ignite, declared: true, declared_name: 'L-Tyrosine', amount: null, unit: null, blend: 'Focus Matrix' },
      { product_id: fx.surge, declared: false, declared_name: null, amount: null, unit: null, blend: null },
    ]);
    expect(r.body.calculations.every((c) => c.name === 'price_per_serving' && c.operands.length === 2)).toBe(true);
    expect(r.body.calculations.find((c) => c.product_id === fx.ignite && c.price_basis === 'list')).toMatchObject({ result: 1.6663, as_of: '2026-09-01' });
    expect(r.body.calculations.find((c) => c.product_id === fx.surge)).toMatchObject({ result: 1.9995, price_basis: 'unspecified' });
    expect(r.body.limitations).toContain('A dose comparison is not evidence of effectiveness, safety or suitability, and this comparison names no winner.');
    expect(r.body.limitations).toContain('Amounts are shown in the units each label declares; they are not converted or adjusted for form.');
    expect(JSON.stringify(r.body.comparison)).not.toMatch(/winner|best|recommend/i);
    expect(r.entities.sort()).toEqual([fx.ignite, fx.surge].sort());
  });

  it('a REGISTERED product is refused by comparison: 200, status refused, products, no comparison', async () => {
    const r = await svc.answer('POST', '/api/v1/products/compare', { product_ids: [fx.ignite, fx.ghost] });
    expect(r.body.status).toBe('refused');
    expect(r.body.comparison).toBeUndefined();
    expect(r.body.calculations).toEqual([]);
    expect(r.body.products?.map((p) => p.product_id)).toEqual([fx.ignite, fx.ghost]);
    expect(r.body.limitations.some((l) => l.includes(fx.ghost) && l.includes('REGISTERED'))).toBe(true);
  });

  it('refuses 1 or 4 ids, duplicates and names; an unknown id is not_found', async () => {
    for (const product_ids of [[fx.ignite], [fx.ignite, fx.surge, fx.legacy, fx.cafe], [fx.ignite, fx.ignite], [fx.ignite, 'Surge']]) {
      const r = await svc.refusal('POST', '/api/v1/products/compare', { product_ids });
      expect(r.body.error.code, JSON.stringify(product_ids)).toBe('invalid_request');
    }
    const r = await svc.refusal('POST', '/api/v1/products/compare', { product_ids: [fx.ignite, 'prd_zzzzzzzzzzzz'] });
    expect([r.status, r.body.error.code]).toEqual([404, 'not_found']);
    expect(r.body.error.details).toMatchObject({ unknown: ['prd_zzzzzzzzzzzz'] });
  });
});

describe('get_serving_economics', () => {
  it('price per serving per basis with operands, per gram of bulk ingredients, list and promotional apart', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.ignite}/serving-economics`);
    expect(r.body.status).toBe('supported');
    const perServing = r.body.calculations.filter((c) => c.name === 'price_per_serving');
    expect(perServing.map((c) => [c.price_basis, c.result, c.as_of])).toEqual([
      ['list', 1.6663, '2026-09-01'],
      ['promotional', 1.1997, '2026-06-01'],
      ['subscription', 1.4163, '2026-09-01'],
    ]);
    expect(perServing[0]!.operands).toEqual([
      { name: 'price', value: 49.99, unit: 'USD', source: 'list price observed at Shopfront on 2026-09-01' },
      { name: 'servings_per_container', value: 30, unit: 'servings', source: 'label state matched to the price observation' },
    ]);
    const perGram = r.body.calculations.filter((c) => c.name === 'price_per_gram_of_ingredient');
    // Creatine (5 g) and Beta-Alanine (3.2 g) qualify; caffeine (250 mg) and blend members do not.
    expect(perGram.map((c) => [c.unit, c.result])).toEqual([
      ['USD per gram of Creatine Monohydrate', 0.3333],
      ['USD per gram of Beta-Alanine', 0.5207],
    ]);
    expect(r.body.commercial_facts.map((f) => [f.observed_at, f.price_basis])).toEqual([
      ['2026-09-01', 'list'], ['2026-09-01', 'subscription'], ['2026-06-01', 'promotional'], ['2026-05-01', 'list'],
    ]);
    expect(r.body.coverage?.price_runs).toEqual([
      { retailer: 'Shopfront', price_basis: 'list', price: 44.99, first_observed_at: '2026-05-01', last_observed_at: '2026-05-01', observations: 1 },
      { retailer: 'Shopfront', price_basis: 'list', price: 49.99, first_observed_at: '2026-09-01', last_observed_at: '2026-09-01', observations: 1 },
      { retailer: 'Shopfront', price_basis: 'promotional', price: 35.99, first_observed_at: '2026-06-01', last_observed_at: '2026-06-01', observations: 1 },
      { retailer: 'Shopfront', price_basis: 'subscription', price: 42.49, first_observed_at: '2026-09-01', last_observed_at: '2026-09-01', observations: 1 },
    ]);
    const text = JSON.stringify(r.body);
    expect(text).not.toMatch(/price (increased|rose|dropped|fell|was cut|changed)/i);
    expect(r.body.limitations.join(' ')).toMatch(/never a price change/);
    expect(r.body.limitations.join(' ')).toMatch(/not a manufacturer figure/);
    expect(r.entities).toEqual([fx.ignite]);
  });

  it('no price observation: partial, nothing calculated', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${fx.cafe}/serving-economics`);
    expect(r.body.status).toBe('partial');
    expect(r.body.calculations).toEqual([]);
    expect(r.body.limitations).toContain('The Record holds no price observation for this product, so no price per serving can be calculated.');
  });
});

describe('get_research_context and get_regulatory_context', () => {
  it('research by ingredient ids: studied ranges with references, unknown ids listed and partial', async () => {
    const r = await svc.answer('POST', '/api/v1/research/context', { ingredient_ids: ['ing_creatine_monohydrate', 'ing_unobtainium'] });
    expect(r.body.status).toBe('partial');
    expect(r.body.research_context).toHaveLength(1);
    expect(r.body.research_context[0]).toMatchObject({ ingredient_id: 'ing_creatine_monohydrate', studied_range: { low: 3, high: 5, unit: 'g/day', basis: 'daily maintenance' } });
    expect(r.body.research_context[0]!.references[0]).toMatchObject({ title: 'Fixture position stand on creatine', year: 2017 });
    expect(r.body.limitations).toContain('These ingredient ids are not in the Record: ing_unobtainium.');
    expect(r.entities).toEqual(['ing_creatine_monohydrate']);
  });

  it('research by product: the ingredients its latest label declares', async () => {
    const r = await svc.answer('POST', '/api/v1/research/context', { product_id: fx.surge });
    expect(r.body.product?.product_id).toBe(fx.surge);
    expect(r.entities.sort()).toEqual(['ing_caffeine', 'ing_creatine_monohydrate', 'ing_l_citrulline']);
    expect(r.body.status).toBe('partial');
    expect(r.body.limitations).toContain('The Record holds no research context for L-Citrulline.');
  });

  it('only unknown ingredient ids is not_found; an unknown product is not_found; neither is invalid_request', async () => {
    expect((await svc.refusal('POST', '/api/v1/research/context', { ingredient_ids: ['ing_unobtainium'] })).body.error.code).toBe('not_found');
    expect((await svc.refusal('POST', '/api/v1/regulatory/context', { product_id: 'prd_zzzzzzzzzzzz' })).body.error.code).toBe('not_found');
    for (const body of [{}, { ingredient_ids: [] }, { ingredient_ids: ['caffeine'] }, { ingredient_ids: ['ing_a1', 'ing_a2', 'ing_a3', 'ing_a4', 'ing_a5', 'ing_a6'] }]) {
      expect((await svc.refusal('POST', '/api/v1/research/context', body)).body.error.code, JSON.stringify(body)).toBe('invalid_request');
    }
  });

  it('regulatory records and documented cautions say what the filing is, never a verdict', async () => {
    const r = await svc.answer('POST', '/api/v1/regulatory/context', { ingredient_ids: ['ing_dmaa', 'ing_caffeine', 'ing_beta_alanine'] });
    expect(r.body.status).toBe('supported');
    expect(r.body.regulatory_records.map((x) => x.ingredient_id)).toEqual(['ing_dmaa']);
    expect(r.body.regulatory_records[0]!.what_it_is).toMatch(/^Letters the agency sent to firms/);
    expect(r.body.documented_cautions.map((x) => x.ingredient_id)).toEqual(['ing_caffeine']);
    // The stored text reads as an approval and a finding of harm: it is replaced by what the filing is.
    const caution = r.body.documented_cautions[0]!.what_it_is;
    expect(caution).not.toMatch(/approved|is dangerous/i);
    expect(caution).toMatch(/^This is a guidance document/);
    expect(r.body.limitations).toContain('The Record holds no regulatory record or documented caution for Beta-Alanine.');
    expect(r.body.limitations.join(' ')).toMatch(/not an approval/);
    expect(r.entities.sort()).toEqual(['ing_beta_alanine', 'ing_caffeine', 'ing_dmaa']);
  });
});

describe('get_record_version', () => {
  it('version, methodology, category, coverage counts and source freshness; names no entity', async () => {
    const r = await svc.answer('GET', '/api/v1/record/version');
    expect(r.body.status).toBe('supported');
    expect(r.body.coverage).toMatchObject({
      record_version: r.body.record_version,
      methodology_version: r.body.methodology_version,
      supported_category: 'pre-workout',
      counts: { brands: 2, products: 5, products_by_depth_class: { REGISTERED: 1, CAPTURED: 2, TRACKED: 2 }, retired_products: 1, released_signals: 3, withdrawn_signals: 1, ingredients: 7 },
      source_freshness: { newest_label_capture_on: '2026-04-13', newest_price_observed_at: '2026-09-01', unreadable_sources: 1, unreadable_manufacturer_sources: 1 },
    });
    expect(r.body.record_timestamp.startsWith('2026-09-01')).toBe(true);
    expect(r.entities).toEqual([]);
    expect(r.headers.get('x-budget-entities')).toBe('');
  });
});

describe('unknown routes', () => {
  it('an unknown path is unsupported_capability, never a listing', async () => {
    const r = await svc.refusal('GET', '/api/v1/products');
    expect([r.status, r.body.error.code]).toEqual([404, 'unsupported_capability']);
  });
});
