import { answered, withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { researchContext, retiredEntry } from '../domain/filings';
import { productIdentity } from '../domain/identity';
import { ingredientTargets } from '../domain/ingredient-targets';
import { distinct, limitation } from '../domain/limitations';
import { researchOf } from '../queries/ingredients';

/**
 * Studied ranges and the published evidence behind them, for up to five
 * named ingredients or for the ingredients a product's latest label declares.
 * A studied range is never a recommended dose or a verdict on a product.
 */
export const getResearchContext = (deps: RecordDeps): HandlerOf<'get_research_context'> => async ({ capability, body }, ctx) =>
  withSnapshot(deps.pool, async (db, record) => {
    const targets = await ingredientTargets(db, body);
    const ids = targets.ingredients.map((i) => i.ingredient_id);
    const all = ids.length > 0 ? await researchOf(db, ids) : [];
    // A retired entry stays in the Record and is named, dated and explained; it is not served as current (decision 1601).
    const rows = all.filter((r) => r.retired_on === null);
    const retired = all.filter((r) => r.retired_on !== null).map(retiredEntry);
    const byId = new Map(targets.ingredients.map((i) => [i.ingredient_id, i]));
    const without = targets.ingredients.filter((i) => !rows.some((r) => r.ingredient_id === i.ingredient_id));

    const partial = targets.unknownIds.length > 0 || without.length > 0 || targets.ingredients.length === 0;
    return answered(ctx, record, targets.ingredients.map((i) => i.ingredient_id), {
      capability,
      status: partial ? 'partial' : 'supported',
      summary:
        targets.ingredients.length === 0
          ? 'The Record holds no mapped ingredient for this question, so there is no research context to report.'
          : `Research context for ${targets.ingredients.length} ingredient${targets.ingredients.length === 1 ? '' : 's'}: studied ranges and the published evidence behind them.`,
      ...(targets.product ? { product: productIdentity(targets.product) } : {}),
      research_context: rows.map((r) => researchContext(r, byId.get(r.ingredient_id)!)),
      coverage: {
        ingredients: targets.ingredients.map((i) => ({
          ingredient_id: i.ingredient_id,
          name: i.name,
          research_entries: rows.filter((r) => r.ingredient_id === i.ingredient_id).length,
        })),
        from_product_label: targets.product ? { product_id: targets.product.product_id, state_id: targets.state?.state_id ?? null } : null,
        retired,
      },
      limitations: distinct([
        targets.product?.is_demo && limitation.demoData,
        limitation.studiedRangeIsNotAdvice,
        targets.unknownIds.length > 0 && limitation.unknownIngredients(targets.unknownIds),
        ...retired.map(limitation.entryRetired),
        ...without.map((i) => limitation.noResearch(i.name)),
        targets.unmappedDeclared.length > 0 && limitation.unmappedDeclared(targets.unmappedDeclared),
        targets.panelFigures.length > 0 && limitation.panelFigures(targets.panelFigures),
        targets.product && !targets.state && limitation.registered(targets.product),
        targets.product && limitation.undisclosedNotAbsent,
      ]),
      confidence:
        rows.length === 0
          ? { level: 'none', basis: 'The Record holds no research context for these ingredients.' }
          : { level: partial ? 'medium' : 'high', basis: 'Curated summaries of cited publications; each entry names its references.' },
    });
  });
