import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { SEARCH_RESULT_CAP } from '@evidence-record/contract';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { productId, signalId, stateId } from '@evidence-record/demo-record/ids';
import { regulatory } from '@evidence-record/demo-record/regulatory';
import { expectNoInternals, startRecordService, type RecordHarness } from './support/harness';
import { productsDeclaring } from '../src/queries/search';

/**
 * Every capability against the demo Record, asserting the semantics the
 * answers keep on real seeded data (names and cases from
 * scripts/demo-record/products.ts, prices.ts and signals.ts).
 */
let db: TestDatabase;
let svc: RecordHarness;
let sql: pg.Client;

beforeAll(async () => {
  db = await demoDatabase();
  svc = await startRecordService(db.url);
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await svc?.close();
  await db?.drop();
});

const p = {
  surge: productId('ironvale-surge'),
  focusCaps: productId('ironvale-focus-caps'),
  ironvalePre: productId('ironvale-pre-workout'),
  kestrelPre: productId('kestrelwyn-pre-workout'),
  keystone: productId('drumlin-vane-keystone'),
  oxenPre: productId('oxenfjord-pre-workout'),
  legacy: productId('quillmoor-legacy'),
  nightSprint: productId('vantorra-night-sprint'),
  emberline: productId('tallowfen-emberline'),
  hollowPre: productId('hollowmere-pre-workout'),
  vantorraSurge: productId('vantorra-surge'),
  apexStimFree: productId('cobaltreed-apex-stim-free'),
  cairn: productId('drumlin-vane-cairn-caps'),
  hydratePump: productId('cobaltreed-hydrate-pump'),
  overdrive: productId('brasswick-overdrive'),
};

const resolve = (identifier: string) => svc.answer('POST', '/api/v1/products/resolve', { identifier });
const search = (query: string) => svc.answer('POST', '/api/v1/record/search', { query });

describe('resolve_product on the demo Record', () => {
  it.each([
    ['Ironvale Surge', p.surge],
    ['IV Surge', p.surge],
    ['ironvale   SURGE', p.surge],
    ['Drumlin & Vane Keystone', p.keystone],
    ['drumlin and vane keystone', p.keystone],
    ['D&V Keystone', p.keystone],
    ['Kestrelwyn Labs Pre-Workout', p.kestrelPre],
    ['Kestrelwyn Pre Workout', p.kestrelPre],
    ['Oxenfjord Pre-Workout', p.oxenPre],
  ])('%j resolves to exactly one product', async (identifier, id) => {
    const r = await resolve(identifier);
    expect(r.body.status).toBe('supported');
    expect(r.body.product?.product_id).toBe(id);
    expect(r.entities).toEqual([id]);
  });

  it.each(['Pre-Workout', 'pre workout', 'Original'])('the shared name %j is ambiguous and names no product', async (identifier) => {
    const r = await resolve(identifier);
    expect(r.body.status).toBe('ambiguous');
    expect(r.body.product ?? null).toBeNull();
    expect(r.body.candidates!.length).toBeGreaterThan(1);
    expect(r.body.candidates!.length).toBeLessThanOrEqual(SEARCH_RESULT_CAP);
    const total = r.body.coverage?.candidates_total as number;
    expect(total).toBe(6);
    expect(r.body.limitations).toContain(`${total} products match; ${SEARCH_RESULT_CAP} are shown. Add the brand and full product name to resolve one.`);
    expect(r.entities.sort()).toEqual(r.body.candidates!.map((c) => c.product_id).sort());
  });

  it('a brand alone is ambiguous, never one of its products', async () => {
    const r = await resolve('Ironvale');
    expect(r.body.status).toBe('ambiguous');
    expect(r.body.candidates!.every((c) => c.brand_id === 'brd_ironvale')).toBe(true);
  });

  it('an uncovered product is unsupported, with no product and no candidates', async () => {
    const r = await resolve('Thunderclap Mega Pump 3000');
    expect(r.body.status).toBe('unsupported');
    expect(r.body.product ?? null).toBeNull();
    expect(r.body.candidates).toBeUndefined();
    expect(r.entities).toEqual([]);
  });

  it('a REGISTERED and a retired product resolve and say what they are', async () => {
    const reg = await resolve('Vantorra Night Sprint');
    expect(reg.body.product).toMatchObject({ product_id: p.nightSprint, depth_class: 'REGISTERED' });
    const retired = await resolve('Quillmoor Legacy');
    expect(retired.body.product).toMatchObject({ product_id: p.legacy, retired: true, retired_on: '2026-07-31' });
  });
});

