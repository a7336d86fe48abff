import type { z } from 'zod';
import type {
  Calculation,
  CommercialFact,
  HistoryState,
  Signal,
  SignalCorrection,
  SourceReference,
  VerifiedFact,
} from '@evidence-record/contract';
import { signalUrl } from '@evidence-record/contract';
import type { CorrectionRow, SignalRow } from './queries/signals';
import type { DeclaredIngredientRow, PriceRow, StateRow } from './queries/evidence';

/** Rows of the Record turned into the contract's sub-records. Nothing internal is copied across. */
export type SignalOut = z.infer<typeof Signal>;
export type HistoryStateOut = z.infer<typeof HistoryState>;
export type VerifiedFactOut = z.infer<typeof VerifiedFact>;
export type CommercialFactOut = z.infer<typeof CommercialFact>;
export type CalculationOut = z.infer<typeof Calculation>;
export type SourceReferenceOut = z.infer<typeof SourceReference>;

export function presentCorrection(c: CorrectionRow): z.infer<typeof SignalCorrection> {
  return { kind: c.kind, recorded_on: c.recorded_on, note: c.public_note };
}

/** The feed form of a Signal: the two sides name their states; explain_signal adds the detail and the evidence. */
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

export function presentState(s: StateRow): HistoryStateOut {
  const hasServing = s.serving_size !== null || s.servings_per_container !== null || s.serving_description !== null;
  return {
    state_id: s.state_id,
    observed_from: s.observed_from,
    observed_to: s.observed_to,
    classification: s.classification,
    comparable: s.classification === 'comparable',
    serving: hasServing
      ? { serving_size: s.serving_size, serving_unit: s.serving_unit, servings_per_container: s.servings_per_container, description: s.serving_description }
      : null,
    declared_ingredient_count: s.declared_ingredient_count,
    note: s.note,
  };
}

/** Moved to the contract, where the alert email pairs the same differences (services/contract/src/declarations.ts). */
export { differingIngredients } from '@evidence-record/contract';

export function presentDeclaredIngredient(d: DeclaredIngredientRow, observedAt: string, sourceUrl: string | null): VerifiedFactOut {
  return {
    kind: 'declared_ingredient',
    value: {
      declared_name: d.declared_name,
      amount: d.amount,
      unit: d.unit,
      ingredient_id: d.ingredient_id,
      blend: d.blend,
      amount_disclosed: d.amount !== null,
    },
    state_id: d.state_id,
    observed_at: observedAt,
    source_url: sourceUrl,
  };
}

export function presentPrice(p: PriceRow): CommercialFactOut {
  return {
    kind: 'price_observation',
    product_id: p.product_id,
    observed_at: p.observed_at,
    retailer: p.retailer,
    price: { amount: p.price_cents / 100, currency: 'USD' },
    price_basis: p.price_basis,
    servings_per_container: p.servings_per_container ?? p.state_servings_per_container,
    source_url: p.source_url,
  };
}

/** Price per serving is the service's arithmetic on a list price, never a manufacturer figure. */
export function pricePerServing(p: PriceRow): CalculationOut {
  const servings = p.servings_per_container ?? p.state_servings_per_container;
  const price = p.price_cents / 100;
  return {
    name: 'price_per_serving',
    result: servings ? Math.round((price / servings) * 10_000) / 10_000 : null,
    unit: 'USD/serving',
    formula: 'list price / servings per container',
    operands: [
      { name: 'list_price', value: price, unit: 'USD', source: `price observation ${p.observed_at} at ${p.retailer}` },
      {
        name: 'servings_per_container',
        value: servings,
        unit: 'servings',
        source: p.servings_per_container !== null ? `price observation ${p.observed_at}` : servings !== null ? 'declared serving configuration' : null,
      },
    ],
    as_of: p.observed_at,
    price_basis: p.price_basis,
    product_id: p.product_id,
    note: servings ? null : 'servings per container not recorded; no per-serving figure',
  };
}
