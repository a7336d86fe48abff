import type { Pool } from '@evidence-record/platform';
import { netContentsText, type ChangeHeading } from '@evidence-record/contract';
import { NotFound } from './errors';
import { labelOf, type LabelContent } from './labels';

/**
 * What a curator looks at before and after acting: the same reads for the
 * operator CLI (`state list`, `candidate show`, …) and the review console.
 */

export interface StateListItem {
  state_id: string;
  classification: string;
  first_read: string;
  last_read: string;
}

/** A product's history states, oldest first. */
export async function listStates(pool: Pool, productId: string): Promise<StateListItem[]> {
  const product = await pool.query('SELECT 1 FROM products WHERE product_id = $1', [productId]);
  if (!product.rowCount) throw new NotFound(`no product ${productId}`);
  const { rows } = await pool.query<StateListItem>(
    `SELECT state_id, classification, observed_from::text AS first_read, observed_to::text AS last_read
       FROM history_states WHERE product_id = $1 ORDER BY observed_from, observed_to, state_id`,
    [productId],
  );
  return rows;
}

/** One declared line of a label, as a reviewer reads it. */
export function declaredLines(label: LabelContent): string[] {
  const s = label.serving;
  const serving = [
    `Serving: ${s.size ?? '?'} ${s.unit ?? ''}`.trim() + (s.description ? ` (${s.description})` : ''),
    `Servings per container: ${s.servings_per_container ?? '?'}`,
    ...(label.net_contents.length > 0 ? [`Net contents: ${netContentsText(label.net_contents)}`] : []),
  ];
  const blends = label.blends.map((b) => `Blend ${b.name}: ${b.total_amount ?? 'undisclosed'} ${b.total_unit ?? ''}`.trim());
  const ingredients = label.ingredients.map((i) => `${i.blend ? `[${i.blend}] ` : ''}${i.declared_name}: ${i.amount ?? 'undisclosed'} ${i.unit ?? ''}`.trim());
  return [...serving, ...blends, ...ingredients];
}

export interface DiffLine {
  /** `same`: on both labels; `removed`: only before; `added`: only after. */
  op: 'same' | 'removed' | 'added';
  line: string;
}

/** A line diff (longest common subsequence) of the two labels' declared lines. */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) {
      out.push({ op: 'same', line: before[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: 'removed', line: before[i++]! });
    else out.push({ op: 'added', line: after[j++]! });
  }
  while (i < n) out.push({ op: 'removed', line: before[i++]! });
  while (j < m) out.push({ op: 'added', line: after[j++]! });
  return out;
}

export interface EvidenceRead {
  state_id: string | null;
  price_observation_id: number | null;
  source_url: string | null;
  retailer: string | null;
  observed_at: string;
  content_sha256: string | null;
  storage_path: string | null;
}

export interface CandidateDetail {
  candidate_id: number;
  product: { product_id: string; name: string; brand: string };
  dimension: string;
  status: string;
  summary: string;
  opened_at: string;
  opened_by: string | null;
  reviewer: string | null;
  review_note: string | null;
  signal_id: string | null;
  /** The summary the approved Signal carries: the candidate's, or as the reviewer reworded it. */
  signal_summary: string | null;
  /** The window the Record derives: from the last reading of the old side to the first reading of the new. */
  derived_window: { start: string; end: string } | null;
  window: { start: string; end: string; exact_change_date: string | null };
  before: { state_id: string | null; price: Record<string, unknown> | null; lines: string[] };
  after: { state_id: string | null; price: Record<string, unknown> | null; lines: string[] };
  diff: DiffLine[];
  evidence: EvidenceRead[];
}

async function readsOf(pool: Pool, stateId: string): Promise<EvidenceRead[]> {
  const { rows } = await pool.query<EvidenceRead>(
    `SELECT r.state_id, NULL::bigint AS price_observation_id, s.url AS source_url, s.retailer,
            c.observed_at::text AS observed_at, c.content_sha256, c.storage_path
       FROM state_readings r JOIN captures c ON c.capture_id = r.capture_id JOIN sources s ON s.source_id = c.source_id
      WHERE r.state_id = $1
     UNION ALL
     SELECT h.state_id, NULL, s.url, s.retailer, c.observed_at::text, c.content_sha256, c.storage_path
       FROM history_states h JOIN captures c ON c.capture_id = h.capture_id JOIN sources s ON s.source_id = c.source_id
      WHERE h.state_id = $1 AND NOT EXISTS (SELECT 1 FROM state_readings r WHERE r.capture_id = h.capture_id)
      ORDER BY observed_at`,
    [stateId],
  );
  return rows;
}