describe('search_record on the demo Record', () => {
  it('a brand + name question ranks that product first and shows what matched', async () => {
    const r = await search('Kestrelwyn Talon');
    expect(r.body.products![0]!.product_id).toBe(productId('kestrelwyn-talon'));
    const first = (r.body.coverage?.results as Array<{ matched: Array<{ field: string }> }>)[0]!;
    expect(first.matched.map((m) => m.field)).toEqual(expect.arrayContaining(['name', 'brand']));
  });

  it('finds only products whose latest label declares the ingredient (a removed ingredient no longer matches)', async () => {
    const r = await search('pre-workout with creatine');
    const ids = r.body.products!.map((x) => x.product_id);
    expect(ids).toContain(p.keystone);
    expect(ids).toContain(p.legacy); // declared inside the Ignition Matrix blend, without an amount
    expect(ids).not.toContain(p.vantorraSurge); // creatine was removed in its second state
    expect(r.body.limitations.join(' ')).toMatch(/undisclosed/);
  });

  it('a question that is only a common name still finds the products with that name', async () => {
    const r = await search('Pre-Workout');
    expect(r.body.status).toBe('supported');
    expect(r.body.products!.every((x) => x.name === 'Pre-Workout')).toBe(true);
    expect(r.body.coverage?.more_matches).toBe(true);
  });

  it('never more than the cap, and says so when there are more', async () => {
    const r = await search('caffeine');
    expect(r.body.products).toHaveLength(SEARCH_RESULT_CAP);
    expect(r.body.coverage?.more_matches).toBe(true);
    expect(r.body.limitations).toContain(`More products match than the ${SEARCH_RESULT_CAP} shown; ask a narrower question (brand and product name) to find a specific product.`);
    expect(new Set(r.entities)).toEqual(new Set(r.body.products!.map((x) => x.product_id)));
  });

  it('the same question ranks the same way every time', async () => {
    const a = await search('caffeine and beta-alanine');
    const b = await search('caffeine and beta-alanine');
    expect(a.body.products!.map((x) => x.product_id)).toEqual(b.body.products!.map((x) => x.product_id));
  });

  it('finds the same products from the product side (common ingredients) as from the ingredient side (rare ones)', async () => {
    for (const ids of [['ing_caffeine'], ['ing_creatine_monohydrate'], ['ing_caffeine', 'ing_beta_alanine'], ['ing_l_theanine', 'ing_caffeine'], ['ing_huperzine_a', 'ing_alpha_gpc', 'ing_l_tyrosine']]) {
      const fromIngredients = await productsDeclaring(sql, ids, SEARCH_RESULT_CAP + 1);
      const fromProducts = await productsDeclaring(sql, ids, SEARCH_RESULT_CAP + 1, 0);
      const matched = (r: { declared: Array<{ ingredient_id: string }> }) => new Set(r.declared.map((d) => d.ingredient_id)).size;
      // The top tier (products declaring every asked ingredient) is identical; below it the product side fills by id.
      const top = (rows: typeof fromIngredients) => rows.filter((r) => matched(r) === ids.length).map((r) => r.product_id);
      expect(top(fromProducts), ids.join('+')).toEqual(top(fromIngredients));
      if (ids.length === 1) expect(fromProducts, ids[0]).toEqual(fromIngredients);
      expect(fromProducts.length).toBe(fromIngredients.length);
    }
  });

  it('whitespace is invalid_request', async () => {
    const r = await svc.refusal('POST', '/api/v1/record/search', { query: '    ' });
    expect([r.status, r.body.error.code, r.body.error.details.field]).toEqual([400, 'invalid_request', 'query']);
  });
});

