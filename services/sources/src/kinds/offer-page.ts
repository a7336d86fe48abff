import { listPriceBefore, listPriceMoves, openPriceCandidate, planCapture, type ListPriceBefore } from '@evidence-record/curation';
import { parseOfferBlocks, parseOfferPage, withoutReviews, type OfferReading } from '../offers';
import type { Pool } from '@evidence-record/platform';
import type { SourceKind } from './kind';

/**
 * A retailer's offer page (decision 1008): the page's JSON-LD offers as list, promotional or unspecified USD prices.
 * Kept as the JSON-LD blocks (without their reviews) and the address that served them, not the whole page (reviews,
 * stock and advertising churn would make every read distinct). Only a list price moving opens a candidate.
 */
export const offerPage: SourceKind<OfferReading, ListPriceBefore | null> = {
  name: 'offer_page',

  requestUrl: (url) => url,

  // A page of several prices and a source naming no variant: the size whose GTIN is the product's label UPC.
  select: async (pool, src) => ({ variant: src.variant, labelGtins: await labelGtins(pool, src.product_id) }),

  parse: (body, source) => parseOfferPage(body.toString('utf8'), source ?? { variant: null }),
  evidence: (_body, url, reading) => ({ mediaType: 'application/ld+json', content: Buffer.from(JSON.stringify({ url, jsonld: withoutReviews(reading.jsonld) })) }),
  reread(content, source) {
    const kept = JSON.parse(content.toString('utf8')) as { jsonld: unknown[] };
    return parseOfferBlocks(kept.jsonld, 0, source ?? { variant: null });
  },

  capture: async (reading, src) => ({
    label: null,
    source_facts: null,
    prices: reading.prices.map((p) => ({ retailer: src.retailer ?? src.host, price_cents: p.price_cents, basis: p.basis, servings_per_container: null })),
  }),

  async plan(client, { src, capture, reading, now }) {
    const plan = await planCapture(client, capture);
    const before = await listPriceBefore(client, src.source_id);
    const list = reading.prices.find((p) => p.basis === 'list');
    return { plan, mayOpenCandidate: listPriceMoves(before, list?.price_cents, now.toISOString().slice(0, 10)), context: before };
  },

  async placed(client, { src, placed, plan }, out) {
    out.prices_recorded += placed.prices.length;
    const list = placed.prices.find((p) => p.basis === 'list');
    const before = plan.context;
    if (plan.mayOpenCandidate && list && before) {
      await openPriceCandidate(client, src.product_id, before.observation_id, list.observation_id);
      out.candidates_opened++;
    }
  },
};

/**
 * The UPCs the product's monitored DSLD label declares (`upcSku`, as kept: "0 48107 09833 9"), as GTIN digits.
 * Read from the label's kept evidence, the label JSON exactly as DSLD served it (decision 1004); a placeholder
 * ("", an Amazon ASIN, "Not Present") is no GTIN. A label not read yet gives none.
 */
async function labelGtins(pool: Pool, productId: string): Promise<string[]> {
  const { rows } = await pool.query<{ content: Buffer }>({
    name: 'monitor-label-upcs',
    text: `SELECT e.content FROM sources l JOIN evidence e ON e.sha256 = l.last_evidence_sha256
            WHERE l.product_id = $1 AND l.kind = 'dsld_label' AND l.next_check_due IS NOT NULL`,
    values: [productId],
  });
  const gtins = new Set<string>();
  for (const r of rows) {
    let upc: unknown;
    try {
      upc = (JSON.parse(r.content.toString('utf8')) as { upcSku?: unknown }).upcSku;
    } catch {
      continue;
    }
    const digits = typeof upc === 'string' ? upc.replace(/[\s-]/g, '') : '';
    if (/^\d{8,14}$/.test(digits)) gtins.add(digits);
  }
  return [...gtins];
}
