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

export interface ResearchRow {
  ingredient_id: string;
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

export async function researchOf(db: ClientBase, ingredientIds: string[]): Promise<ResearchRow[]> {
  const { rows } = await db.query<ResearchRow>({
    name: 'record-research-of-ingredients',
    text: `SELECT ingredient_id, range_low, range_high, range_unit, range_basis, population, evidence,
                  reference_title, reference_year, reference_kind, reference_url
             FROM research_context WHERE ingredient_id = ANY($1::text[])
            ORDER BY ingredient_id, reference_year DESC NULLS LAST, research_id`,
    values: [ingredientIds],
  });
  return rows;
}

export interface RegulatoryRow {
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

export async function regulatoryOf(db: ClientBase, ingredientIds: string[]): Promise<RegulatoryRow[]> {
  const { rows } = await db.query<RegulatoryRow>({
    name: 'record-regulatory-of-ingredients',
    text: `SELECT ingredient_id, record_kind, authority, year, title, what_it_is, is_caution, reference_title, reference_url
             FROM regulatory_records WHERE ingredient_id = ANY($1::text[])
            ORDER BY ingredient_id, year DESC NULLS LAST, regulatory_id`,
    values: [ingredientIds],
  });
  return rows;
}