describe('get_product_record on the demo Record', () => {
  it('an ingredient named without an amount is null, never zero', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.focusCaps}`);
    const huperzine = r.body.verified_facts.find((f) => f.value.declared_name === 'Huperzine A')!;
    expect(huperzine.value.amount).toBeNull();
    expect(huperzine.value.amount_disclosed).toBe(false);
    expect(r.body.limitations).toContain('1 declared ingredient is named without an amount (for example inside a proprietary blend); an amount of null means undisclosed, never zero.');
  });

  it('a partial blend: its total as a proprietary_blend fact, members with blend set and amount null', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.kestrelPre}`);
    const blend = r.body.verified_facts.find((f) => f.kind === 'proprietary_blend')!;
    expect(blend.value).toMatchObject({ declared_name: 'Focus Matrix', amount: 1.5, unit: 'g' });
    const members = r.body.verified_facts.filter((f) => f.value.blend === 'Focus Matrix');
    expect(members.map((m) => m.value.declared_name)).toEqual(['L-Tyrosine', 'Alpha-GPC', 'Huperzine A']);
    expect(members.every((m) => m.value.amount === null)).toBe(true);
    expect(r.body.verified_facts.every((f) => f.state_id === stateId('kestrelwyn-pre-workout', 'v2'))).toBe(true);
  });

  it('the unreadable manufacturer source is data inside a 200 answer', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.oxenPre}`);
    expect(r.body.status).toBe('stale');
    expect(r.body.source_references.find((s) => s.kind === 'manufacturer')).toMatchObject({ readable: false });
    expect(r.body.limitations.some((l) => l.startsWith('The manufacturer source has been unreadable since'))).toBe(true);
    expect(r.body.verified_facts.length).toBeGreaterThan(0);
  });

  it('prices are dated with their basis; only recorded list prices are list', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.surge}`);
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(DISTINCT (retailer, price_basis))::int AS n FROM price_observations WHERE product_id = $1`, [p.surge]);
    expect(r.body.commercial_facts).toHaveLength(rows[0]!.n);
    for (const f of r.body.commercial_facts) {
      const { rows: same } = await sql.query(`SELECT 1 FROM price_observations WHERE product_id = $1 AND observed_at = $2 AND retailer = $3 AND price_basis = $4 AND price_cents = $5`,
        [p.surge, f.observed_at, f.retailer, f.price_basis, Math.round(f.price.amount * 100)]);
      expect(same.length, JSON.stringify(f)).toBeGreaterThan(0);
    }
    expect(r.body.source_references.every((s) => s.url.startsWith('https://') && /^\d{4}-\d{2}-\d{2}$/.test(s.observed_at))).toBe(true);
    expectNoInternals(r.body);
  });

  it('a REGISTERED product with an unspecified price: identity, partial, the price kept unspecified', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.emberline}`);
    expect(r.body.status).toBe('partial');
    expect(r.body.product?.depth_class).toBe('REGISTERED');
    expect(r.body.commercial_facts.map((f) => f.price_basis)).toEqual(['unspecified']);
    expect(r.body.limitations.join(' ')).toMatch(/REGISTERED/);
  });

  it('a retired product says so and keeps its id', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.legacy}`);
    expect(r.body.product).toMatchObject({ product_id: p.legacy, retired: true, retired_on: '2026-07-31' });
  });
});

describe('get_formula_history on the demo Record', () => {
  it('a corrected Signal keeps its address and release date and says what happened; no operator note leaks', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.surge}/history`);
    expect(r.body.history).toHaveLength(3);
    expect(r.body.history!.every((h) => h.comparable)).toBe(true);
    const corrected = r.body.signals!.find((s) => s.signal_id === signalId('ironvale-surge:formula:v2'))!;
    expect(corrected.status).toBe('corrected');
    expect(corrected.corrections[0]).toMatchObject({ kind: 'correction', recorded_on: '2026-06-02' });
    expect(JSON.stringify(r.body)).not.toContain('Transcription error in review');
    expect(r.body.coverage).toMatchObject({ first_observed: '2026-01-06', states: 3, comparable_states: 3 });
  });

  it('an observation window is not a change date, except where the Record knows the day', async () => {
    const known = await svc.answer('GET', `/api/v1/products/${p.ironvalePre}/history`);
    expect(known.body.signals!.map((s) => s.observation_window.exact_change_date)).toEqual(['2026-08-10']);
    const unknown = await svc.answer('GET', `/api/v1/products/${p.surge}/history`);
    expect(unknown.body.signals!.every((s) => s.observation_window.exact_change_date === null)).toBe(true);
    expect(unknown.body.limitations.join(' ')).toMatch(/not the date of the change/);
  });

  it('a withdrawn Signal is shown as withdrawn', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.hollowPre}/history`);
    const withdrawn = r.body.signals!.filter((s) => s.status === 'withdrawn');
    expect(withdrawn).toHaveLength(1);
    expect(r.body.limitations.some((l) => l.includes(withdrawn[0]!.signal_id) && l.includes('withdrawn'))).toBe(true);
  });

  it('unreviewed and refused candidates never appear', async () => {
    for (const id of [p.apexStimFree, p.cairn, p.hydratePump]) {
      const r = await svc.answer('GET', `/api/v1/products/${id}/history`);
      const { rows } = await sql.query<{ signal_id: string }>(`SELECT signal_id FROM signals WHERE product_id = $1 AND released_on IS NOT NULL ORDER BY 1`, [id]);
      expect(r.body.signals!.map((s) => s.signal_id).sort()).toEqual(rows.map((x) => x.signal_id));
      expect(JSON.stringify(r.body)).not.toContain('Label layout differs between captures');
    }
    const cairn = await svc.answer('GET', `/api/v1/products/${p.cairn}/history`);
    expect(cairn.body.signals).toEqual([]);
    expect(cairn.body.limitations).toContain('Only reviewed, released Signals are reported as changes; a difference between two states without a Signal is not a confirmed change.');
  });

  it('a fully proprietary label is presence-only and not comparable', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.overdrive}/history`);
    expect(r.body.history!.map((h) => [h.classification, h.comparable])).toEqual([['presence_only', false], ['presence_only', false]]);
  });
});

