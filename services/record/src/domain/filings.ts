import type { z } from 'zod';
import type { RegulatoryRecord, ResearchContext } from '@evidence-record/contract';
import type { IngredientRow, RegulatoryRow, ResearchRow } from '../queries/ingredients';

export type RegulatoryRecordOut = z.infer<typeof RegulatoryRecord>;
export type ResearchContextOut = z.infer<typeof ResearchContext>;

/**
 * A filing is described as what it is. Curated text that reads as an
 * approval, a verdict on a product or a finding of harm is replaced by a
 * neutral description of the kind of filing, so no wording in the Record can
 * turn a regulatory record into advice.
 */
const harmVerdict =
  /\b(?:is|are|was|were|be|been)\s+(?:not\s+)?(?:safe|unsafe|dangerous|harmful|toxic|hazardous)\b|\bcaus(?:e|es|ed|ing)\s+(?:harm|injur\w*|death|illness)\b|\bsafe\s+(?:to|for)\b/i;
const approvalVerdict = /\b(?:approv\w*|endorse\w*|certif\w*|authori[sz]\w*|cleared|recommend\w*)\b/i;
/** "It is not an approval" denies a verdict rather than stating one. */
const negatedClause = /\b(?:not|never|nor|neither)\b[^.;]*/gi;

export function readsAsVerdict(text: string): boolean {
  return harmVerdict.test(text) || approvalVerdict.test(text.replace(negatedClause, ''));
}

const kindDescriptions: Record<string, string> = {
  warning_letter: 'a warning letter: a letter an agency sent to a named firm about its practices or products',
  warning_letters: 'warning letters: letters an agency sent to named firms about their practices or products',
  agency_statement: 'an agency statement: a public statement of an agency\'s position',
  import_alert: 'an import alert: guidance to agency field staff on detaining shipments from named firms or of a named substance',
  consumer_advisory: 'a consumer advisory: public information an agency issued about a substance',
  guidance: 'a guidance document: an agency statement of its current thinking on a topic',
  rule: 'a rule: a regulation an agency adopted',
  notification: 'a notification: a filing a firm submitted to an agency',
  new_dietary_ingredient_notification: 'a new dietary ingredient notification: a filing a firm submitted to an agency',
  gras_notice: 'a GRAS notice: a filing a firm submitted to an agency about a substance',
  recall: 'a recall notice: an announcement that a named firm withdrew named lots',
};

export function neutralDescription(row: Pick<RegulatoryRow, 'record_kind' | 'authority' | 'year'>): string {
  const what = kindDescriptions[row.record_kind] ?? `a ${row.record_kind.replace(/_/g, ' ')} filing`;
  const when = row.year === null ? '' : ` in ${row.year}`;
  return `This is ${what}, recorded from ${row.authority}${when}. It is not an approval, a warning about any product in this answer, or a finding of harm.`;
}

export function whatItIs(row: RegulatoryRow): string {
  const stored = row.what_it_is.trim();
  return stored.length === 0 || readsAsVerdict(stored) ? neutralDescription(row) : stored;
}

export function regulatoryRecord(row: RegulatoryRow, ingredient: IngredientRow): RegulatoryRecordOut {
  return {
    ingredient_id: row.ingredient_id,
    ingredient_name: ingredient.name,
    record_kind: row.record_kind,
    authority: row.authority,
    year: row.year,
    title: row.title,
    what_it_is: whatItIs(row),
    reference: row.reference_title || row.reference_url
      ? { title: row.reference_title ?? row.title, year: row.year, kind: row.record_kind, url: row.reference_url }
      : null,
  };
}

export function researchContext(row: ResearchRow, ingredient: IngredientRow): ResearchContextOut {
  const range =
    row.range_low === null && row.range_high === null
      ? null
      : { low: row.range_low, high: row.range_high, unit: row.range_unit ?? 'unspecified', basis: row.range_basis ?? 'per day' };
  return {
    ingredient_id: row.ingredient_id,
    ingredient_name: ingredient.name,
    studied_range: range,
    population: row.population,
    evidence: row.evidence,
    references: [{ title: row.reference_title, year: row.reference_year, kind: row.reference_kind, url: row.reference_url }],
    note: 'A studied range is the span of amounts used in the research cited; it is not a recommended dose or a judgement of any product.',
  };
}
