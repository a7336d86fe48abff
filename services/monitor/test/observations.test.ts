import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RunningService } from '@evidence-record/platform';
import { addSource, policyOf, runOnce } from '@evidence-record/sources';
import type { SourceServer } from '@evidence-record/demo-sources';
import { answerOf, product, recordWorld, testMonitor, testSettings } from './support';

/**
 * One observation per reading that says something new (issue 23, item 7): a
 * re-reading of an unchanged offer page on the same day records a check and
 * nothing in the price history, and get_serving_economics lists each
 * distinct observation once, including duplicates an older monitor wrote.
 */
const world = recordWorld();
let pool: Pool;
let src: SourceServer;
let record: RunningService;
const settings = testSettings();

beforeAll(() => {
  ({ pool, src, record } = world);
});

interface Economics {
  commercial_facts: Array<{ observed_at: string; retailer: string; price: { amount: number }; price_basis: string }>;
  coverage: { observations: number; price_runs: Array<{ price_basis: string; observations: number; first_observed_at: string; last_observed_at: string }> };
}

const economics = (productId: string) => answerOf<Economics>(record, `/products/${productId}/serving-economics`);

const observations = async (sourceId: number) =>
  (await pool.query('SELECT observed_at, price_cents, price_basis FROM price_observations WHERE source_id = $1 ORDER BY observation_id', [sourceId])).rows;
const checks = async (sourceId: number) =>
  (await pool.query('SELECT outcome, http_status FROM monitoring_checks WHERE source_id = $1 ORDER BY check_id', [sourceId])).rows;

describe('a re-reading of an unchanged offer page', () => {
  it('on the same day updates the check, not the price history; on a later day it is a new dated observation', async () => {
    const p = await product(pool, 'Reread Flow');
    src.offers.set('shelfwise/reread-flow', { name: 'Reread Flow', price: 39.99, listPrice: 49.99, strikethrough: true });
    const { source_id } = await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('shelfwise', 'reread-flow'), retailer: 'Shelfwise' }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);

    day('2026-06-01');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 2 });
    // Read again the same day: the page's bytes differ (stock and reviews change on every visit, so no 304), the
    // prices do not. Then again with a 304 against the kept validators, and once more with only its stock changed.
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 0, candidates_opened: 0 });
    src.offers.set('shelfwise/reread-flow', { name: 'Reread Flow', price: 39.99, listPrice: 49.99, strikethrough: true, availability: 'LimitedAvailability' });
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 0 });
    expect(await observations(source_id)).toEqual([
      { observed_at: '2026-06-01', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-06-01', price_cents: 3999, price_basis: 'promotional' },
    ]);
    // Every reading is still a check.
    expect((await checks(source_id)).map((c) => c.outcome)).toEqual(['valid', 'valid', 'valid']);

    // A later day's reading at the same prices says something new: the prices held on that date.
    day('2026-06-08');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, prices_recorded: 2 });
    expect(await observations(source_id)).toHaveLength(4);

    const answer = await economics(p);
    expect(answer.coverage.observations).toBe(4);
    expect(answer.commercial_facts.map((f) => `${f.observed_at} ${f.price_basis} ${f.price.amount}`)).toEqual([
      '2026-06-08 list 49.99',
      '2026-06-08 promotional 39.99',
      '2026-06-01 list 49.99',
      '2026-06-01 promotional 39.99',
    ]);
    await deps.close();
  });

  it('keeps one evidence for a retailer page whose JSON-LD changes only in its reviews, and reads its prices from a priceSpecification list', async () => {
    const p = await product(pool, 'Ratings Flow');
    // The markup `../shared/sources.md` describes (composed, not copied): offer price and currency null, both prices in a list, reviews in the JSON-LD.
    src.offers.set('shelfwise/ratings-flow', { name: 'Ratings Flow', price: 39.99, listPrice: 49.99, specificationList: true, ratings: true });
    const { source_id } = await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('shelfwise', 'ratings-flow'), retailer: 'Shelfwise' }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);

    // The page's JSON-LD itself differs between two visits (its review count), so the test would see a second evidence if reviews were kept.
    const jsonld = async () => (await (await fetch(src.offerUrl('shelfwise', 'ratings-flow'))).text()).match(/<script type="application\/ld\+json">(.*?)<\/script>/)![1];
    const visits = new Set<string>();
    for (let i = 0; i < 5; i++) visits.add((await jsonld())!);
    expect(visits.size).toBeGreaterThan(1);

    day('2026-06-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 2 });
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 0 });
    day('2026-06-10');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, prices_recorded: 2, candidates_opened: 0 });
    await deps.close();

    const kept = (await pool.query<{ sha: string; content: Buffer }>('SELECT DISTINCT c.evidence_sha256 AS sha, e.content FROM monitoring_checks c JOIN evidence e ON e.sha256 = c.evidence_sha256 WHERE c.source_id = $1', [source_id])).rows;
    expect(kept).toHaveLength(1);
    const content = JSON.parse(kept[0]!.content.toString('utf8')) as { url: string; jsonld: Array<Record<string, unknown>> };
    expect(content.url).toBe(src.offerUrl('shelfwise', 'ratings-flow'));
    expect(content.jsonld[0]).not.toHaveProperty('aggregateRating');
    expect(content.jsonld[0]).toMatchObject({ '@type': 'Product', name: 'Ratings Flow', offers: { price: null, priceSpecification: [{ price: '39.99' }, { price: '49.99' }] } });
    expect(await observations(source_id)).toEqual([
      { observed_at: '2026-06-03', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-06-03', price_cents: 3999, price_basis: 'promotional' },
      { observed_at: '2026-06-10', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-06-10', price_cents: 3999, price_basis: 'promotional' },
    ]);
  });

  it('written twice by an older monitor is listed once by get_serving_economics', async () => {
    const p = await product(pool, 'Twice Flow');
    src.offers.set('shelfwise/twice-flow', { name: 'Twice Flow', price: 44.99, listPrice: 44.99 });
    const { source_id } = await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('shelfwise', 'twice-flow'), retailer: 'Shelfwise' }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);
    day('2026-06-02');
    await runOnce(deps, { productId: p });
    await deps.close();
    // What the monitor wrote before this fix on a same-day re-read: an identical second row.
    await pool.query(
      `INSERT INTO price_observations (product_id, source_id, retailer, observed_at, price_cents, price_basis, servings_per_container, state_id)
       SELECT product_id, source_id, retailer, observed_at, price_cents, price_basis, servings_per_container, state_id FROM price_observations WHERE source_id = $1`,
      [source_id],
    );
    expect(await observations(source_id)).toHaveLength(2);

    const answer = await economics(p);
    expect(answer.coverage.observations).toBe(1);
    expect(answer.coverage.price_runs).toEqual([expect.objectContaining({ price_basis: 'list', observations: 1, first_observed_at: '2026-06-02', last_observed_at: '2026-06-02' })]);
    expect(answer.commercial_facts).toHaveLength(1);
  });
});
