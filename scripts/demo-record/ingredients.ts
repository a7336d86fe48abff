import { identify, indexOfCatalogue, ingredientCatalogue } from '@evidence-record/curation';

/**
 * The demo Record's ingredients are the Record's real catalogue
 * (services/curation/src/ingredient-catalogue.ts, decision 1500): real
 * ingredient names with the synonyms labels use. DMAA, DMHA, BMPEA and
 * phenibut are in it so that their regulatory records have somewhere to
 * attach; no demo product declares them.
 */
const index = indexOfCatalogue(ingredientCatalogue);

/**
 * The ingredient a demo label line names, by the identity rules' name rule
 * (the demo lines carry no UNII or DSLD group), so that re-deriving identity
 * later finds the same one. The label's own wording is kept as `declared_name`.
 */
export function ingredientForDeclaredName(declaredName: string): string | undefined {
  const identity = identify({ declared_name: declaredName }, index);
  return identity.identified_by === 'name' && identity.ingredient_id ? identity.ingredient_id : undefined;
}
