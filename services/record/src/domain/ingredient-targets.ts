import type { ClientBase } from 'pg';
import { Refusal, type IngredientContextBody } from '@evidence-record/contract';
import type { ProductRow } from './identity';
import { ingredientsById, type IngredientRow } from '../queries/ingredients';
import { declaredLines, latestState, type StateRow } from '../queries/label';
import { productById } from '@evidence-record/record-store';

/**
 * The ingredients a research or regulatory question is about: the ids named,
 * plus those the latest label state of the named product declares, less the
 * figures of its nutrition panel (real labels print "Calories" and "Total
 * Sugars" among their Supplement Facts; decision 0202, amended). Ids the
 * Record does not hold are reported, not guessed; when nothing named is in
 * the Record the question is `not_found`.
 */
export interface IngredientTargets {
  product: ProductRow | null;
  state: StateRow | null;
  ingredients: IngredientRow[];
  unknownIds: string[];
  /** Declared names of the product's label the Record has not mapped to an ingredient id. */
  unmappedDeclared: string[];
  /**
   * Declared names of the product's label the catalogue identifies as nutrition panel figures ("Calories", "Total
   * Carbohydrates"): not ingredients with research or filings, so neither looked up nor charged to the budget.
   */
  panelFigures: string[];
}

export async function ingredientTargets(db: ClientBase, body: IngredientContextBody): Promise<IngredientTargets> {
  let product: ProductRow | null = null;
  let state: StateRow | null = null;
  const declaredIds: string[] = [];
  const unmappedDeclared: string[] = [];
  const panelFigures: string[] = [];
  if (body.product_id) {
    product = await productById(db, body.product_id);
    if (!product) throw new Refusal('not_found', { details: { field: 'product_id' } });
    state = await latestState(db, product.product_id);
    for (const line of state ? await declaredLines(db, [state.state_id]) : []) {
      if (line.row_kind !== 'ingredient') continue;
      if (line.ingredient_kind === 'nutrition_fact') panelFigures.push(line.declared_name);
      else if (line.ingredient_id) declaredIds.push(line.ingredient_id);
      else unmappedDeclared.push(line.declared_name);
    }
  }
  const named = [...new Set(body.ingredient_ids ?? [])];
  const wanted = [...new Set([...named, ...declaredIds])];
  const known = new Map((wanted.length > 0 ? await ingredientsById(db, wanted) : []).map((i) => [i.ingredient_id, i]));
  const unknownIds = named.filter((id) => !known.has(id));
  if (!product && known.size === 0) {
    throw new Refusal('not_found', { message: 'None of the ingredient ids is in the Record.', details: { field: 'ingredient_ids', unknown: unknownIds } });
  }
  return {
    product,
    state,
    ingredients: wanted.filter((id) => known.has(id)).map((id) => known.get(id)!),
    unknownIds,
    unmappedDeclared: [...new Set(unmappedDeclared)],
    panelFigures: [...new Set(panelFigures)],
  };
}
