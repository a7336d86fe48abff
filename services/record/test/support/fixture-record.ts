import { withRecordChange, type Pool } from '@evidence-record/platform';
import { normalizeName } from '@evidence-record/record-store';

/**
 * A small fictional Record for edge cases the tests need to control exactly:
 * a blend, an undisclosed amount, an unreadable manufacturer source, a
 * withdrawn and a corrected Signal, an approved-but-unreleased Signal, an
 * open candidate, a REGISTERED and a retired product, shared aliases, and a
 * regulatory text worded as a verdict. Every name is invented.
 */
export const fx = {
  brandA: 'brd_fixture_labs',
  brandB: 'brd_northwind',
  ignite: 'prd_fx0000000001',
  surge: 'prd_fx0000000002',
  ghost: 'prd_fx0000000003',
  legacy: 'prd_fx0000000004',
  cafe: 'prd_fx0000000005',
  igniteV1: 'hs_fx0000000011',
  igniteV2: 'hs_fx0000000012',
  surgeV1: 'hs_fx0000000021',
  ghostV1: 'hs_fx0000000031',
  legacyV1: 'hs_fx0000000041',
  cafeV1: 'hs_fx0000000051',
  sigReleased: 'sig_fx0000000001',
  sigWithdrawn: 'sig_fx0000000002',
  sigUnreleased: 'sig_fx0000000003',
  sigCorrected: 'sig_fx0000000004',
} as const;

export const operatorNote = 'OPERATOR-ONLY: reviewer misread the label';
export const reviewNote = 'REVIEW-ONLY: checked against capture 991';
export const storagePath = 'captures/secret/path/ignite-v2.html';

