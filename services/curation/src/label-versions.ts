import type { PoolClient } from '@evidence-record/platform';
import type { CaptureInput } from './bundle';
import { contentOf, dateOf, insertCapture, insertState } from './captures';
import { CurationRefused } from './errors';
import { labelOf, sameLabel } from './labels';

/** Where a label version went in its product's history. */
export interface LabelVersionPlacement {
  capture_id: number;
  state_id: string;
  state_created: boolean;
  /** When a state was created: its neighbours in the history, between which candidates may open. */
  before_state_id: string | null;
  after_state_id: string | null;
}

interface StateSpan {
  state_id: string;
  observed_from: string;
  observed_to: string;
}

/**
 * Places one DSLD label version in its product's history, dated by the
 * label's own DSLD date (decision 1401), wherever that date falls: before,
 * between or after the states the Record holds. A label whose declared
 * content is its neighbour's is a reading of that state (its observed range
 * grows to the label's date); otherwise it is a new state between them.
 * Refused (nothing written) when its date falls inside a state that declares
 * something else, or when it would move or split the span of a change a
 * curator already approved. Open candidates across a span that narrows get
 * the narrower window.
 */
export async function placeLabelVersion(client: PoolClient, capture: CaptureInput, sourceId: number): Promise<LabelVersionPlacement> {
  if (!capture.label) throw new CurationRefused('a label version carries a label', 'invalid_input');
  const productId = capture.product_id;
  const day = dateOf(capture);
  const content = contentOf(capture.label);
  const { rows: states } = await client.query<StateSpan>(
    `SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1 ORDER BY observed_from, observed_to, state_id`,
    [productId],
  );
  const prev = [...states].reverse().find((s) => s.observed_from <= day) ?? null;
  const next = states.find((s) => s.observed_from > day) ?? null;
  const same = async (s: StateSpan | null) => s !== null && sameLabel(await labelOf(client, s.state_id), content);

  if (prev && day <= prev.observed_to) {
    if (!(await same(prev))) {
      throw new CurationRefused(
        `the label's DSLD date ${day} falls within state ${prev.state_id} (${prev.observed_from}..${prev.observed_to}), which declares something else`,
        'out_of_order',
      );
    }
    return reading(client, capture, sourceId, prev.state_id);
  }
  if (await same(prev)) {
    await narrowSpan(client, prev!, next, { to: day });
    await client.query(`UPDATE history_states SET observed_to = $2 WHERE state_id = $1`, [prev!.state_id, day]);
    return reading(client, capture, sourceId, prev!.state_id);
  }
  if (await same(next)) {
    await narrowSpan(client, prev, next!, { from: day });
    await client.query(`UPDATE history_states SET observed_from = $2 WHERE state_id = $1`, [next!.state_id, day]);
    return reading(client, capture, sourceId, next!.state_id);
  }
  if (prev && next) {
    const spanning = await candidatesAcross(client, prev.state_id, next.state_id);
    if (spanning.length > 0) {
      throw new CurationRefused(
        `candidate ${spanning[0]!.candidate_id} (${spanning[0]!.status}) proposes the change between ${prev.state_id} and ${next.state_id}; a label dated ${day} would split it. Refuse that candidate first, or attach label versions oldest first`,
        'history_reviewed',
      );
    }
  }
  const captureId = await insertCapture(client, capture, sourceId);
  const stateId = await insertState(client, productId, captureId, day, capture.label);
  return { capture_id: captureId, state_id: stateId, state_created: true, before_state_id: prev?.state_id ?? null, after_state_id: next?.state_id ?? null };
}

async function reading(client: PoolClient, capture: CaptureInput, sourceId: number, stateId: string): Promise<LabelVersionPlacement> {
  const captureId = await insertCapture(client, capture, sourceId);
  await client.query(`INSERT INTO state_readings (state_id, capture_id) VALUES ($1, $2)`, [stateId, captureId]);
  return { capture_id: captureId, state_id: stateId, state_created: false, before_state_id: null, after_state_id: null };
}

async function candidatesAcross(client: PoolClient, beforeId: string, afterId: string) {
  const { rows } = await client.query<{ candidate_id: number; status: string }>(
    `SELECT candidate_id, status FROM candidates WHERE before_state_id = $1 AND after_state_id = $2 AND status <> 'refused' ORDER BY candidate_id`,
    [beforeId, afterId],
  );
  return rows;
}

/**
 * The span between two neighbouring states narrows (one of them now reaches
 * the label's date): an open candidate across it gets the narrower window; an
 * approved one (a Signal) keeps its window, so the label is refused.
 */
async function narrowSpan(client: PoolClient, prev: StateSpan | null, next: StateSpan | null, to: { from?: string; to?: string }): Promise<void> {
  if (!prev || !next) return;
  const spanning = await candidatesAcross(client, prev.state_id, next.state_id);
  const approved = spanning.find((c) => c.status === 'approved');
  if (approved) {
    throw new CurationRefused(
      `candidate ${approved.candidate_id} was approved with the window ${prev.observed_to}..${next.observed_from}; a label version inside that window would change it`,
      'history_reviewed',
    );
  }
  const start = to.to ?? prev.observed_to;
  const end = to.from ?? next.observed_from;
  await client.query(
    `UPDATE candidates SET window_start = $3, window_end = $4,
            exact_change_date = CASE WHEN exact_change_date BETWEEN $3::date AND $4::date THEN exact_change_date END
      WHERE before_state_id = $1 AND after_state_id = $2 AND status = 'open'`,
    [prev.state_id, next.state_id, start, end],
  );
}
