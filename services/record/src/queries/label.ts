import type { ClientBase } from 'pg';
import type { DailyValue, NetContent } from '@evidence-record/contract';

export type StateClassification = 'comparable' | 'presence_only' | 'identity_only';

/** One captured label state. The capture behind it stays internal: only its date and source address leave. */
export interface StateRow {
  state_id: string;
  product_id: string;
  observed_from: string;
  observed_to: string;
  classification: StateClassification;
  serving_size: number | null;
  serving_unit: string | null;
  servings_per_container: number | null;
  serving_description: string | null;
  note: string | null;
  /** The serving sizes the label declares besides the first: [{serving_order, size, unit, description, note}]. */
  other_servings: Array<{ serving_order: number; size: number | null; unit: string | null; description: string | null; note: string | null }>;
  /** What the label declares the container holds ([] when not read; decision 2410). */
  net_contents: NetContent[];
  /** The newest capture that read this label (state_readings), else the capture that created the state. */
  captured_on: string | null;
  source_url: string | null;
  declared_ingredient_count: number;
}

const stateColumns = `
  hs.state_id, hs.product_id, hs.observed_from, hs.observed_to, hs.classification,
  hs.serving_size, hs.serving_unit, hs.servings_per_container, hs.serving_description, hs.note, hs.other_servings, hs.net_contents,
  to_char(greatest(c.observed_at, (SELECT max(rc.observed_at) FROM state_readings sr JOIN captures rc ON rc.capture_id = sr.capture_id
                                   WHERE sr.state_id = hs.state_id)) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS captured_on,
  src.url AS source_url,
  (SELECT count(*)::int FROM declared_ingredients di WHERE di.state_id = hs.state_id) AS declared_ingredient_count`;

const captureJoin = `LEFT JOIN captures c ON c.capture_id = hs.capture_id LEFT JOIN sources src ON src.source_id = c.source_id`;

/** The latest state of each product: the one observed last (index history_states_product_latest). */
export async function latestStates(db: ClientBase, productIds: string[]): Promise<Map<string, StateRow>> {
  const { rows } = await db.query<StateRow>({
    name: 'record-latest-states',
    text: `
      SELECT ${stateColumns}
        FROM unnest($1::text[]) AS ids(product_id)
        CROSS JOIN LATERAL (
          SELECT * FROM history_states h WHERE h.product_id = ids.product_id
           ORDER BY h.observed_to DESC, h.observed_from DESC, h.state_id DESC LIMIT 1
        ) hs
        ${captureJoin}`,
    values: [productIds],
  });
  return new Map(rows.map((r) => [r.product_id, r]));
}

export async function latestState(db: ClientBase, productId: string): Promise<StateRow | null> {
  return (await latestStates(db, [productId])).get(productId) ?? null;
}

/** Every state of a product, oldest first. */
export async function statesOfProduct(db: ClientBase, productId: string): Promise<StateRow[]> {
  const { rows } = await db.query<StateRow>({
    name: 'record-states-of-product',
    text: `SELECT ${stateColumns} FROM history_states hs ${captureJoin}
            WHERE hs.product_id = $1 ORDER BY hs.observed_from, hs.observed_to, hs.state_id`,
    values: [productId],
  });
  return rows;
}

/**
 * One declared line of a label state: a proprietary blend (with its total)
 * or an ingredient (with its own amount, or null when the label names it
 * without one). Both kinds come back in one query per set of states.
 */
export interface DeclaredRow {
  row_kind: 'blend' | 'ingredient';
  state_id: string;
  position: number | null;
  blend_id: number | null;
  blend_name: string | null;
  declared_name: string;
  amount: number | null;
  unit: string | null;
  /** How the label states the amount: null for the amount itself, '<' for "<1 g" (decision 2430). A blend's total has none. */
  operator: string | null;
  ingredient_id: string | null;
  ingredient_name: string | null;
  /** What the identified ingredient is in the catalogue ('amino_acid', 'nutrition_fact' for the panel's calories, carbohydrates, sugars and fat …). */
  ingredient_kind: string | null;
  /** The label's words where it gives no amount ("1.25 billion CFU"); evidence beside a null amount. */
  amount_note: string | null;
  /** The % Daily Value printed beside the line (decision 2440); null when not read, [] when the label prints none. */
  daily_values: DailyValue[] | null;
  /** What the serving sizes besides the first declare (a blend's totals, or an ingredient's amounts). */
  amounts_by_serving: Array<{ serving_order: number; serving_quantity?: number | null; amount: number | null; unit: string | null; operator: string | null }>;
}

export async function declaredLines(db: ClientBase, stateIds: string[]): Promise<DeclaredRow[]> {
  if (stateIds.length === 0) return [];
  const { rows } = await db.query<DeclaredRow>({
    name: 'record-declared-lines',
    text: `
      SELECT 'blend' AS row_kind, bl.state_id, NULL::int AS position, bl.blend_id, bl.name AS blend_name,
             bl.name AS declared_name, bl.total_amount AS amount, bl.total_unit AS unit, NULL::text AS operator,
             NULL::text AS ingredient_id, NULL::text AS ingredient_name, NULL::text AS ingredient_kind, NULL::text AS amount_note, NULL::jsonb AS daily_values, bl.totals_by_serving AS amounts_by_serving
        FROM declared_blends bl WHERE bl.state_id = ANY($1::text[])
      UNION ALL
      SELECT 'ingredient', di.state_id, di.position, di.blend_id, bl.name,
             di.declared_name, di.amount, di.unit, di.amount_operator, di.ingredient_id, i.name, i.kind, di.amount_note, di.daily_values, di.amounts_by_serving
        FROM declared_ingredients di
        LEFT JOIN declared_blends bl ON bl.blend_id = di.blend_id
        LEFT JOIN ingredients i ON i.ingredient_id = di.ingredient_id
       WHERE di.state_id = ANY($1::text[])
       ORDER BY state_id, position NULLS FIRST, blend_id`,
    values: [stateIds],
  });
  return rows;
}

/** What the label prints beside its Supplement Facts, as last read (decision 2420): its statements and other ingredients. */
export interface StatementRow {
  type: string;
  text: string;
}
export interface OtherIngredientRow {
  name: string;
  forms: string[];
}
export interface BesideFacts {
  statements: StatementRow[];
  other_ingredients: OtherIngredientRow[];
}

/**
 * What a state's label prints beside its Supplement Facts as its newest
 * reading read it: the capture that created the state or a later one of the
 * same content (state_readings), whichever is newest. Empty lists when that
 * capture kept none (a capture import without them, or bytes read before
 * decision 2420 and not yet re-derived).
 */
export async function besideFacts(db: ClientBase, stateId: string): Promise<BesideFacts> {
  const { rows } = await db.query<{ statements: unknown; other_ingredients: unknown }>({
    name: 'record-label-beside-facts',
    // The state's own captures by their keys, then the newest of them (an OR here would walk every capture by date).
    text: `SELECT c.source_facts->'statements' AS statements, c.source_facts->'other_ingredients' AS other_ingredients
             FROM (SELECT hs.capture_id FROM history_states hs WHERE hs.state_id = $1
                   UNION SELECT sr.capture_id FROM state_readings sr WHERE sr.state_id = $1) own
             JOIN captures c ON c.capture_id = own.capture_id
            ORDER BY c.observed_at DESC, c.capture_id DESC
            LIMIT 1`,
    values: [stateId],
  });
  const listOf = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
  return { statements: listOf<StatementRow>(rows[0]?.statements), other_ingredients: listOf<OtherIngredientRow>(rows[0]?.other_ingredients) };
}