describe('compare_products on the demo Record', () => {
  it('doses side by side by ingredient, never a winner', async () => {
    const r = await svc.answer('POST', '/api/v1/products/compare', { product_ids: [p.surge, p.kestrelPre, p.keystone] });
    expect(r.body.status).toBe('supported');
    const rows = r.body.comparison!.ingredients as Array<{ ingredient_id: string; declared: Array<{ product_id: string; declared: boolean; amount: number | null; unit: string | null }> }>;
    const caffeine = rows.find((x) => x.ingredient_id === 'ing_caffeine')!;
    expect(caffeine.declared.map((d) => [d.amount, d.unit])).toEqual([[325, 'mg'], [250, 'mg'], [300, 'mg']]);
    const creatine = rows.find((x) => x.ingredient_id === 'ing_creatine_monohydrate')!;
    expect(creatine.declared.map((d) => d.declared)).toEqual([false, false, true]);
    expect(creatine.declared.filter((d) => !d.declared).every((d) => d.amount === null)).toBe(true);
    expect(r.body.calculations).toHaveLength(3);
    expect(r.body.calculations.every((c) => c.name === 'price_per_serving' && c.price_basis === 'list')).toBe(true);
    expect(r.body.limitations).toContain('A dose comparison is not evidence of effectiveness, safety or suitability, and this comparison names no winner.');
    expect(r.entities.sort()).toEqual([p.surge, p.kestrelPre, p.keystone].sort());
  });

  it('a REGISTERED product is refused by comparison as a 200 answer naming it', async () => {
    const r = await svc.answer('POST', '/api/v1/products/compare', { product_ids: [p.surge, p.nightSprint] });
    expect(r.body.status).toBe('refused');
    expect(r.body.comparison).toBeUndefined();
    expect(r.body.limitations.some((l) => l.includes('Vantorra Sport Night Sprint') && l.includes(p.nightSprint))).toBe(true);
  });

  it('an unknown id is not_found; a name is invalid_request', async () => {
    expect((await svc.refusal('POST', '/api/v1/products/compare', { product_ids: [p.surge, 'prd_000000000000'] })).status).toBe(404);
    expect((await svc.refusal('POST', '/api/v1/products/compare', { product_ids: [p.surge, 'Ironvale Surge'] })).status).toBe(400);
  });
});

