import type { CaptureInput, IdentityBasis } from '@evidence-record/curation';
import type { DsldReading } from './dsld';
import type { IngredientNames } from './synonyms';

type LabelInput = NonNullable<CaptureInput['label']>;
type SourceFacts = NonNullable<CaptureInput['source_facts']>;

/**
 * A DSLD reading as the label and source facts of a capture (capture
 * import's input). One mapping for the monitor's checks, re-derivation and
 * label versions, so the same label bytes always become the same content.
 */
export async function labelCaptureOf(r: DsldReading, names: Pick<IngredientNames, 'identify'>): Promise<{ label: LabelInput; source_facts: SourceFacts }> {
  const ingredients: Array<LabelInput['ingredients'][number] & { identified_by: IdentityBasis | null }> = [];
  for (const i of r.ingredients) {
    // Identified by the row's own identifiers (decision 1500), which the line keeps so its identity can be re-derived.
    const identity = await names.identify(i);
    ingredients.push({
      declared_name: i.declared_name,
      ingredient_id: identity.ingredient_id,
      identified_by: identity.identified_by,
      unii: i.unii,
      ingredient_group: i.ingredient_group,
      forms: i.forms,
      amount: i.amount,
      unit: i.unit,
      operator: i.operator as LabelInput['ingredients'][number]['operator'],
      blend: i.blend,
      amount_note: i.amount_note,
      daily_values: i.daily_values,
      amounts_by_serving: i.amounts_by_serving.map((a) => ({ ...a, operator: a.operator as LabelInput['ingredients'][number]['operator'] })),
    });
  }
  return {
    label: {
      classification: 'comparable',
      serving: r.serving,
      other_servings: r.other_servings,
      net_contents: r.net_contents,
      blends: r.blends.map((b) => ({ ...b, totals_by_serving: b.totals_by_serving.map((a) => ({ ...a, operator: a.operator as LabelInput['ingredients'][number]['operator'] })) })),
      ingredients,
      off_market: r.facts.off_market === true,
      note: null,
    },
    source_facts: r.facts,
  };
}
