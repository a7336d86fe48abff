import type { ClientBase } from 'pg';
import type { z } from 'zod';
import { signalUrl, type Signal, type SignalCorrection } from '@evidence-record/contract';
import type { ReleasedSignalColumns, SignalProductNames } from './rows';

/**
 * A released Signal, read and presented once for every answer that carries
 * one: explain_signal, list_signal_changes and get_category_snapshot (the
 * signals service), get_formula_history (record) and get_ledger_edition
 * (ledger). Every read here requires `released_on IS NOT NULL`: a Signal row
 * exists only for an approved candidate (schema trigger), and it surfaces
 * only once it has been released in a dated batch.
 */

/** The columns every reader of a released Signal selects, from `RELEASED_SIGNALS`. */
export const RELEASED_SIGNAL_COLUMNS = `
  s.signal_id, s.product_id, p.name AS product_name, p.brand_id, b.name AS brand_name, p.category,
  s.dimension, s.summary, s.status, s.window_start, s.window_end, s.exact_change_date, s.released_on,
  s.before_state_id, s.after_state_id, s.before_price_id, s.after_price_id`;

/** A Signal joined to its product (for the category) and the product's brand. */
export const RELEASED_SIGNALS = `signals s JOIN products p ON p.product_id = s.product_id JOIN brands b ON b.brand_id = p.brand_id`;

export interface SignalRow extends ReleasedSignalColumns, SignalProductNames {
  before_price_id: number | null;
  after_price_id: number | null;
}

/**
 * Which released Signals to read, in the order each answer lists them: the
 * Signals an edition names by release (then id), or a product's Signals by the
 * end of their observation window (then release, then id).
 */
export type SignalSelection = { signalIds: string[] } | { productId: string };

export async function findReleasedSignal(client: ClientBase, signalId: string): Promise<SignalRow | null> {
  const { rows } = await client.query<SignalRow>({
    name: 'store-released-signal',
    text: `SELECT ${RELEASED_SIGNAL_COLUMNS} FROM ${RELEASED_SIGNALS} WHERE s.signal_id = $1 AND s.released_on IS NOT NULL`,
    values: [signalId],
  });
  return rows[0] ?? null;
}

export async function releasedSignals(client: ClientBase, selection: SignalSelection): Promise<SignalRow[]> {
  if ('signalIds' in selection) {
    if (selection.signalIds.length === 0) return [];
    const { rows } = await client.query<SignalRow>({
      name: 'store-released-signals-by-id',
      text: `SELECT ${RELEASED_SIGNAL_COLUMNS} FROM ${RELEASED_SIGNALS}
              WHERE s.signal_id = ANY($1::text[]) AND s.released_on IS NOT NULL
              ORDER BY s.released_on, s.signal_id`,
      values: [selection.signalIds],
    });
    return rows;
  }
  const { rows } = await client.query<SignalRow>({
    name: 'store-released-signals-of-product',
    text: `SELECT ${RELEASED_SIGNAL_COLUMNS} FROM ${RELEASED_SIGNALS}
            WHERE s.product_id = $1 AND s.released_on IS NOT NULL
            ORDER BY s.window_end, s.released_on, s.signal_id`,
    values: [selection.productId],
  });
  return rows;
}

export interface CorrectionRow {
  signal_id: string;
  kind: 'correction' | 'withdrawal';
  recorded_on: string;
  public_note: string;
  summary_before: string | null;
  summary_after: string | null;
}

/** Public corrections only, oldest first: the operator note never leaves the operator side. */
export async function correctionsOf(client: ClientBase, signalIds: string[]): Promise<Map<string, CorrectionRow[]>> {
  const out = new Map<string, CorrectionRow[]>();
  if (signalIds.length === 0) return out;
  const { rows } = await client.query<CorrectionRow>({
    name: 'store-signal-corrections',
    text: `SELECT signal_id, kind, recorded_on, public_note, summary_before, summary_after
             FROM signal_corrections WHERE signal_id = ANY($1::text[])
            ORDER BY recorded_on, correction_id`,
    values: [signalIds],
  });
  for (const r of rows) out.set(r.signal_id, [...(out.get(r.signal_id) ?? []), r]);
  return out;
}

export type SignalOut = z.infer<typeof Signal>;

export function presentCorrection(c: CorrectionRow): z.infer<typeof SignalCorrection> {
  // Both texts are public: what was released (and emailed) stays readable beside what replaced it.
  return { kind: c.kind, recorded_on: c.recorded_on, note: c.public_note, summary_before: c.summary_before, summary_after: c.summary_after };
}

/**
 * The contract's `Signal` of a released Signal: the two sides name their
 * states (null for a price Signal recorded without them); explain_signal adds
 * the detail and the evidence to the sides.
 */
export function presentSignal(row: SignalRow, corrections: CorrectionRow[], publicBaseUrl: string): SignalOut {
  return {
    signal_id: row.signal_id,
    product: { product_id: row.product_id, name: row.product_name, brand_id: row.brand_id, brand_name: row.brand_name },
    dimension: row.dimension,
    category: row.category,
    summary: row.summary,
    status: row.status,
    observation_window: { start: row.window_start, end: row.window_end, exact_change_date: row.exact_change_date },
    review: { released_at: row.released_on, reviewed: true },
    signal_url: signalUrl(publicBaseUrl, row.signal_id),
    before: row.before_state_id ? { state_id: row.before_state_id } : null,
    after: row.after_state_id ? { state_id: row.after_state_id } : null,
    corrections: corrections.map(presentCorrection),
  };
}

/** Released Signals with their corrections, as the contract's `Signal`, in the selection's order. */
export async function presentedSignals(client: ClientBase, selection: SignalSelection, publicBaseUrl: string): Promise<SignalOut[]> {
  const rows = await releasedSignals(client, selection);
  const corrections = await correctionsOf(client, rows.map((r) => r.signal_id));
  return rows.map((r) => presentSignal(r, corrections.get(r.signal_id) ?? [], publicBaseUrl));
}
