import type { Pool } from '@evidence-record/platform';
import { kindOf, type DsldReading, type OfferReading } from '@evidence-record/sources';
import { DEMO_RETAILERS, initialDemoState, type DemoState } from './demo';

/**
 * The demo state the Record last read, from the evidence the monitor compares its next reading with
 * (`sources.last_evidence_sha256`, the last reading placed; one the same-day rule left unplaced is not): the label's
 * caffeine and Shelfwise's list price. The Record outlives the
 * demo server (a second `npm run up` keeps the database), so the server is set to it rather than to its own start,
 * or a change would serve again what the Record already holds and open nothing.
 */
export async function recordedDemoState(p: Pool, productId: string): Promise<DemoState> {
  const state = initialDemoState();
  const { rows } = await p.query<{ kind: 'dsld_label' | 'offer_page'; url: string; content: Buffer }>(
    `SELECT s.kind, s.url, e.content FROM sources s JOIN evidence e ON e.sha256 = s.last_evidence_sha256 WHERE s.product_id = $1`,
    [productId],
  );
  for (const r of rows) {
    const read = kindOf(r.kind).reread(r.content);
    if (!read.ok) continue;
    if (r.kind === 'dsld_label') {
      const caffeine = (read.reading as DsldReading).ingredients.find((l) => /caffeine/i.test(l.declared_name));
      if (caffeine?.amount) state.caffeineMg = caffeine.amount;
    } else if (r.url.endsWith(`/shop/${DEMO_RETAILERS[0].slug}/updraft-pre-workout`)) {
      const prices = (read.reading as OfferReading).prices;
      const list = prices.find((x) => x.basis === 'list') ?? prices[0];
      if (list) state.listPrice = list.price_cents / 100;
    }
  }
  return state;
}

