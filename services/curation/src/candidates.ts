import { z } from 'zod';
import { ProductId, SUMMARY_MAX, changeLines, changeSummary, randomId, signalDimensions, type ChangeSides } from '@evidence-record/contract';
import { withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { CurationRefused, NotFound } from './errors';
import { formulaDiffers, labelOf, labelSide, servingDiffers } from './labels';
import { MIN_PUBLIC_TEXT, operatorText, publicText } from './text';

/**
 * Candidates are proposed changes between two comparable states of one
 * product. Only a reviewer's approval turns one into a Signal, and only a
 * release makes that Signal public. Review notes stay on the operator side.
 */
const isoDate = z.iso.date();
export const OpenCandidateInput = z
  .strictObject({
    product_id: ProductId,
    dimension: z.enum(signalDimensions),
    before_state_id: z.string().regex(/^hs_[0-9a-z]{12}$/).optional(),
    after_state_id: z.string().regex(/^hs_[0-9a-z]{12}$/).optional(),
    before_price_id: z.coerce.number().int().positive().optional(),
    after_price_id: z.coerce.number().int().positive().optional(),
    window_start: isoDate.optional(),
    window_end: isoDate.optional(),
    exact_change_date: isoDate.optional(),
    /** Absent: derived from the two sides (changeLines), the wording the alert email uses. */
    summary: z.string().optional(),
  })
  .refine((c) => c.dimension === 'price' || (c.before_state_id && c.after_state_id), {
    message: 'a label change names --before and --after history states',
    path: ['before_state_id'],
  })
  .refine((c) => c.dimension !== 'price' || (c.before_price_id && c.after_price_id), {
    message: 'a price change names --before-price and --after-price list-price observations',
    path: ['before_price_id'],
  })
  .refine((c) => c.dimension === 'price' || (c.before_price_id === undefined && c.after_price_id === undefined), {
    message: 'only a price change names list-price observations',
    path: ['before_price_id'],
  });
export type OpenCandidateInput = z.input<typeof OpenCandidateInput>;

interface StateInfo {
  state_id: string;
  product_id: string;
  observed_from: string;
  observed_to: string;
  classification: string;
}

interface PriceInfo {
  observation_id: number;
  product_id: string;
  retailer: string;
  observed_at: string;
  price_cents: number;
  price_basis: string;
  servings_per_container: number | null;
}

async function state(client: PoolClient, stateId: string, productId: string, side: string): Promise<StateInfo> {
  const { rows } = await client.query<StateInfo>(
    `SELECT state_id, product_id, observed_from, observed_to, classification FROM history_states WHERE state_id = $1`,
    [stateId],
  );
  const s = rows[0];
  if (!s) throw new NotFound(`${side} state ${stateId} does not exist`);
  if (s.product_id !== productId) throw new CurationRefused(`${side} state ${stateId} is a state of ${s.product_id}, not ${productId}`, 'other_product');
  if (s.classification !== 'comparable') throw new CurationRefused(`${side} state ${stateId} is ${s.classification}, not comparable`, 'not_comparable');
  return s;
}

async function listPrice(client: PoolClient, id: number, productId: string, side: string): Promise<PriceInfo> {
  const { rows } = await client.query<PriceInfo>(
    `SELECT observation_id, product_id, retailer, observed_at, price_cents, price_basis, servings_per_container FROM price_observations WHERE observation_id = $1`,
    [id],
  );
  const p = rows[0];
  if (!p) throw new NotFound(`${side} price observation ${id} does not exist`);
  if (p.product_id !== productId) throw new CurationRefused(`${side} price observation ${id} is a price of ${p.product_id}, not ${productId}`, 'other_product');
  // A promotional-versus-list difference is never a price change.
  if (p.price_basis !== 'list') throw new CurationRefused(`${side} price observation ${id} is a ${p.price_basis} price; a price change compares list prices`, 'not_comparable');
  return p;
}

/**
 * The comparable states of the product first read strictly between the two
 * sides: a candidate compares neighbours, or it would hide the change in
 * between (and its window would span a label that was read).
 */
async function statesBetween(client: PoolClient, before: StateInfo, after: StateInfo): Promise<string[]> {
  const { rows } = await client.query<{ state_id: string }>(
    `SELECT state_id FROM history_states
      WHERE product_id = $1 AND classification = 'comparable' AND state_id NOT IN ($2, $3)
        AND observed_from > $4 AND observed_from < $5
      ORDER BY observed_from`,
    [before.product_id, before.state_id, after.state_id, before.observed_from, after.observed_from],
  );
  return rows.map((r) => r.state_id);
}

/** The list prices of the same retailer observed strictly between the two sides. */
async function listPricesBetween(client: PoolClient, before: PriceInfo, after: PriceInfo): Promise<number[]> {
  const { rows } = await client.query<{ observation_id: number }>(
    `SELECT observation_id FROM price_observations
      WHERE product_id = $1 AND retailer = $2 AND price_basis = 'list' AND observation_id NOT IN ($3, $4)
        AND observed_at > $5 AND observed_at < $6
      ORDER BY observed_at`,
    [before.product_id, before.retailer, before.observation_id, after.observation_id, before.observed_at, after.observed_at],
  );
  return rows.map((r) => Number(r.observation_id));
}

/** What a derived summary says when no phrase applies (the sides differ only in what the wording does not show). */
const fallbackSummary: Record<(typeof signalDimensions)[number], string> = {
  formula: 'The declared formula differs from the previous label state',
  serving: 'The declared serving configuration differs from the previous label state',
  identity: 'The product identity the label states differs from the previous label state',
  price: 'The list price differs from the previous list price',
};

/**
 * Opens a candidate. `openedBy` is the operator's name, or 'monitor' when the
 * source monitor proposes the change.
 */
export async function openCandidate(
  pool: Pool,
  input: OpenCandidateInput,
  openedBy = 'operator',
): Promise<{ candidate_id: number; record_version: string | null }> {
  const { result, record_version } = await withRecordChange(pool, `candidate opened for ${String((input as { product_id?: unknown }).product_id)}`, (client) =>
    openCandidateIn(client, input, openedBy),
  );
  return { candidate_id: result, record_version };
}

/** The same rules inside the caller's Record change (the monitor opens a candidate with the reading that found the change). */
export async function openCandidateIn(client: PoolClient, input: OpenCandidateInput, openedBy: string): Promise<number> {
  const parsed = OpenCandidateInput.safeParse(input);
  if (!parsed.success) throw new CurationRefused(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '), 'invalid_input');
  const c = parsed.data;
  const given = c.summary === undefined ? null : publicText('the summary', c.summary, SUMMARY_MAX);
  if (openedBy.trim().length === 0) throw new CurationRefused('a candidate names who opened it', 'invalid_input');
  {
    const product = await client.query('SELECT 1 FROM products WHERE product_id = $1', [c.product_id]);
    if (product.rowCount === 0) throw new NotFound(`product ${c.product_id} does not exist`);
    const before = c.before_state_id ? await state(client, c.before_state_id, c.product_id, 'before') : null;
    const after = c.after_state_id ? await state(client, c.after_state_id, c.product_id, 'after') : null;
    if (before && after) {
      if (before.state_id === after.state_id) throw new CurationRefused('before and after are the same state', 'no_change');
      if (before.observed_to >= after.observed_from) {
        throw new CurationRefused(`the before state (seen until ${before.observed_to}) must precede the after state (first seen ${after.observed_from})`, 'not_adjacent');
      }
      const between = await statesBetween(client, before, after);
      if (between.length > 0) {
        throw new CurationRefused(
          `${before.state_id} and ${after.state_id} are not adjacent: ${between.join(', ')} was read between them; open one candidate per neighbouring pair`,
          'not_adjacent',
        );
      }
    }
    let window: { start: string; end: string };
    let sides: ChangeSides;
    if (c.dimension === 'price') {
      const bp = await listPrice(client, c.before_price_id!, c.product_id, 'before');
      const ap = await listPrice(client, c.after_price_id!, c.product_id, 'after');
      if (bp.retailer !== ap.retailer) throw new CurationRefused(`the two list prices are from ${bp.retailer} and ${ap.retailer}; a price change compares one retailer's list prices`, 'not_comparable');
      if (bp.observed_at >= ap.observed_at) throw new CurationRefused('the before list price must be observed before the after list price', 'not_adjacent');
      const between = await listPricesBetween(client, bp, ap);
      if (between.length > 0) {
        throw new CurationRefused(`the two list prices are not adjacent: observation(s) ${between.join(', ')} of ${bp.retailer} lie between them`, 'not_adjacent');
      }
      if (bp.price_cents === ap.price_cents && bp.servings_per_container === ap.servings_per_container) {
        throw new CurationRefused('the two list prices are the same: there is no price change', 'no_change');
      }
      window = { start: bp.observed_at, end: ap.observed_at };
      const side = (p: PriceInfo) => ({ price_cents: p.price_cents, retailer: p.retailer, servings_per_container: p.servings_per_container });
      sides = { dimension: 'price', before: null, after: null, prices: { before: side(bp), after: side(ap) } };
    } else {
      const a = await labelOf(client, before!.state_id);
      const b = await labelOf(client, after!.state_id);
      if (c.dimension === 'formula' && !formulaDiffers(a, b)) throw new CurationRefused('the two states declare the same formula', 'no_change');
      if (c.dimension === 'serving' && !servingDiffers(a, b)) throw new CurationRefused('the two states declare the same serving configuration', 'no_change');
      window = { start: before!.observed_to, end: after!.observed_from };
      sides = { dimension: c.dimension, before: labelSide(a), after: labelSide(b) };
    }
    // One wording for a change (decision 1600): what the candidate proposes is what its alert email's lines say.
    const derived = changeSummary(changeLines(sides), fallbackSummary[c.dimension]);
    const summary = given ?? (derived.length >= MIN_PUBLIC_TEXT ? derived : fallbackSummary[c.dimension]);
    const start = c.window_start ?? window.start;
    const end = c.window_end ?? window.end;
    if (start > end) throw new CurationRefused(`window start ${start} is after window end ${end}`, 'window_outside');
    // The change happened after the old side was last read and by the time the new side was first read:
    // the window may be narrowed with outside evidence, never reach into either side's readings.
    if (start < window.start || end > window.end) {
      throw new CurationRefused(
        `the observation window ${start}..${end} must lie within ${window.start}..${window.end} (from the last reading of the old side to the first reading of the new)`,
        'window_outside',
      );
    }
    if (c.exact_change_date && (c.exact_change_date < start || c.exact_change_date > end)) {
      throw new CurationRefused(`the exact change date ${c.exact_change_date} lies outside the observation window ${start}..${end}`, 'window_outside');
    }
    const duplicate = await client.query(
      `SELECT candidate_id FROM candidates
        WHERE product_id = $1 AND dimension = $2 AND status <> 'refused'
          AND before_state_id IS NOT DISTINCT FROM $3 AND after_state_id IS NOT DISTINCT FROM $4
          AND before_price_id IS NOT DISTINCT FROM $5 AND after_price_id IS NOT DISTINCT FROM $6`,
      [c.product_id, c.dimension, c.before_state_id ?? null, c.after_state_id ?? null, c.before_price_id ?? null, c.after_price_id ?? null],
    );
    if (duplicate.rowCount) throw new CurationRefused(`candidate ${duplicate.rows[0].candidate_id} already proposes this change`, 'duplicate');
    const { rows } = await client.query<{ candidate_id: number }>(
      `INSERT INTO candidates (product_id, dimension, before_state_id, after_state_id, before_price_id, after_price_id,
                               window_start, window_end, exact_change_date, summary, opened_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING candidate_id`,
      [c.product_id, c.dimension, c.before_state_id ?? null, c.after_state_id ?? null, c.before_price_id ?? null, c.after_price_id ?? null, start, end, c.exact_change_date ?? null, summary, openedBy.trim()],
    );
    return rows[0]!.candidate_id;
  }
}

export interface ReviewInput {
  candidate_id: number;
  reviewer: string;
  note: string;
}

function checkReview(input: ReviewInput): void {
  if (!Number.isInteger(input.candidate_id) || input.candidate_id <= 0) throw new CurationRefused('a candidate id is a positive integer', 'invalid_input');
  operatorText('the reviewer', input.reviewer, 200);
  operatorText('the review note', input.note);
}

/** Locks an open candidate for review; returns the summary it proposes. */
async function claimOpen(client: PoolClient, candidateId: number): Promise<string> {
  const { rows } = await client.query<{ status: string; summary: string }>('SELECT status, summary FROM candidates WHERE candidate_id = $1 FOR UPDATE', [candidateId]);
  if (!rows[0]) throw new NotFound(`candidate ${candidateId} does not exist`);
  if (rows[0].status !== 'open') throw new CurationRefused(`candidate ${candidateId} is already ${rows[0].status}`, 'already_reviewed');
  return rows[0].summary;
}

export interface ApproveInput extends ReviewInput {
  /** The curator's wording of the public summary; absent: the candidate's own. What is released is what was approved. */
  summary?: string;
}

/** Approves a candidate and creates its Signal, which stays unpublished until the next release. */
export async function approveCandidate(
  pool: Pool,
  input: ApproveInput,
): Promise<{ candidate_id: number; signal_id: string; summary: string; reworded: boolean; record_version: string | null }> {
  checkReview(input);
  const { result, record_version } = await withRecordChange(pool, `candidate ${input.candidate_id} approved`, async (client) => {
    const proposed = await claimOpen(client, input.candidate_id);
    // A reworded summary obeys the same rules as a correction's (text.ts): one trimmed line of 10 to 400 characters.
    // The proposed one sent back unchanged (the console prefills it) is not a rewording.
    const reworded = input.summary === undefined || input.summary.trim() === proposed ? null : publicText('the approved summary', input.summary, SUMMARY_MAX);
    await client.query(
      `UPDATE candidates SET status = 'approved', reviewer = $2, review_note = $3, reviewed_at = now() WHERE candidate_id = $1`,
      [input.candidate_id, input.reviewer.trim(), input.note.trim()],
    );
    const signalId = `sig_${randomId()}`;
    // The candidate keeps the summary it was opened with; the Signal carries the one the curator approved.
    await client.query(
      `INSERT INTO signals (signal_id, candidate_id, product_id, dimension, before_state_id, after_state_id, before_price_id, after_price_id,
                            window_start, window_end, exact_change_date, summary)
       SELECT $2, candidate_id, product_id, dimension, before_state_id, after_state_id, before_price_id, after_price_id,
              window_start, window_end, exact_change_date, $3
         FROM candidates WHERE candidate_id = $1`,
      [input.candidate_id, signalId, reworded ?? proposed],
    );
    return { signalId, summary: reworded ?? proposed, reworded: reworded !== null };
  });
  return { candidate_id: input.candidate_id, signal_id: result.signalId, summary: result.summary, reworded: result.reworded, record_version };
}

export async function refuseCandidate(pool: Pool, input: ReviewInput): Promise<{ candidate_id: number; record_version: string | null }> {
  checkReview(input);
  const { record_version } = await withRecordChange(pool, `candidate ${input.candidate_id} refused`, async (client) => {
    await claimOpen(client, input.candidate_id);
    await client.query(
      `UPDATE candidates SET status = 'refused', reviewer = $2, review_note = $3, reviewed_at = now() WHERE candidate_id = $1`,
      [input.candidate_id, input.reviewer.trim(), input.note.trim()],
    );
  });
  return { candidate_id: input.candidate_id, record_version };
}

export interface CandidateListItem {
  candidate_id: number;
  product_id: string;
  dimension: string;
  status: string;
  before_state_id: string | null;
  after_state_id: string | null;
  window_start: string;
  window_end: string;
  exact_change_date: string | null;
  opened_by: string;
}

/** Candidates, oldest first; operator-side only (candidates are invisible to every answer). */
export async function listCandidates(pool: Pool, filter: { product_id: string | null; status: 'open' | 'approved' | 'refused' | null }): Promise<CandidateListItem[]> {
  const { rows } = await pool.query<CandidateListItem>(
    `SELECT candidate_id, product_id, dimension, status, before_state_id, after_state_id, window_start, window_end, exact_change_date, opened_by
       FROM candidates WHERE ($1::text IS NULL OR product_id = $1) AND ($2::text IS NULL OR status = $2)
      ORDER BY candidate_id LIMIT 10000`,
    [filter.product_id, filter.status],
  );
  return rows;
}