export async function insertFixtureRecord(pool: Pool): Promise<void> {
  await withRecordChange(pool, 'test fixture Record', async (db) => {
    const q = (text: string, values: unknown[] = []) => db.query(text, values);
    await q(`INSERT INTO brands (brand_id, name, name_norm, is_demo) VALUES ($1, 'Fixture Labs', $2, true), ($3, 'Northwind & Co.', $4, true)`, [
      fx.brandA, normalizeName('Fixture Labs'), fx.brandB, normalizeName('Northwind & Co.'),
    ]);
    const product = (id: string, brand: string, name: string, depth: string, retired: string | null = null, form = 'powder') =>
      q(`INSERT INTO products (product_id, brand_id, name, name_norm, form, depth_class, retired_on, is_demo) VALUES ($1,$2,$3,$4,$5,$6,$7,true)`, [
        id, brand, name, normalizeName(name), form, depth, retired,
      ]);
    await product(fx.ignite, fx.brandA, 'Ignite Pre', 'TRACKED');
    await product(fx.surge, fx.brandB, 'Surge', 'TRACKED');
    await product(fx.ghost, fx.brandB, 'Ghost Label', 'REGISTERED');
    await product(fx.legacy, fx.brandA, 'Legacy Blend', 'CAPTURED', '2026-06-30');
    await product(fx.cafe, fx.brandA, 'Café Crème Pre', 'CAPTURED', null, 'capsule');
    for (const [alias, id] of [['Original', fx.ignite], ['Original', fx.surge], ['FL Ignite', fx.ignite], ['Surge Classic', fx.surge]] as const) {
      await q(`INSERT INTO product_aliases (alias, alias_norm, product_id) VALUES ($1,$2,$3)`, [alias, normalizeName(alias), id]);
    }

    const ingredients: Array<[string, string, string[]]> = [
      ['ing_creatine_monohydrate', 'Creatine Monohydrate', ['Creatine']],
      ['ing_caffeine', 'Caffeine', ['Caffeine Anhydrous']],
      ['ing_beta_alanine', 'Beta-Alanine', ['Beta Alanine']],
      ['ing_l_citrulline', 'L-Citrulline', ['Citrulline']],
      ['ing_l_tyrosine', 'L-Tyrosine', ['Tyrosine']],
      ['ing_alpha_gpc', 'Alpha-GPC', []],
      ['ing_dmaa', 'DMAA', ['1,3-Dimethylamylamine']],
    ];
    for (const [id, name, synonyms] of ingredients) {
      await q(`INSERT INTO ingredients (ingredient_id, name) VALUES ($1,$2)`, [id, name]);
      const seen = new Set<string>();
      for (const s of [name, ...synonyms]) if (!seen.has(normalizeName(s)) && seen.add(normalizeName(s))) await q(`INSERT INTO ingredient_synonyms (synonym, synonym_norm, ingredient_id) VALUES ($1,$2,$3)`, [s, normalizeName(s), id]);
    }

    const source = async (product: string, kind: string, url: string, health = 'readable', retailer: string | null = null) =>
      (await q(`INSERT INTO sources (product_id, kind, retailer, url, health, health_since, last_read_at) VALUES ($1,$2,$3,$4,$5,'2026-03-01T00:00:00Z','2026-03-01T00:00:00Z') RETURNING source_id`, [product, kind, retailer, url, health])).rows[0].source_id as number;
    const capture = async (sourceId: number, at: string, path = 'captures/x') =>
      (await q(`INSERT INTO captures (source_id, observed_at, content_sha256, storage_path) VALUES ($1,$2,$3,$4) RETURNING capture_id`, [sourceId, at, 'a'.repeat(64), path])).rows[0].capture_id as number;

    const igniteSite = await source(fx.ignite, 'manufacturer', 'https://fixture-labs.example/ignite');
    const igniteShop = await source(fx.ignite, 'retailer', 'https://shop.example/ignite', 'readable', 'Shopfront');
    const surgeSite = await source(fx.surge, 'manufacturer', 'https://northwind.example/surge', 'unreadable');
    const legacySite = await source(fx.legacy, 'manufacturer', 'https://fixture-labs.example/legacy');
    const cafeSite = await source(fx.cafe, 'manufacturer', 'https://fixture-labs.example/cafe');

    const state = async (id: string, product: string, captureId: number | null, from: string, to: string, cls: string, size: number | null, unit: string | null, spc: number | null, note: string | null = null) =>
      q(`INSERT INTO history_states (state_id, product_id, capture_id, observed_from, observed_to, classification, serving_size, serving_unit, servings_per_container, serving_description, note)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`, [id, product, captureId, from, to, cls, size, unit, spc, size ? `1 scoop (${size} ${unit})` : null, note]);
    await state(fx.igniteV1, fx.ignite, await capture(igniteSite, '2026-01-05T10:00:00Z'), '2026-01-05', '2026-03-30', 'comparable', 12, 'g', 30);
    await state(fx.igniteV2, fx.ignite, await capture(igniteSite, '2026-04-13T10:00:00Z', storagePath), '2026-04-13', '2026-09-28', 'comparable', 12, 'g', 30);
    await state(fx.surgeV1, fx.surge, await capture(surgeSite, '2026-02-02T10:00:00Z'), '2026-02-02', '2026-02-20', 'comparable', 10, 'g', 20);
    await state(fx.ghostV1, fx.ghost, null, '2026-05-01', '2026-05-01', 'identity_only', null, null, null, 'Known from an announcement only.');
    await state(fx.legacyV1, fx.legacy, await capture(legacySite, '2026-01-10T10:00:00Z'), '2026-01-10', '2026-06-01', 'presence_only', 11, 'g', 30);
    await state(fx.cafeV1, fx.cafe, await capture(cafeSite, '2026-03-03T10:00:00Z'), '2026-03-03', '2026-03-03', 'comparable', 2, 'capsule', 30);

    const blend = async (stateId: string, name: string, total: number, unit: string) =>
      (await q(`INSERT INTO declared_blends (state_id, name, total_amount, total_unit) VALUES ($1,$2,$3,$4) RETURNING blend_id`, [stateId, name, total, unit])).rows[0].blend_id as number;
    const declare = (stateId: string, pos: number, ing: string | null, name: string, amount: number | null, unit: string | null, blendId: number | null = null) =>
      q(`INSERT INTO declared_ingredients (state_id, position, ingredient_id, declared_name, amount, unit, blend_id) VALUES ($1,$2,$3,$4,$5,$6,$7)`, [stateId, pos, ing, name, amount, unit, blendId]);

    await declare(fx.igniteV1, 1, 'ing_creatine_monohydrate', 'Creatine Monohydrate', 5, 'g');
    await declare(fx.igniteV1, 2, 'ing_caffeine', 'Caffeine Anhydrous', 300, 'mg');
    await declare(fx.igniteV2, 1, 'ing_creatine_monohydrate', 'Creatine Monohydrate', 5, 'g');
    await declare(fx.igniteV2, 2, 'ing_caffeine', 'Caffeine Anhydrous', 250, 'mg');
    await declare(fx.igniteV2, 3, 'ing_beta_alanine', 'Beta-Alanine', 3.2, 'g');
    const focus = await blend(fx.igniteV2, 'Focus Matrix', 1.5, 'g');
    await declare(fx.igniteV2, 4, 'ing_l_tyrosine', 'L-Tyrosine', null, null, focus);
    await declare(fx.igniteV2, 5, 'ing_alpha_gpc', 'Alpha-GPC', null, null, focus);
    await declare(fx.igniteV2, 6, null, 'Mystery Root Extract', null, null);
    await declare(fx.surgeV1, 1, 'ing_creatine_monohydrate', 'Creatine', 3000, 'mg');
    await declare(fx.surgeV1, 2, 'ing_l_citrulline', 'L-Citrulline', 6, 'g');
    await declare(fx.surgeV1, 3, 'ing_caffeine', 'Caffeine Anhydrous', 200, 'mg');
    await declare(fx.legacyV1, 1, 'ing_caffeine', 'Caffeine Anhydrous', null, null);
    await declare(fx.cafeV1, 1, 'ing_caffeine', 'Caffeine Anhydrous', 150, 'mg');

    const priceObs = (product: string, sourceId: number | null, retailer: string, on: string, cents: number, basis: string, stateId: string | null, spc: number | null = null) =>
      q(`INSERT INTO price_observations (product_id, source_id, retailer, observed_at, price_cents, price_basis, servings_per_container, state_id) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`, [product, sourceId, retailer, on, cents, basis, spc, stateId]);
    await priceObs(fx.ignite, igniteShop, 'Shopfront', '2026-05-01', 4499, 'list', fx.igniteV2);
    await priceObs(fx.ignite, igniteShop, 'Shopfront', '2026-06-01', 3599, 'promotional', fx.igniteV2);
    await priceObs(fx.ignite, igniteShop, 'Shopfront', '2026-09-01', 4999, 'list', fx.igniteV2);
    await priceObs(fx.ignite, igniteShop, 'Shopfront', '2026-09-01', 4249, 'subscription', fx.igniteV2);
    await priceObs(fx.surge, null, 'Corner Market', '2026-02-10', 3999, 'unspecified', fx.surgeV1);

    // Candidates: two approved and released, one approved but not released, one still open.
    const candidate = async (product: string, dimension: string, before: string | null, after: string | null, start: string, end: string, status: string, exact: string | null = null) =>
      (await q(`INSERT INTO candidates (product_id, dimension, before_state_id, after_state_id, window_start, window_end, exact_change_date, summary, status, reviewer, review_note, reviewed_at)
                VALUES ($1,$2,$3,$4,$5,$6,$7,'fixture change',$8,$9,$10,$11) RETURNING candidate_id`, [
        product, dimension, before, after, start, end, exact, status, status === 'open' ? null : 'reviewer-1', status === 'open' ? null : reviewNote, status === 'open' ? null : '2026-04-20T00:00:00Z',
      ])).rows[0].candidate_id as number;
    const released = await candidate(fx.ignite, 'formula', fx.igniteV1, fx.igniteV2, '2026-03-30', '2026-04-13', 'approved');
    const withdrawn = await candidate(fx.ignite, 'formula', fx.igniteV1, fx.igniteV2, '2026-03-30', '2026-04-13', 'approved');
    const corrected = await candidate(fx.ignite, 'serving', fx.igniteV1, fx.igniteV2, '2026-03-30', '2026-04-13', 'approved', '2026-04-10');
    const unreleased = await candidate(fx.ignite, 'formula', fx.igniteV1, fx.igniteV2, '2026-03-30', '2026-04-13', 'approved');
    await candidate(fx.ignite, 'formula', fx.igniteV2, null, '2026-09-28', '2026-10-12', 'open');
    const batch = (await q(`INSERT INTO release_batches (release_date, released_by) VALUES ('2026-04-21', 'tester') RETURNING batch_id`)).rows[0].batch_id as number;
    const signal = (id: string, cand: number, dimension: string, summary: string, exact: string | null, releasedBatch: number | null, status = 'released') =>
      q(`INSERT INTO signals (signal_id, candidate_id, product_id, dimension, before_state_id, after_state_id, window_start, window_end, exact_change_date, summary, batch_id, released_on, status)
         VALUES ($1,$2,$3,$4,$5,$6,'2026-03-30','2026-04-13',$7,$8,$9,$10,$11)`, [
        id, cand, fx.ignite, dimension, fx.igniteV1, fx.igniteV2, exact, summary, releasedBatch, releasedBatch ? '2026-04-21' : null, status,
      ]);
    await signal(fx.sigReleased, released, 'formula', 'Caffeine Anhydrous: 300 mg → 250 mg; Beta-Alanine added.', null, batch);
    await signal(fx.sigWithdrawn, withdrawn, 'formula', 'Duplicate of the caffeine change.', null, batch, 'withdrawn');
    await signal(fx.sigCorrected, corrected, 'serving', 'Serving unchanged at 12 g (corrected).', '2026-04-10', batch, 'corrected');
    await signal(fx.sigUnreleased, unreleased, 'formula', 'Not released yet.', null, null);
    await q(`INSERT INTO signal_corrections (signal_id, kind, recorded_on, public_note, operator_note) VALUES ($1,'withdrawal','2026-05-05','Withdrawn: duplicate of an earlier Signal.',$2)`, [fx.sigWithdrawn, operatorNote]);
    await q(`INSERT INTO signal_corrections (signal_id, kind, recorded_on, public_note, operator_note) VALUES ($1,'correction','2026-05-06','The summary was corrected.',$2)`, [fx.sigCorrected, operatorNote]);

    await q(`INSERT INTO research_context (ingredient_id, range_low, range_high, range_unit, range_basis, population, evidence, reference_title, reference_year, reference_kind, reference_url)
             VALUES ('ing_creatine_monohydrate', 3, 5, 'g/day', 'daily maintenance', 'adults in sport', 'Studied for high-intensity exercise capacity.', 'Fixture position stand on creatine', 2017, 'position_stand', NULL)`);
    await q(`INSERT INTO regulatory_records (ingredient_id, record_kind, authority, year, title, what_it_is, is_caution, reference_title, reference_url) VALUES
             ('ing_dmaa', 'warning_letters', 'U.S. Food and Drug Administration', 2012, 'Warning letters on DMAA', 'Letters the agency sent to firms; correspondence to those firms, not a statement about any product in this Record.', false, 'FDA warning letters', NULL),
             ('ing_caffeine', 'guidance', 'U.S. Food and Drug Administration', 2018, 'Concentrated caffeine guidance', 'FDA approved guidance saying caffeine is dangerous.', true, NULL, NULL)`);
  });
}
