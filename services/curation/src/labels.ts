import { orderedDailyValues, type DailyValue, type LabelSide, type NetContent } from '@evidence-record/contract';
import type { Pool, PoolClient } from '@evidence-record/platform';

/** The amount a serving other than the line's own declares: another serving size, or another quantity of it. */
export interface ServingAmount {
  serving_order: number;
  serving_quantity: number | null;
  amount: number | null;
  unit: string | null;
  operator: string | null;
}

/** A serving size a label declares besides the first (the first is the state's own serving). */
export interface OtherServing {
  serving_order: number;
  size: number | null;
  unit: string | null;
  description: string | null;
  note: string | null;
}

/**
 * The declared content of one label state, in a form two states can be
 * compared by. A line's amount note is evidence beside an undisclosed amount,
 * not declared content, so it is not compared.
 */
export interface LabelContent {
  classification: string;
  off_market: boolean;
  serving: { size: number | null; unit: string | null; servings_per_container: number | null; description: string | null };
  other_servings: OtherServing[];
  /** What the label declares the container holds; [] when not read (decision 2410). */
  net_contents: NetContent[];
  blends: Array<{ name: string; total_amount: number | null; total_unit: string | null; totals_by_serving: ServingAmount[] }>;
  ingredients: Array<{
    ingredient_id: string | null;
    declared_name: string;
    amount: number | null;
    unit: string | null;
    operator: string | null;
    blend: string | null;
    amounts_by_serving: ServingAmount[];
    /** The % Daily Value printed beside the line (decision 2440); null when not read. Evidence, not compared. */
    daily_values: DailyValue[] | null;
  }>;
}

// Explicit field order everywhere: two contents compare equal exactly when their JSON does (jsonb reorders keys).
export const servingAmounts = (list: readonly ServingAmount[] | null | undefined): ServingAmount[] =>
  (list ?? []).map((a) => ({ serving_order: a.serving_order, serving_quantity: a.serving_quantity ?? null, amount: a.amount, unit: a.unit, operator: a.operator }));
export const otherServings = (list: readonly OtherServing[] | null | undefined): OtherServing[] =>
  (list ?? []).map((s) => ({ serving_order: s.serving_order, size: s.size, unit: s.unit, description: s.description, note: s.note }));
export const netContents = (list: readonly NetContent[] | null | undefined): NetContent[] => (list ?? []).map((n) => ({ quantity: Number(n.quantity), unit: n.unit }));
export const dailyValues = (list: readonly DailyValue[] | null | undefined): DailyValue[] | null => (list === null || list === undefined ? null : orderedDailyValues(list));

export async function labelOf(client: Pool | PoolClient, stateId: string): Promise<LabelContent> {
  const state = await client.query<{
    classification: string;
    off_market: boolean;
    serving_size: number | null;
    serving_unit: string | null;
    servings_per_container: number | null;
    serving_description: string | null;
    other_servings: OtherServing[];
    net_contents: NetContent[];
  }>(
    `SELECT classification, off_market, serving_size, serving_unit, servings_per_container, serving_description, other_servings, net_contents FROM history_states WHERE state_id = $1`,
    [stateId],
  );
  const s = state.rows[0];
  if (!s) throw new Error(`history state ${stateId} not found`);
  const blends = await client.query<LabelContent['blends'][number]>(
    `SELECT name, total_amount, total_unit, totals_by_serving FROM declared_blends WHERE state_id = $1 ORDER BY blend_id`,
    [stateId],
  );
  const ingredients = await client.query<LabelContent['ingredients'][number]>(
    `SELECT d.ingredient_id, d.declared_name, d.amount, d.unit, d.amount_operator AS operator, b.name AS blend, d.amounts_by_serving, d.daily_values
       FROM declared_ingredients d LEFT JOIN declared_blends b ON b.blend_id = d.blend_id
      WHERE d.state_id = $1 ORDER BY d.position`,
    [stateId],
  );
  return labelContent({
    classification: s.classification,
    off_market: s.off_market,
    serving: { size: s.serving_size, unit: s.serving_unit, servings_per_container: s.servings_per_container, description: s.serving_description },
    other_servings: s.other_servings,
    net_contents: s.net_contents,
    blends: blends.rows,
    ingredients: ingredients.rows,
  });
}

/** A label content with every field in its one order, from the database or from a reading. */
export function labelContent(c: LabelContent): LabelContent {
  return {
    classification: c.classification,
    off_market: c.off_market,
    serving: { size: c.serving.size, unit: c.serving.unit, servings_per_container: c.serving.servings_per_container, description: c.serving.description },
    other_servings: otherServings(c.other_servings),
    net_contents: netContents(c.net_contents),
    blends: c.blends.map((b) => ({ name: b.name, total_amount: b.total_amount, total_unit: b.total_unit, totals_by_serving: servingAmounts(b.totals_by_serving) })),
    ingredients: c.ingredients.map((i) => ({
      ingredient_id: i.ingredient_id,
      declared_name: i.declared_name,
      amount: i.amount,
      unit: i.unit,
      operator: i.operator,
      blend: i.blend,
      amounts_by_serving: servingAmounts(i.amounts_by_serving),
      daily_values: dailyValues(i.daily_values),
    })),
  };
}

const json = (v: unknown) => JSON.stringify(v);

/**
 * Net contents count only when both states hold them: a state read before the
 * Record read net contents holds none, and reading them is not a change of
 * the label (decision 2410).
 */
const netContentsDiffer = (a: LabelContent, b: LabelContent) => a.net_contents.length > 0 && b.net_contents.length > 0 && json(a.net_contents) !== json(b.net_contents);

export function servingDiffers(a: LabelContent, b: LabelContent): boolean {
  return json(a.serving) !== json(b.serving) || json(a.other_servings) !== json(b.other_servings) || netContentsDiffer(a, b);
}

/**
 * What the label declares, without what the Record identifies each line as: a
 * change of identity (decision 1500) is never a change of the label, so it
 * never makes a new state or a candidate. Nor is the % Daily Value printed
 * beside a line (decision 2440): evidence beside its amount, like its note.
 */
const declared = (l: LabelContent) => l.ingredients.map(({ ingredient_id: _identity, daily_values: _evidence, ...line }) => line);

export function formulaDiffers(a: LabelContent, b: LabelContent): boolean {
  return json(declared(a)) !== json(declared(b)) || json(a.blends) !== json(b.blends);
}

export function sameLabel(a: LabelContent, b: LabelContent): boolean {
  return a.classification === b.classification && a.off_market === b.off_market && !servingDiffers(a, b) && !formulaDiffers(a, b);
}

/**
 * Whether re-deriving a state would leave it as it is: the same label, and
 * the same net contents even where one side holds none (a state read before
 * the Record read net contents gains them from its kept bytes; decision 2410).
 */
export function rederivesTheSame(state: LabelContent, reading: LabelContent): boolean {
  return (
    sameLabel(state, reading) &&
    json(state.net_contents) === json(reading.net_contents) &&
    json(state.ingredients.map((i) => i.daily_values)) === json(reading.ingredients.map((i) => i.daily_values))
  );
}

/** A label state as the change wording reads it (contract changeLines). */
export function labelSide(label: LabelContent): LabelSide {
  return { lines: label.ingredients, blends: label.blends, serving: label.serving, off_market: label.off_market, net_contents: label.net_contents };
}
