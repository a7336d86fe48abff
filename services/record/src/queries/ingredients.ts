import type { ClientBase } from 'pg';

export interface IngredientRow {
  ingredient_id: string;
  name: string;
}

export async function ingredientsById(db: ClientBase, ingredientIds: string[]): Promise<IngredientRow[]> {
  const { rows } = await db.query<IngredientRow>({
    name: 'record-ingredients-by-id',
    text: 'SELECT ingredient_id, name FROM ingredients WHERE ingredient_id = ANY($1::text[]) ORDER BY ingredient_id',
    values: [ingredientIds],
  });
  return rows;
}

/** A correction of an entry as answers show it (the operator's name is not selected). */
export interface EntryCorrectionRow {
  recorded_on: string;
  note: string;
  changes: Array<{ field: string; before: string | number | boolean | null; after: string | number | boolean | null }>;
}

/** What every curated entry carries: its id, date, retirement and corrections (decision 1601). */
interface CuratedColumns {
  entry_id: string;
  dated: string | null;
  retired_on: string | null;
  retired_note: string | null;
  corrections: EntryCorrectionRow[];
}

const curatedColumns = `t.entry_id, t.dated, t.retired_on, t.retired_note,
  coalesce((SELECT json_agg(json_build_object('recorded_on', c.recorded_on, 'note', c.public_note, 'changes', c.changes) ORDER BY c.correction_id)
              FROM context_corrections c WHERE c.entry_id = t.entry_id AND c.kind = 'correction'), '[]') AS corrections`;

export interface ResearchRow extends CuratedColumns {
  ingredient_id: string;
  authority: string | null;
  range_low: number | null;
  range_high: number | null;
  range_unit: string | null;
  range_basis: string | null;
  population: string | null;
  evidence: string;
  reference_title: string;
  reference_year: number | null;
  reference_kind: string;
  reference_url: string | null;
}

/** Every research entry of the ingredients, retired ones included (answers name those apart). */
export async function researchOf(db: ClientBase, ingredientIds: string[]): Promise<ResearchRow[]> {
  const { rows } = await db.query<ResearchRow>({
    name: 'record-research-of-ingredients-curated',
    text: `SELECT t.ingredient_id, t.authority, t.range_low, t.range_high, t.range_unit, t.range_basis, t.population, t.evidence,
                  t.reference_title, t.reference_year, t.reference_kind, t.reference_url, ${curatedColumns}
             FROM research_context t WHERE t.ingredient_id = ANY($1::text[])
            ORDER BY t.ingredient_id, t.reference_year DESC NULLS LAST, t.dated DESC NULLS LAST, t.research_id`,
    values: [ingredientIds],
  });
  return rows;
}

export interface RegulatoryRow extends CuratedColumns {
  ingredient_id: string;
  record_kind: string;
  authority: string;
  year: number | null;
  title: string;
  what_it_is: string;
  is_caution: boolean;
  reference_title: string | null;
  reference_url: string | null;
}

/** Every regulatory record of the ingredients, retired ones included (answers name those apart). */
export async function regulatoryOf(db: ClientBase, ingredientIds: string[]): Promise<RegulatoryRow[]> {
  const { rows } = await db.query<RegulatoryRow>({
    name: 'record-regulatory-of-ingredients-curated',
    text: `SELECT t.ingredient_id, t.record_kind, t.authority, t.year, t.title, t.what_it_is, t.is_caution, t.reference_title, t.reference_url, ${curatedColumns}
             FROM regulatory_records t WHERE t.ingredient_id = ANY($1::text[])
            ORDER BY t.ingredient_id, t.year DESC NULLS LAST, t.dated DESC NULLS LAST, t.regulatory_id`,
    values: [ingredientIds],
  });
  return rows;
}
