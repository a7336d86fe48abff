import type { z } from 'zod';
import { derivationText, derivedServingsNote, isBound, servingsOfState, type Calculation, type CommercialFact, type DerivedServings, type ServingDeclaration } from '@evidence-record/contract';
import type { PriceRow } from '../queries/prices';

export type CalculationOut = z.infer<typeof Calculation>;
export type CommercialFactOut = z.infer<typeof CommercialFact>;

/**
 * Price arithmetic, done by the service and shown with its operands so that
 * anyone can redo it. Nothing here is a manufacturer figure.
 */

/** Results carry four decimals; the formula says so. */
function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

export function dollars(cents: number): number {
  return cents / 100;
}

export function commercialFact(row: PriceRow): CommercialFactOut {
  return {
    kind: 'price_observation',
    product_id: row.product_id,
    observed_at: row.observed_at,
    retailer: row.retailer,
    price: { amount: dollars(row.price_cents), currency: 'USD' },
    price_basis: row.price_basis,
    servings_per_container: row.servings_per_container ?? row.state_servings,
    source_url: row.source_url,
    ...(row.source_variant ? { offer_variant: row.source_variant } : {}),
  };
}

export interface Servings {
  value: number | null;
  source: string | null;
  /** Set when the figure is the service's net contents ÷ serving size, not a declaration (decision 2410). */
  derived?: DerivedServings;
}

function fromState(state: ServingDeclaration | null, which: string): Servings | null {
  const s = servingsOfState(state);
  if (!s) return null;
  return s.derived ? { value: s.value, source: `derived from the ${which}: ${derivationText(s.derived)}`, derived: s.derived } : { value: s.value, source: which };
}

/**
 * Which servings-per-container figure a price is divided by: the one the
 * observation carries, else the one its matched label state declares (or,
 * where it declares none, derives from its net contents), else the latest
 * label state's, the same way.
 */
export function servingsFor(row: PriceRow, latest: ServingDeclaration | null): Servings {
  if (row.servings_per_container !== null) return { value: row.servings_per_container, source: 'price observation' };
  const matched: ServingDeclaration | null =
    row.state_servings === null && row.state_net_contents === null
      ? null
      : { servings_per_container: row.state_servings, serving_size: row.state_serving_size, serving_unit: row.state_serving_unit, net_contents: row.state_net_contents };
  return fromState(matched, 'label state matched to the price observation') ?? fromState(latest, 'latest label state') ?? { value: null, source: null };
}

function basisWord(basis: PriceRow['price_basis']): string {
  return basis === 'list' ? 'list price' : basis === 'unspecified' ? 'observed price (basis not recorded)' : `${basis} price`;
}

/** Price per serving of one observation: price ÷ servings per container. */
export function pricePerServing(row: PriceRow, servings: Servings): CalculationOut {
  const price = dollars(row.price_cents);
  const result = servings.value === null ? null : round4(price / servings.value);
  return {
    name: 'price_per_serving',
    result,
    unit: 'USD per serving',
    formula: 'price / servings_per_container, rounded to 4 decimal places',
    operands: [
      { name: 'price', value: price, unit: 'USD', source: `${basisWord(row.price_basis)} observed at ${row.retailer} on ${row.observed_at}` },
      { name: 'servings_per_container', value: servings.value, unit: 'servings', source: servings.source },
    ],
    as_of: row.observed_at,
    price_basis: row.price_basis,
    product_id: row.product_id,
    note:
      result === null
        ? 'Not calculated: servings per container are not declared in the Record.'
        : servings.derived
          ? derivedServingsNote(servings.derived)
          : null,
  };
}

const gramsPerUnit: Record<string, number> = { g: 1, gram: 1, grams: 1, mg: 1e-3, mcg: 1e-6, µg: 1e-6, ug: 1e-6 };

/** A declared amount in grams, or null when the unit is not a mass (IU, CFU, ml …). */
export function grams(amount: number | null, unit: string | null): number | null {
  if (amount === null || unit === null) return null;
  const factor = gramsPerUnit[unit.trim().toLowerCase()];
  return factor === undefined ? null : amount * factor;
}

/**
 * Per gram of a declared ingredient is meaningful only for bulk ingredients
 * a serving holds at least a gram of (creatine, citrulline, beta-alanine):
 * below that the price of the serving is not the price of the ingredient in
 * any useful sense.
 */
