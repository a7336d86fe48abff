import { contentOf, labelOf, rederiveStateIn, rederivesTheSame, sameLabel } from '@evidence-record/curation';
import { takeRecordWriterLock, withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { loadEvidence } from './evidence';
import { dsldLabel } from './kinds/dsld-label';
import { labelCaptureOf } from './label-capture';
import type { IngredientNames } from './synonyms';

export interface RederiveSummary {
  /** States read from DSLD label bytes the Record keeps. */
  examined: number;
  /** States whose declared content the current rule reads differently, now re-derived (or, on a dry run, that would be). */
  rederived: string[];
  unchanged: number;
  /** States whose bytes the current rule cannot read, or whose bytes are not kept; left as they are. */
  not_rederivable: Array<{ state_id: string; reason: string }>;
  /** States a later reading of different bytes now reads differently from the first: one state may hold two labels. Left for an operator. */
  conflicts: Array<{ state_id: string; reason: string }>;
  /** Candidates and Signals between re-derived states: their summaries were written from the old reading; a curator reviews them. */
  review: Array<{ state_id: string; candidate_ids: number[]; signal_ids: string[] }>;
  /** Captures of kept label bytes read before the Record kept what a label prints beside its Supplement Facts (statements, other ingredients; decision 2420), now given it (or, on a dry run, that would be). */
  source_facts_read: number;
  record_version: string | null;
}

interface StateBytes {
  state_id: string;
  sha256: string;
  reading_shas: string[];
}

/**
 * Re-derivation (decision 1400): every history state the Record read from
 * DSLD label bytes it keeps is read again from those bytes under the current
 * rule. A state whose content reads differently is corrected in place
 * (rederiveStateIn): same id, dates, readings, candidates and Signals, its
 * old content kept in state_rederivations, one Record change for the lot.
 * States created by capture import or the demo seed keep what they say: the
 * Record holds no bytes to read them from.
 */
export async function rederiveStates(
  pool: Pool,
  names: Pick<IngredientNames, 'identify'>,
  opts: { by: string; productId?: string | null; dryRun?: boolean },
): Promise<RederiveSummary> {
  const work = async (client: PoolClient | Pool, write: boolean): Promise<Omit<RederiveSummary, 'record_version'>> => {
    const { rows } = await client.query<StateBytes>(
      `SELECT hs.state_id, c.content_sha256 AS sha256,
              coalesce((SELECT array_agg(DISTINCT rc.content_sha256) FROM state_readings sr JOIN captures rc ON rc.capture_id = sr.capture_id
                         WHERE sr.state_id = hs.state_id AND rc.content_sha256 <> c.content_sha256), '{}') AS reading_shas
         FROM history_states hs JOIN captures c ON c.capture_id = hs.capture_id
        WHERE c.storage_path LIKE 'evidence:sha256:%' AND ($1::text IS NULL OR hs.product_id = $1)
          AND EXISTS (SELECT 1 FROM evidence e WHERE e.sha256 = c.content_sha256 AND e.kind = $2)
        ORDER BY hs.product_id, hs.observed_from, hs.state_id`,
      [opts.productId ?? null, dsldLabel.name],
    );
    const out: Omit<RederiveSummary, 'record_version'> = { examined: rows.length, rederived: [], unchanged: 0, not_rederivable: [], conflicts: [], review: [], source_facts_read: 0 };
    // States whose declared label reads differently now: a state that only gained net contents (decision 2410) changes no wording to review.
    const reread: string[] = [];
    for (const s of rows) {
      const label = await labelFrom(pool, names, s.sha256);
      if (typeof label === 'string') {
        out.not_rederivable.push({ state_id: s.state_id, reason: label });
        continue;
      }
      const conflict = await laterReadingDiffers(pool, names, label, s.reading_shas);
      if (conflict) {
        out.conflicts.push({ state_id: s.state_id, reason: conflict });
        continue;
      }
      if (write) {
        const done = await rederiveStateIn(client as PoolClient, s.state_id, label, { evidence_sha256: s.sha256, by: opts.by });
        if (!done.rederived) {
          out.unchanged++;
          continue;
        }
        if (!sameLabel(done.before, done.after)) reread.push(s.state_id);
      } else {
        const before = await labelOf(client, s.state_id);
        if (rederivesTheSame(before, contentOf(label))) {
          out.unchanged++;
          continue;
        }
        if (!sameLabel(before, contentOf(label))) reread.push(s.state_id);
      }
      out.rederived.push(s.state_id);
    }
    if (reread.length > 0) {
      const refs = await client.query<{ state_id: string; candidate_ids: number[]; signal_ids: string[] }>(
        `SELECT s.state_id,
                coalesce((SELECT array_agg(c.candidate_id ORDER BY c.candidate_id) FROM candidates c WHERE s.state_id IN (c.before_state_id, c.after_state_id)), '{}') AS candidate_ids,
                coalesce((SELECT array_agg(g.signal_id ORDER BY g.signal_id) FROM signals g WHERE s.state_id IN (g.before_state_id, g.after_state_id)), '{}') AS signal_ids
           FROM unnest($1::text[]) AS s(state_id)`,
        [reread],
      );
      out.review = refs.rows.filter((r) => r.candidate_ids.length > 0 || r.signal_ids.length > 0).map((r) => ({ ...r, candidate_ids: r.candidate_ids.map(Number) }));
    }
    out.source_facts_read = await readBesideFactsOfOldCaptures(client, pool, opts.productId ?? null, write);
    return out;
  };
  if (opts.dryRun) return { ...(await work(pool, false)), record_version: null };
  const { result, record_version } = await withRecordChange(pool, `re-derivation of label states${opts.productId ? ` of ${opts.productId}` : ''}`, async (client) => {
    // Read and write under the writer lock: no reading is placed between what this reads and what it writes.
    await takeRecordWriterLock(client);
    return work(client, true);
  });
  return { ...result, record_version };
}

/**
 * Captures of kept DSLD bytes whose source facts predate what the Record reads beside a label's Supplement Facts
 * (decision 2420): its statements and other ingredients are read from the same bytes and added to the capture's
 * source facts; nothing else in them changes. Bytes that no longer read are left as they are (their states are
 * reported above).
 */
async function readBesideFactsOfOldCaptures(client: PoolClient | Pool, pool: Pool, productId: string | null, write: boolean): Promise<number> {
  const { rows } = await client.query<{ capture_id: string; sha256: string }>(
    `SELECT c.capture_id, c.content_sha256 AS sha256
       FROM captures c JOIN sources s ON s.source_id = c.source_id
      WHERE c.storage_path LIKE 'evidence:sha256:%' AND c.source_facts IS NOT NULL AND NOT (c.source_facts ?& array['statements', 'other_ingredients'])
        AND ($1::text IS NULL OR s.product_id = $1)
        AND EXISTS (SELECT 1 FROM evidence e WHERE e.sha256 = c.content_sha256 AND e.kind = $2)
      ORDER BY c.capture_id`,
    [productId, dsldLabel.name],
  );
  // Many captures share bytes (every reading of an unchanged label): each set of bytes is read, and written, once.
  const captureIds = new Map<string, string[]>();
  for (const c of rows) captureIds.set(c.sha256, [...(captureIds.get(c.sha256) ?? []), c.capture_id]);
  let read = 0;
  for (const [sha256, ids] of captureIds) {
    const evidence = await loadEvidence(pool, sha256);
    const parsed = evidence ? dsldLabel.reread(evidence.content) : null;
    if (!parsed?.ok) continue;
    if (write) {
      const { statements, other_ingredients } = parsed.reading.facts;
      await client.query(
        `UPDATE captures SET source_facts = source_facts || jsonb_build_object('statements', $2::jsonb, 'other_ingredients', $3::jsonb) WHERE capture_id = ANY($1::bigint[])`,
        [ids, JSON.stringify(statements), JSON.stringify(other_ingredients)],
      );
    }
    read += ids.length;
  }
  return read;
}

/** The label a kept DSLD reading holds under the current rule, or why it has none. */
async function labelFrom(pool: Pool, names: Pick<IngredientNames, 'identify'>, sha256: string) {
  const evidence = await loadEvidence(pool, sha256);
  if (!evidence) return `its label bytes (${sha256.slice(0, 12)}…) are not kept`;
  const parsed = dsldLabel.reread(evidence.content);
  if (!parsed.ok) return `its label bytes read as ${parsed.outcome}: ${parsed.reason}`;
  return (await labelCaptureOf(parsed.reading, names)).label;
}

async function laterReadingDiffers(pool: Pool, names: Pick<IngredientNames, 'identify'>, first: Parameters<typeof contentOf>[0], readingShas: string[]): Promise<string | null> {
  for (const sha of readingShas) {
    const later = await labelFrom(pool, names, sha);
    if (typeof later === 'string') continue;
    if (!sameLabel(contentOf(first), contentOf(later))) return `a later reading (bytes ${sha.slice(0, 12)}…) now reads differently from the first: the state may hold two labels; re-read it by hand`;
  }
  return null;
}
