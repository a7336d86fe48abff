import type { PoolClient } from '@evidence-record/platform';
import { openCandidateIn } from './candidates';
import { CurationRefused } from './errors';
import { formulaDiffers, labelOf, servingDiffers } from './labels';

/**
 * When a reading opens a candidate. Curation owns candidates: the source
 * monitor's checks and label versions say what they read and these rules say
 * which candidates that opens, unreviewed, through openCandidateIn (the same
 * rules as `candidate open`), in the reading's own transaction. None becomes a
 * Signal until a curator approves it and a release publishes it.
 */

/** A dated event a source reports of its label (DSLD: "Reformulated", "Label change"). */
export interface SourceEvent {
  date: string;
  type: string;
}

/**
 * The candidates between two adjacent label states: one per dimension the labels' declared facts differ in. Between
 * two label versions (decision 1401) the window is never narrowed to a day by an event, and an older version's
 * off-market flag is not a candidate: DSLD marks a replaced version off the market.
 */
export async function openLabelCandidates(
  client: PoolClient,
  productId: string,
  beforeId: string,
  afterId: string,
  events: readonly SourceEvent[],
  opts: { labelVersions?: boolean } = {},
): Promise<number> {
  const [a, b] = [await labelOf(client, beforeId), await labelOf(client, afterId)];
  if (a.classification !== 'comparable' || b.classification !== 'comparable') return 0;
  const win = await client.query<{ before_to: string; after_from: string }>(
    `SELECT (SELECT observed_to FROM history_states WHERE state_id = $1) AS before_to, (SELECT observed_from FROM history_states WHERE state_id = $2) AS after_from`,
    [beforeId, afterId],
  );
  const w = win.rows[0]!;
  // The source dates the change to a day only when it says so (a dated reformulation or label-change event in the window).
  const dated = opts.labelVersions ? undefined : events.find((e) => /reformulat|label change|changed/i.test(e.type) && e.date >= w.before_to && e.date <= w.after_from);
  const dims: Array<'formula' | 'serving' | 'identity'> = [];
  // What the labels declare: what the Record identifies a line as is not part of it (decision 1500).
  if (formulaDiffers(a, b)) dims.push('formula');
  if (servingDiffers(a, b)) dims.push('serving');
  // Off the market (or back): a candidate for review, never an automatic retirement.
  if (a.off_market !== b.off_market && !opts.labelVersions) dims.push('identity');
  for (const dimension of dims) {
    await openCandidateIn(
      client,
      {
        product_id: productId,
        dimension,
        before_state_id: beforeId,
        after_state_id: afterId,
        ...(dated ? { exact_change_date: dated.date } : {}),
        // No summary: the candidate path derives it from the two states ("Caffeine Anhydrous: 200 mg → 225 mg"),
        // in the alert email's words; the reviewer may reword it on approval.
      },
      'monitor',
    );
  }
  return dims.length;
}

/** The newest list price read from a source before this reading. */
export interface ListPriceBefore {
  observation_id: number;
  price_cents: number;
  observed_at: string;
}

export async function listPriceBefore(client: PoolClient, sourceId: number): Promise<ListPriceBefore | null> {
  const before = await client.query<ListPriceBefore>({
    name: 'monitor-list-before',
    text: `SELECT observation_id, price_cents, observed_at FROM price_observations WHERE source_id = $1 AND price_basis = 'list' ORDER BY observed_at DESC, observation_id DESC LIMIT 1`,
    values: [sourceId],
  });
  return before.rows[0] ?? null;
}

/**
 * Whether a list price read on `today` opens a candidate: only a list price moving does; a promotion appearing,
 * changing or ending never does. A move seen on the day the old price was read is refused (CurationRefused): the
 * Record dates prices by day, so the new price is placed with the next day's reading (docs/monitor.md, "Same-day changes").
 */
export function listPriceMoves(before: ListPriceBefore | null, listCents: number | undefined, today: string): boolean {
  const moved = listCents !== undefined && before !== null && before.price_cents !== listCents;
  if (moved && before.observed_at >= today) throw new CurationRefused(`the list price changed on the day it was last read (${before.observed_at})`);
  return moved;
}

/** The price candidate between two list price observations of one source. */
export async function openPriceCandidate(client: PoolClient, productId: string, beforeObservationId: number, afterObservationId: number): Promise<number> {
  return openCandidateIn(
    client,
    {
      product_id: productId,
      dimension: 'price',
      before_price_id: beforeObservationId,
      after_price_id: afterObservationId,
      // No summary: the candidate path derives it from the two list prices, in the alert email's words.
    },
    'monitor',
  );
}