export const PER_GRAM_MINIMUM_GRAMS = 1;

export interface DeclaredAmount {
  ingredient_id: string | null;
  declared_name: string;
  amount: number | null;
  unit: string | null;
  /** A bound ("<1 g", ">1 g") is not a quantity: no price per gram is calculated from it (decision 2430). */
  operator?: string | null;
  /** The catalogue's kind of the identified ingredient: a nutrition panel figure ('nutrition_fact') is not an ingredient to price. */
  ingredient_kind?: string | null;
}

export function pricePerGramOf(perServing: CalculationOut, ingredient: DeclaredAmount): CalculationOut | null {
  // "Total Carbohydrates 3 g" and "Total Sugars 2 g" are the nutrition panel's figures about the serving, not
  // ingredients of it: the serving's price per gram of them is no ingredient's cost (decision 0202, amended).
  if (isBound(ingredient.operator) || ingredient.ingredient_kind === 'nutrition_fact') return null;
  const g = grams(ingredient.amount, ingredient.unit);
  if (perServing.result === null || g === null || g < PER_GRAM_MINIMUM_GRAMS) return null;
  return {
    name: 'price_per_gram_of_ingredient',
    result: round4(perServing.result / g),
    unit: `USD per gram of ${ingredient.declared_name}`,
    formula: 'price_per_serving / declared grams of the ingredient per serving, rounded to 4 decimal places',
    operands: [
      { name: 'price_per_serving', value: perServing.result, unit: 'USD per serving', source: 'price_per_serving calculation in this answer' },
      { name: 'declared_amount', value: ingredient.amount, unit: ingredient.unit, source: `declared amount of ${ingredient.declared_name} per serving` },
      { name: 'declared_grams', value: round4(g), unit: 'g', source: 'declared amount converted to grams' },
    ],
    as_of: perServing.as_of,
    price_basis: perServing.price_basis ?? null,
    product_id: perServing.product_id ?? null,
    note: 'Attributes the whole serving price to one ingredient; it is a unit-cost figure, not the cost of that ingredient.',
  };
}

/** Newest observation of each price basis, list first. */
export function newestPerBasis(rows: PriceRow[]): PriceRow[] {
  const order = ['list', 'promotional', 'subscription', 'unspecified'];
  const newest = new Map<string, PriceRow>();
  for (const r of rows) {
    const seen = newest.get(r.price_basis);
    if (!seen || r.observed_at > seen.observed_at) newest.set(r.price_basis, r);
  }
  return [...newest.values()].sort((a, b) => order.indexOf(a.price_basis) - order.indexOf(b.price_basis));
}

/**
 * A run of observations of one retailer and price basis at one price: the
 * price was seen on each of those dates. Two runs at different prices show
 * what was observed on each date, never the day the price changed.
 */
export interface PriceRun {
  retailer: string;
  price_basis: PriceRow['price_basis'];
  price: number;
  first_observed_at: string;
  last_observed_at: string;
  observations: number;
  first: PriceRow;
  last: PriceRow;
}

/** Runs of equal price per retailer and basis, from observations oldest first. */
export function priceRuns(rowsOldestFirst: PriceRow[]): PriceRun[] {
  const open = new Map<string, PriceRun>();
  const runs: PriceRun[] = [];
  for (const row of rowsOldestFirst) {
    const key = `${row.retailer}\u0000${row.price_basis}`;
    const run = open.get(key);
    if (run && run.first.price_cents === row.price_cents) {
      run.last = row;
      run.last_observed_at = row.observed_at;
      run.observations += 1;
      continue;
    }
    const next: PriceRun = {
      retailer: row.retailer,
      price_basis: row.price_basis,
      price: dollars(row.price_cents),
      first_observed_at: row.observed_at,
      last_observed_at: row.observed_at,
      observations: 1,
      first: row,
      last: row,
    };
    open.set(key, next);
    runs.push(next);
  }
  const basisOrder = ['list', 'promotional', 'subscription', 'unspecified'];
  return runs.sort(
    (a, b) => a.retailer.localeCompare(b.retailer) || basisOrder.indexOf(a.price_basis) - basisOrder.indexOf(b.price_basis) || a.first_observed_at.localeCompare(b.first_observed_at),
  );
}
