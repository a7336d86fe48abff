import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RunningService } from '@evidence-record/platform';
import { addSource, listSources, policyOf, runOnce } from '@evidence-record/sources';
import type { OfferSpec, SourceServer } from '@evidence-record/demo-sources';
import { answerOf, product, realLabel, recordWorld, testMonitor, testSettings } from './support';
import { dawnProductPage } from './fixtures/shop-markup';
import type { MonitorSettings } from '@evidence-record/sources';

/**
 * A retailer's page of several variants (decision 1008, amended): a source
 * that names no variant is never read as one of several prices; a source that
 * names one reads that offer only, wherever the page puts it, and its price
 * history and candidates are that variant's alone. The pages are composed by
 * the demo source server (a schema.org ProductGroup), not copies of real ones.
 */
const world = recordWorld();
let pool: Pool;
let src: SourceServer;
let settings: MonitorSettings;
let record: RunningService;

beforeAll(() => {
  ({ pool, src, record } = world);
  settings = testSettings({ DSLD_BASE_URL: `${src.origin}/dsld/v9` });
});

/** The composed retailer page shelfwise/<slug>: these variants, and no price of its own. */
const serveVariants = (slug: string, name: string, variants: NonNullable<OfferSpec['variants']>) => src.offers.set(`shelfwise/${slug}`, { name, price: 0, variants });

type Economics = { commercial_facts: Array<Record<string, unknown>> };
const observations = async (sourceId: number) =>
  (await pool.query('SELECT observed_at, price_cents, price_basis FROM price_observations WHERE source_id = $1 ORDER BY observation_id', [sourceId])).rows;
const lastCheck = async (sourceId: number) =>
  (await pool.query('SELECT outcome, reason FROM monitoring_checks WHERE source_id = $1 ORDER BY check_id DESC LIMIT 1', [sourceId])).rows[0];
const priceCandidates = async (productId: string) =>
  (await pool.query(`SELECT status, window_start::text, window_end::text FROM candidates WHERE product_id = $1 AND dimension = 'price' ORDER BY candidate_id`, [productId])).rows;

