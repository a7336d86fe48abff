import type { CaptureInput } from '@evidence-record/curation';
import type { DsldReading } from './dsld';
import type { IngredientNames } from './synonyms';

type LabelInput = NonNullable<CaptureInput['label']>;
type SourceFacts = NonNullable<CaptureInput['source_facts']>;

/**
 * A DSLD reading as the label and source facts of a capture (capture
 * import's input). One mapping for the monitor's checks, re-derivation and
 * label versions, so the same label bytes always become the same content.
 */
export async function labelCaptureOf(r: DsldReading, names: Pick<IngredientNames, 'idOf'>): Promise<{ label: LabelInput; source_facts: SourceFacts }> {
  const ingredients: LabelInput['ingredients'] = [];
  for (const i of r.ingredients) {
    ingredients.push({
      declared_name: i.declared_name,
      ingredient_id: await names.idOf(i),
      amount: i.amount,
      unit: i.unit,
      operator: i.operator as LabelInput['ingredients'][number]['operator'],
      blend: i.blend,
      amount_note: i.amount_note,
      amounts_by_serving: i.amounts_by_serving.map((a) => ({ ...a, operator: a.operator as LabelInput['ingredients'][number]['operator'] })),
    });
  }
  return {
    label: {
      classification: 'comparable',
      serving: r.serving,
      other_servings: r.other_servings,
      blends: r.blends.map((b) => ({ ...b, totals_by_serving: b.totals_by_serving.map((a) => ({ ...a, operator: a.operator as LabelInput['ingredients'][number]['operator'] })) })),
      ingredients,
      off_market: r.facts.off_market === true,
      note: null,
    },
    source_facts: r.facts,
  };
}
