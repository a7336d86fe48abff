import type { z } from 'zod';
import { bound, derivationText, derivedServingsNote, servingsOfState, type Calculation, type CommercialFact, type HistoryState, type SourceReference, type VerifiedFact } from '@evidence-record/contract';
import type { DeclaredIngredientRow, PriceRow, StateRow } from './queries/evidence';

/**
 * Rows of the Record turned into the contract's sub-records. Nothing internal is copied across.
 * The Signal itself is presented by the Record store (presentSignal), the same for every answer that carries one.
 */
export type HistoryStateOut = z.infer<typeof HistoryState>;
export type VerifiedFactOut = z.infer<typeof VerifiedFact>;
export type CommercialFactOut = z.infer<typeof CommercialFact>;
export type CalculationOut = z.infer<typeof Calculation>;
export type SourceReferenceOut = z.infer<typeof SourceReference>;

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
    ...((s.net_contents ?? []).length > 0 ? { net_contents: s.net_contents.map((n) => ({ quantity: n.quantity, unit: n.unit })) } : {}),
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
      ...bound(d.operator),
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
    ...(p.source_variant ? { offer_variant: p.source_variant } : {}),
  };
}

/** Price per serving is the service's arithmetic on a list price, never a manufacturer figure. */
export function pricePerServing(p: PriceRow): CalculationOut {
  // Where the matched label declares none, net contents ÷ serving size (decision 2410), said so in the operand and the note.
  const ofState =
    p.servings_per_container === null
      ? servingsOfState({ servings_per_container: p.state_servings_per_container, serving_size: p.state_serving_size, serving_unit: p.state_serving_unit, net_contents: p.state_net_contents })
      : null;
  const derived = ofState?.derived ?? null;
  const servings = p.servings_per_container ?? ofState?.value ?? null;
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
        source:
          p.servings_per_container !== null
            ? `price observation ${p.observed_at}`
            : derived
              ? `derived from the declared serving configuration: ${derivationText(derived)}`
              : servings !== null
                ? 'declared serving configuration'
                : null,
      },
    ],
    as_of: p.observed_at,
    price_basis: p.price_basis,
    product_id: p.product_id,
    note: !servings
      ? 'servings per container not recorded; no per-serving figure'
      : derived
        ? derivedServingsNote(derived)
        : null,
  };
}