describe('an offer page of several variants', () => {
  it("is unreadable to a source naming none, read by variant for one that names it, and a variant's history is its own", async () => {
    const p = await product(pool, 'Variant Flow');
    const url = src.offerUrl('shelfwise', 'variant-flow');
    serveVariants('variant-flow', 'Variant Flow', [
      { sku: 'VF-30', price: 39.99, listPrice: 44.99 },
      { sku: 'VF-60', gtin12: '012345678905', price: 64.99, listPrice: 64.99 },
    ]);
    const whole = await addSource(pool, { product_id: p, kind: 'offer_page', url, retailer: 'Shelfwise' }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);

    day('2026-07-01');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 0, unreadable: 1, prices_recorded: 0 });
    expect(await lastCheck(whole.source_id)).toEqual({
      outcome: 'unreadable',
      reason: 'the page offers 2 variants at different prices: VF-30 ($44.99 list, $39.99 promotional); VF-60 ($64.99 list); name the one this source is with --variant',
    });

    // The operator names the size this product is: the same page, another source (its history starts here).
    const sixty = await addSource(pool, { product_id: p, kind: 'offer_page', url, retailer: 'Shelfwise', variant: '0012345678905' }, policyOf(settings));
    expect(sixty.variant).toBe('0012345678905');
    await expect(addSource(pool, { product_id: p, kind: 'offer_page', url, retailer: 'Shelfwise', variant: '0012345678905' }, policyOf(settings))).rejects.toMatchObject({ code: 'already_exists' });
    await pool.query(`UPDATE sources SET state = 'paused' WHERE source_id = $1`, [whole.source_id]);
    expect((await listSources(pool, p)).map((s) => [s.source_id, s.variant, s.state])).toEqual([
      [whole.source_id, null, 'paused'],
      [sixty.source_id, '0012345678905', 'active'],
    ]);
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 1 });
    expect(await observations(sixty.source_id)).toEqual([{ observed_at: '2026-07-01', price_cents: 6499, price_basis: 'list' }]);

    // The page reorders its variants and the other size's list price moves: nothing changed for this source.
    day('2026-07-08');
    serveVariants('variant-flow', 'Variant Flow', [
      { sku: 'VF-60', gtin12: '012345678905', price: 64.99, listPrice: 64.99 },
      { sku: 'VF-30', price: 42.99, listPrice: 49.99 },
    ]);
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 1, candidates_opened: 0 });
    expect(await priceCandidates(p)).toEqual([]);

    // Its own list price moves: one candidate, between its own two list observations.
    day('2026-07-15');
    serveVariants('variant-flow', 'Variant Flow', [
      { sku: 'VF-60', gtin12: '012345678905', price: 69.99, listPrice: 69.99 },
      { sku: 'VF-30', price: 42.99, listPrice: 49.99 },
    ]);
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 1, candidates_opened: 1 });
    expect(await priceCandidates(p)).toEqual([{ status: 'open', window_start: '2026-07-08', window_end: '2026-07-15' }]);
    expect(await observations(sixty.source_id)).toEqual([
      { observed_at: '2026-07-01', price_cents: 6499, price_basis: 'list' },
      { observed_at: '2026-07-08', price_cents: 6499, price_basis: 'list' },
      { observed_at: '2026-07-15', price_cents: 6999, price_basis: 'list' },
    ]);

    // Answers say which variant of the page each price is (additive: absent where a source names none).
    const economics = await answerOf<Economics>(record, `/products/${p}/serving-economics`);
    expect(economics.commercial_facts.map((f) => [f.observed_at, f.price, f.offer_variant])).toEqual([
      ['2026-07-15', { amount: 69.99, currency: 'USD' }, '0012345678905'],
      ['2026-07-08', { amount: 64.99, currency: 'USD' }, '0012345678905'],
      ['2026-07-01', { amount: 64.99, currency: 'USD' }, '0012345678905'],
    ]);

    // A variant the page no longer offers is an empty check, not another variant's price.
    day('2026-07-22');
    serveVariants('variant-flow', 'Variant Flow', [{ sku: 'VF-30', price: 42.99, listPrice: 49.99 }]);
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, empty: 1, prices_recorded: 0 });
    expect(await lastCheck(sixty.source_id)).toEqual({ outcome: 'empty', reason: 'no offer on the page is variant 0012345678905' });
    await deps.close();
  });

  it("reads, for a source naming no variant, the size whose GTIN is the UPC the product's real DSLD label declares", async () => {
    const p = await product(pool, 'Ravage Fruit Punch');
    // Real label 1179 (fixtures/dsld-real/1179.json, provenance beside it), served byte for byte: upcSku "0 48107 09833 9".
    src.labelBodies.set(1179, realLabel(1179));
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(1179) }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);
    day('2026-08-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, states_created: 1 });

    // The retailer's page (composed) offers two sizes; the label's is the one whose GTIN-13 is its UPC zero-padded.
    serveVariants('ravage', 'Ravage', [
      { sku: 'RV-80', gtin12: '048107098346', price: 69.99, listPrice: 69.99 },
      { sku: 'RV-40', gtin12: '048107098339', price: 39.99, listPrice: 44.99 },
    ]);
    const offer = await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('shelfwise', 'ravage'), retailer: 'Shelfwise' }, policyOf(settings));
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 2, valid: 2, unreadable: 0 });
    expect(await observations(offer.source_id)).toEqual([
      { observed_at: '2026-08-03', price_cents: 4499, price_basis: 'list' },
      { observed_at: '2026-08-03', price_cents: 3999, price_basis: 'promotional' },
    ]);
    const economics = await answerOf<Economics>(record, `/products/${p}/serving-economics`);
    expect(economics.commercial_facts).toHaveLength(2);
    for (const f of economics.commercial_facts) expect(f).not.toHaveProperty('offer_variant');

    // Without a label UPC on the page, the page is what it was: ambiguous, and said so.
    day('2026-08-10');
    serveVariants('ravage', 'Ravage', [{ sku: 'RV-80', price: 69.99, listPrice: 69.99 }, { sku: 'RV-40', price: 39.99, listPrice: 44.99 }]);
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 2, valid: 1, unreadable: 1 });
    expect((await lastCheck(offer.source_id)).reason).toMatch(/^the page offers 2 variants at different prices: RV-80 \(\$69.99 list\); RV-40/);
    await deps.close();
  });
  it("reads a Shopify Dawn page whose bare barcodes are not valid JSON, and the size its real label's UPC names", async () => {
    const p = await product(pool, 'Ravage Dawn Shop');
    // Real label 1179 again (fixtures/dsld-real/1179.json): upcSku "0 48107 09833 9".
    src.labelBodies.set(1179, realLabel(1179));
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(1179) }, policyOf(settings));
    // The brand's own shop on Dawn (composed from the theme's template: fixtures/shop-markup.ts), its two sizes' barcodes printed bare.
    src.behaviours.set('/shop/ravage-brand/ravage', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: dawnProductPage([
        { sku: 'RV-80', barcode: '048107098346', price: '69.99' },
        { sku: 'RV-40', barcode: '048107098339', price: '39.99' },
      ]),
    });
    const offer = await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('ravage-brand', 'ravage'), retailer: 'Ravage Shop' }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);
    day('2026-08-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 2, valid: 2, unreadable: 0, empty: 0 });
    expect(await observations(offer.source_id)).toEqual([{ observed_at: '2026-08-03', price_cents: 3999, price_basis: 'unspecified' }]);
    const economics = await answerOf<Economics>(record, `/products/${p}/serving-economics`);
    expect(economics.commercial_facts).toEqual([expect.objectContaining({ price_basis: 'unspecified' })]);
    await deps.close();
  });
});