async function priceOf(pool: Pool, id: number): Promise<Record<string, unknown> | null> {
  const { rows } = await pool.query(
    `SELECT p.observation_id, p.retailer, p.observed_at::text AS observed_at, p.price_cents, p.price_basis, p.servings_per_container, s.url AS source_url
       FROM price_observations p LEFT JOIN sources s ON s.source_id = p.source_id WHERE p.observation_id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

function priceLines(p: Record<string, unknown> | null): string[] {
  if (!p) return [];
  return [`List price at ${String(p.retailer)}: $${(Number(p.price_cents) / 100).toFixed(2)}`, `Servings per container: ${String(p.servings_per_container ?? '?')}`];
}

export async function showCandidate(pool: Pool, candidateId: number): Promise<CandidateDetail> {
  const { rows } = await pool.query(
    `SELECT c.*, c.window_start::text AS ws, c.window_end::text AS we, c.exact_change_date::text AS ecd, c.opened_at,
            p.name AS product_name, b.name AS brand_name, s.signal_id, s.summary AS signal_summary,
            hb.observed_to::text AS before_last, ha.observed_from::text AS after_first
       FROM candidates c JOIN products p ON p.product_id = c.product_id JOIN brands b ON b.brand_id = p.brand_id
       LEFT JOIN signals s ON s.candidate_id = c.candidate_id
       LEFT JOIN history_states hb ON hb.state_id = c.before_state_id
       LEFT JOIN history_states ha ON ha.state_id = c.after_state_id
      WHERE c.candidate_id = $1`,
    [candidateId],
  );
  const c = rows[0];
  if (!c) throw new NotFound(`no candidate ${candidateId}`);
  const bp = c.before_price_id ? await priceOf(pool, Number(c.before_price_id)) : null;
  const ap = c.after_price_id ? await priceOf(pool, Number(c.after_price_id)) : null;
  const beforeLines = c.before_state_id && c.dimension !== 'price' ? declaredLines(await labelOf(pool, c.before_state_id)) : priceLines(bp);
  const afterLines = c.after_state_id && c.dimension !== 'price' ? declaredLines(await labelOf(pool, c.after_state_id)) : priceLines(ap);
  const evidence: EvidenceRead[] = [];
  if (c.dimension === 'price') {
    for (const p of [bp, ap]) {
      if (p) evidence.push({ state_id: null, price_observation_id: Number(p.observation_id), source_url: (p.source_url as string) ?? null, retailer: p.retailer as string, observed_at: String(p.observed_at), content_sha256: null, storage_path: null });
    }
  } else {
    for (const id of [c.before_state_id, c.after_state_id]) if (id) evidence.push(...(await readsOf(pool, id)));
  }
  const derived =
    c.dimension === 'price'
      ? bp && ap
        ? { start: String(bp.observed_at), end: String(ap.observed_at) }
        : null
      : c.before_last && c.after_first
        ? { start: c.before_last, end: c.after_first }
        : null;
  return {
    candidate_id: Number(c.candidate_id),
    product: { product_id: c.product_id, name: c.product_name, brand: c.brand_name },
    dimension: c.dimension,
    status: c.status,
    summary: c.summary,
    opened_at: new Date(c.opened_at).toISOString(),
    opened_by: typeof c.opened_by === 'string' ? c.opened_by : null,
    reviewer: c.reviewer,
    review_note: c.review_note,
    signal_id: c.signal_id ?? null,
    signal_summary: c.signal_summary ?? null,
    derived_window: derived,
    window: { start: c.ws, end: c.we, exact_change_date: c.ecd },
    before: { state_id: c.before_state_id, price: bp, lines: beforeLines },
    after: { state_id: c.after_state_id, price: ap, lines: afterLines },
    diff: diffLines(beforeLines, afterLines),
    evidence,
  };
}

/** One open candidate in the review queue: what it is about, and who opened it when. */
export interface QueueItem extends ChangeHeading {
  candidate_id: number;
  opened_at: string;
  opened_by: string | null;
  age_hours: number;
}

/** The review queue: open candidates, oldest first. */
export async function openCandidateQueue(pool: Pool): Promise<QueueItem[]> {
  const { rows } = await pool.query(
    `SELECT c.candidate_id, c.product_id, p.name AS product_name, b.name AS brand_name, c.dimension, c.summary,
            c.window_start::text AS window_start, c.window_end::text AS window_end, c.opened_at, to_jsonb(c) -> 'opened_by' AS opened_by,
            floor(extract(epoch FROM now() - c.opened_at) / 3600)::int AS age_hours
       FROM candidates c JOIN products p ON p.product_id = c.product_id JOIN brands b ON b.brand_id = p.brand_id
      WHERE c.status = 'open' ORDER BY c.opened_at, c.candidate_id`,
  );
  return rows.map((r) => ({ ...r, candidate_id: Number(r.candidate_id), opened_at: new Date(r.opened_at).toISOString(), opened_by: typeof r.opened_by === 'string' ? r.opened_by : null }));
}

export interface UnreleasedSignal {
  signal_id: string;
  candidate_id: number;
  product_id: string;
  product_name: string;
  brand_name: string;
  dimension: string;
  summary: string;
  window_start: string;
  window_end: string;
  reviewer: string | null;
  reviewed_at: string | null;
  /** Accounts watching the product now: who the release would email. */
  recipients: Array<{ account_id: string; email: string }>;
}

/** Approved Signals waiting for a release, with the accounts each would alert. */
export async function listUnreleasedSignals(pool: Pool): Promise<UnreleasedSignal[]> {
  const { rows } = await pool.query(
    `SELECT s.signal_id, s.candidate_id, s.product_id, p.name AS product_name, b.name AS brand_name, s.dimension, s.summary,
            s.window_start::text AS window_start, s.window_end::text AS window_end, c.reviewer, c.reviewed_at,
            coalesce((SELECT jsonb_agg(jsonb_build_object('account_id', a.account_id, 'email', a.email) ORDER BY a.account_id)
                        FROM watches w JOIN accounts a ON a.account_id = w.account_id
                       WHERE w.product_id = s.product_id AND a.org_id IS NOT NULL), '[]'::jsonb) AS recipients
       FROM signals s JOIN candidates c ON c.candidate_id = s.candidate_id JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
      WHERE s.released_on IS NULL AND c.status = 'approved'
      ORDER BY c.reviewed_at, s.signal_id`,
  );
  return rows.map((r) => ({ ...r, candidate_id: Number(r.candidate_id), reviewed_at: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null }));
}

/** Released Signals, newest first (the console's Signals page). */
export async function listReleasedSignals(pool: Pool, limit = 100): Promise<Array<Record<string, unknown>>> {
  const { rows } = await pool.query(
    `SELECT s.signal_id, s.product_id, p.name AS product_name, b.name AS brand_name, s.dimension, s.summary, s.status, s.released_on::text AS released_on,
            (SELECT count(*)::int FROM signal_corrections sc WHERE sc.signal_id = s.signal_id) AS corrections
       FROM signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id
      WHERE s.released_on IS NOT NULL ORDER BY s.released_on DESC, s.signal_id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

/** An account's alerts (release alerts and correction notices), newest first. */
export async function listAlerts(pool: Pool, accountId: string): Promise<Array<Record<string, unknown>>> {
  const account = await pool.query('SELECT 1 FROM accounts WHERE account_id = $1', [accountId]);
  if (!account.rowCount) throw new NotFound(`no account ${accountId}`);
  const { rows } = await pool.query(
    `SELECT a.alert_id, to_jsonb(a) ->> 'kind' AS kind, a.signal_id, a.product_id, a.status, a.attempts, a.last_error,
            a.created_at, a.sent_at
       FROM alerts a WHERE a.account_id = $1 ORDER BY a.created_at DESC, a.alert_id LIMIT 1000`,
    [accountId],
  );
  return rows.map((r) => ({ ...r, kind: r.kind ?? 'release' }));
}

export async function listEditions(pool: Pool): Promise<Array<Record<string, unknown>>> {
  const { rows } = await pool.query(
    `SELECT edition_id, period, status, opened_at, closed_at, data_as_of::text AS data_as_of, count_released, edition_hash
       FROM ledger_editions ORDER BY period`,
  );
  return rows;
}
