import { answered, withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { regulatoryRecord, retiredEntry } from '../domain/filings';
import { productIdentity } from '../domain/identity';
import { ingredientTargets } from '../domain/ingredient-targets';
import { distinct, limitation } from '../domain/limitations';
import { regulatoryOf } from '../queries/ingredients';

/**
 * Regulatory records and documented cautions for up to five named
 * ingredients, or for the ingredients a product's latest label declares.
 * Each says exactly what the filing is; none is worded as an approval, a
 * warning about a product or a finding of harm.
 */
export const getRegulatoryContext = (deps: RecordDeps): HandlerOf<'get_regulatory_context'> => async ({ capability, body }, ctx) =>
  withSnapshot(deps.pool, async (db, record) => {
    const targets = await ingredientTargets(db, body);
    const ids = targets.ingredients.map((i) => i.ingredient_id);
    const all = ids.length > 0 ? await regulatoryOf(db, ids) : [];
    // A retired entry stays in the Record and is named, dated and explained; it is not served as current (decision 1601).
    const rows = all.filter((r) => r.retired_on === null);
    const retired = all.filter((r) => r.retired_on !== null).map(retiredEntry);
    const byId = new Map(targets.ingredients.map((i) => [i.ingredient_id, i]));
    const records = rows.filter((r) => !r.is_caution).map((r) => regulatoryRecord(r, byId.get(r.ingredient_id)!));
    const cautions = rows.filter((r) => r.is_caution).map((r) => regulatoryRecord(r, byId.get(r.ingredient_id)!));
    const without = targets.ingredients.filter((i) => !rows.some((r) => r.ingredient_id === i.ingredient_id));

    return answered(ctx, record, ids, {
      capability,
      // An ingredient with no filing is a complete answer about the Record; only unknown ids make it partial.
      status: targets.unknownIds.length > 0 || targets.ingredients.length === 0 ? 'partial' : 'supported',
      summary:
        targets.ingredients.length === 0
          ? 'The Record holds no mapped ingredient for this question, so there is no regulatory context to report.'
          : `Regulatory records and documented cautions the Record holds for ${targets.ingredients.length} ingredient${targets.ingredients.length === 1 ? '' : 's'}, each described as the filing it is.`,
      ...(targets.product ? { product: productIdentity(targets.product) } : {}),
      regulatory_records: records,
      documented_cautions: cautions,
      coverage: {
        ingredients: targets.ingredients.map((i) => ({
          ingredient_id: i.ingredient_id,
          name: i.name,
          regulatory_records: rows.filter((r) => r.ingredient_id === i.ingredient_id && !r.is_caution).length,
          documented_cautions: rows.filter((r) => r.ingredient_id === i.ingredient_id && r.is_caution).length,
        })),
        from_product_label: targets.product ? { product_id: targets.product.product_id, state_id: targets.state?.state_id ?? null } : null,
        retired,
      },
      limitations: distinct([
        targets.product?.is_demo && limitation.demoData,
        limitation.filingsAreWhatTheyAre,
        targets.unknownIds.length > 0 && limitation.unknownIngredients(targets.unknownIds),
        ...retired.map(limitation.entryRetired),
        ...without.map((i) => limitation.noRegulatory(i.name)),
        targets.unmappedDeclared.length > 0 && limitation.unmappedDeclared(targets.unmappedDeclared),
        targets.panelFigures.length > 0 && limitation.panelFigures(targets.panelFigures),
        targets.product && !targets.state && limitation.registered(targets.product),
        targets.product && limitation.undisclosedNotAbsent,
        without.length > 0 && limitation.absenceIsAboutTheRecord,
      ]),
      confidence: { level: 'high', basis: 'Regulatory records are transcribed from the issuing authority with their reference; absence means the Record holds none.' },
    });
  });
