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
 * grows to the label's date); otherwise it is a new state between them. The
 * product's newest version, dated inside the newest state's range (the
 * monitor kept reading the older version's DSLD record), ends that state at
 * its last reading before the newer date. Refused (nothing written) when its
 * date falls inside any other state that declares something else, or when it
 * would move or split the span of a change a candidate already proposes or a
 * curator approved. Open candidates across a span that narrows get the
 * narrower window.
 */
export async function placeLabelVersion(
  client: PoolClient,
  capture: CaptureInput,
  sourceId: number,
  opts: { newestVersion?: boolean } = {},
): Promise<LabelVersionPlacement> {
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
    if (await same(prev)) return reading(client, capture, sourceId, prev.state_id);
    if (opts.newestVersion && next === null && prev.observed_from < day) {
      // The product's newest label version is replaced: readings of the older version's DSLD record on or after
      // the newer version's date read a replaced label, not the product's (decision 1401).
      await supersede(client, prev, day);
      const captureId = await insertCapture(client, capture, sourceId);
      const stateId = await insertState(client, productId, captureId, day, capture.label);
      return { capture_id: captureId, state_id: stateId, state_created: true, before_state_id: prev.state_id, after_state_id: null };
    }
    throw new CurationRefused(
      `the label's DSLD date ${day} falls within state ${prev.state_id} (${prev.observed_from}..${prev.observed_to}), which declares something else`,
      'out_of_order',
    );
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

/**
 * The newest state stops at its last reading before `day` (its own first day at least); readings on or after
 * `day` are no longer readings of it.
 */
async function supersede(client: PoolClient, state: StateSpan, day: string): Promise<void> {
  const { rows } = await client.query<{ last: string | null }>(
    `SELECT max((c.observed_at AT TIME ZONE 'UTC')::date)::text AS last FROM captures c
      WHERE (c.capture_id = (SELECT capture_id FROM history_states WHERE state_id = $1)
             OR c.capture_id IN (SELECT capture_id FROM state_readings WHERE state_id = $1))
        AND (c.observed_at AT TIME ZONE 'UTC')::date < $2::date`,
    [state.state_id, day],
  );
  const last = rows[0]?.last && rows[0].last > state.observed_from ? rows[0].last : state.observed_from;
  await client.query(
    `DELETE FROM state_readings WHERE state_id = $1
        AND capture_id IN (SELECT capture_id FROM captures WHERE (observed_at AT TIME ZONE 'UTC')::date >= $2::date)`,
    [state.state_id, day],
  );
  await client.query(`UPDATE history_states SET observed_to = $2 WHERE state_id = $1`, [state.state_id, last]);
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