describe('get_serving_economics on the demo Record', () => {
  it('per serving per basis, the latest label servings, list and promotional apart, list runs dated', async () => {
    const r = await svc.answer('GET', `/api/v1/products/${p.surge}/serving-economics`);
    const perServing = r.body.calculations.filter((c) => c.name === 'price_per_serving');
    const byBasis = Object.fromEntries(perServing.map((c) => [String(c.price_basis), c])) as Record<string, (typeof perServing)[number]>;
    expect(byBasis.list).toMatchObject({ result: 1.9996, as_of: '2026-11-16' });
    expect(byBasis.list!.operands.map((o) => o.value)).toEqual([49.99, 25]);
    expect(byBasis.promotional).toMatchObject({ result: 1.1997 });
    const runs = r.body.coverage!.price_runs as Array<{ retailer: string; price_basis: string; price: number; first_observed_at: string; last_observed_at: string }>;
    const shelfwiseList = runs.filter((x) => x.retailer === 'Shelfwise Supply' && x.price_basis === 'list');
    expect(shelfwiseList.map((x) => x.price)).toEqual([44.99, 49.99]);
    expect(shelfwiseList[0]!.last_observed_at < shelfwiseList[1]!.first_observed_at).toBe(true);
    expect(r.body.calculations.filter((c) => c.name === 'price_per_gram_of_ingredient').map((c) => c.unit)).toEqual([
      'USD per gram of L-Citrulline', 'USD per gram of Beta-Alanine', 'USD per gram of Betaine Anhydrous',
    ]);
    const history = await svc.answer('GET', `/api/v1/products/${p.surge}/history`);
    // The March promotion at Parcelgrain was refused as a price change: no price Signal mentions it.
    expect(history.body.signals!.filter((s) => s.dimension === 'price').map((s) => s.summary)).toEqual(['List price at Shelfwise Supply: $44.99 → $49.99 per container.']);
  });
});

describe('get_research_context and get_regulatory_context on the demo Record', () => {
  it('research for the ingredients a product declares', async () => {
    const r = await svc.answer('POST', '/api/v1/research/context', { product_id: p.keystone });
    expect(r.entities).toContain('ing_creatine_monohydrate');
    const creatine = r.body.research_context.filter((x) => x.ingredient_id === 'ing_creatine_monohydrate');
    expect(creatine.length).toBeGreaterThan(0);
    expect(creatine[0]!.studied_range).toMatchObject({ low: 3, high: 5, unit: 'g/day' });
    expect(r.body.limitations).toContain('A studied range describes the amounts and populations in published research; it is not a recommended dose and says nothing about a particular product.');
  });

  it('regulatory records and cautions keep the curated description of what the filing is', async () => {
    const r = await svc.answer('POST', '/api/v1/regulatory/context', { ingredient_ids: ['ing_dmaa', 'ing_caffeine', 'ing_creatine_monohydrate'] });
    const seeded = (id: string, caution: boolean) => regulatory.filter((x) => x.ingredient === id && x.isCaution === caution).map((x) => x.whatItIs);
    expect(r.body.regulatory_records.map((x) => x.what_it_is)).toEqual(seeded('ing_dmaa', false));
    expect(r.body.documented_cautions.map((x) => x.what_it_is).sort()).toEqual([...seeded('ing_dmaa', true), ...seeded('ing_caffeine', true)].sort());
    expect(r.body.limitations).toContain('The Record holds no regulatory record or documented caution for Creatine Monohydrate.');
  });
});

describe('get_record_version on the demo Record', () => {
  it('counts match the Record and name no entity', async () => {
    const r = await svc.answer('GET', '/api/v1/record/version');
    const { rows } = await sql.query<{ products: number; registered: number; released: number; ingredients: number; version: string }>(`
      SELECT (SELECT count(*)::int FROM products) AS products,
             (SELECT count(*)::int FROM products WHERE depth_class = 'REGISTERED') AS registered,
             (SELECT count(*)::int FROM signals WHERE released_on IS NOT NULL) AS released,
             (SELECT count(*)::int FROM ingredients) AS ingredients,
             (SELECT version FROM record_versions ORDER BY id DESC LIMIT 1) AS version`);
    const want = rows[0]!;
    expect(r.body.record_version).toBe(want.version);
    expect(r.body.coverage).toMatchObject({
      counts: { products: want.products, released_signals: want.released, ingredients: want.ingredients, products_by_depth_class: { REGISTERED: want.registered } },
      source_freshness: { unreadable_manufacturer_sources: 1 },
    });
    expect(r.entities).toEqual([]);
  });
});
