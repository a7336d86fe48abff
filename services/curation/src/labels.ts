import type { Pool, PoolClient } from '@evidence-record/platform';

/** The declared content of one label state, in a form two states can be compared by. */
export interface LabelContent {
  classification: string;
  off_market: boolean;
  serving: { size: number | null; unit: string | null; servings_per_container: number | null; description: string | null };
  blends: Array<{ name: string; total_amount: number | null; total_unit: string | null }>;
  ingredients: Array<{ ingredient_id: string | null; declared_name: string; amount: number | null; unit: string | null; operator: string | null; blend: string | null }>;
}

export async function labelOf(client: Pool | PoolClient, stateId: string): Promise<LabelContent> {
  const state = await client.query<{ classification: string; off_market: boolean; serving_size: number | null; serving_unit: string | null; servings_per_container: number | null; serving_description: string | null }>(
    `SELECT classification, off_market, serving_size, serving_unit, servings_per_container, serving_description FROM history_states WHERE state_id = $1`,
    [stateId],
  );
  const s = state.rows[0];
  if (!s) throw new Error(`history state ${stateId} not found`);
  const blends = await client.query<{ name: string; total_amount: number | null; total_unit: string | null }>(
    `SELECT name, total_amount, total_unit FROM declared_blends WHERE state_id = $1 ORDER BY blend_id`,
    [stateId],
  );
  const ingredients = await client.query<LabelContent['ingredients'][number]>(
    `SELECT d.ingredient_id, d.declared_name, d.amount, d.unit, d.amount_operator AS operator, b.name AS blend
       FROM declared_ingredients d LEFT JOIN declared_blends b ON b.blend_id = d.blend_id
      WHERE d.state_id = $1 ORDER BY d.position`,
    [stateId],
  );
  return {
    classification: s.classification,
    off_market: s.off_market,
    serving: { size: s.serving_size, unit: s.serving_unit, servings_per_container: s.servings_per_container, description: s.serving_description },
    // Explicit field order: two contents compare equal exactly when their JSON does.
    blends: blends.rows.map((b) => ({ name: b.name, total_amount: b.total_amount, total_unit: b.total_unit })),
    ingredients: ingredients.rows.map((i) => ({ ingredient_id: i.ingredient_id, declared_name: i.declared_name, amount: i.amount, unit: i.unit, operator: i.operator, blend: i.blend })),
  };
}

const json = (v: unknown) => JSON.stringify(v);

export function servingDiffers(a: LabelContent, b: LabelContent): boolean {
  return json(a.serving) !== json(b.serving);
}

/**
 * What the label declares, without what the Record identifies each line as: a
 * change of identity (decision 1500) is never a change of the label, so it
 * never makes a new state or a candidate.
 */
const declared = (l: LabelContent) => l.ingredients.map((i) => ({ declared_name: i.declared_name, amount: i.amount, unit: i.unit, operator: i.operator, blend: i.blend }));

export function formulaDiffers(a: LabelContent, b: LabelContent): boolean {
  return json(declared(a)) !== json(declared(b)) || json(a.blends) !== json(b.blends);
}

export function sameLabel(a: LabelContent, b: LabelContent): boolean {
  return a.classification === b.classification && a.off_market === b.off_market && !servingDiffers(a, b) && !formulaDiffers(a, b);
}
