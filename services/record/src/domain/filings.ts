import type { z } from 'zod';
import { readsAsVerdict, regulatoryKindDescriptions, type RegulatoryRecord, type ResearchContext } from '@evidence-record/contract';
import type { IngredientRow, RegulatoryRow, ResearchRow } from '../queries/ingredients';

export type RegulatoryRecordOut = z.infer<typeof RegulatoryRecord>;
export type ResearchContextOut = z.infer<typeof ResearchContext>;

/**
 * A filing is described as what it is. Curated text that reads as an
 * approval, a verdict on a product or a finding of harm is replaced by a
 * neutral description of the kind of filing, so no wording in the Record can
 * turn a regulatory record into advice (the curation verbs refuse it too).
 */
export { readsAsVerdict };
const kindDescriptions: Record<string, string> = regulatoryKindDescriptions;

export function neutralDescription(row: Pick<RegulatoryRow, 'record_kind' | 'authority' | 'year'>): string {
  const what = kindDescriptions[row.record_kind] ?? `a ${row.record_kind.replace(/_/g, ' ')} filing`;
  const when = row.year === null ? '' : ` in ${row.year}`;
  return `This is ${what}, recorded from ${row.authority}${when}. It is not an approval, a warning about any product in this answer, or a finding of harm.`;
}

export function whatItIs(row: Pick<RegulatoryRow, 'what_it_is' | 'record_kind' | 'authority' | 'year'>): string {
  const stored = row.what_it_is.trim();
  return stored.length === 0 || readsAsVerdict(stored) ? neutralDescription(row) : stored;
}

/**
 * What a regulatory record is and is not, said with each one (spec: a filing
 * is never an approval, a warning or a finding of harm; a documented caution
 * is the authority's own, never the Record's).
 */
export function regulatoryNote(row: Pick<RegulatoryRow, 'authority' | 'is_caution'>): string {
  return row.is_caution
    ? `A documented caution is ${row.authority}'s own, as it published it; the Evidence Record makes no finding of harm and says nothing about any product in this answer.`
    : 'A regulatory record states what was filed, by whom and when; it is not an approval, a warning about any product in this answer, or a finding of harm.';
}

export function regulatoryRecord(row: RegulatoryRow, ingredient: IngredientRow): RegulatoryRecordOut {
  const date = row.dated ?? (row.year === null ? null : String(row.year));
  return {
    ingredient_id: row.ingredient_id,
    ingredient_name: ingredient.name,
    record_kind: row.record_kind,
    authority: row.authority,
    year: row.year,
    title: row.title,
    what_it_is: whatItIs(row),
    reference: row.reference_title || row.reference_url
      ? { title: row.reference_title ?? row.title, year: row.year, kind: row.record_kind, url: row.reference_url, date }
      : null,
    entry_id: row.entry_id,
    date,
    documented_caution: row.is_caution,
    note: regulatoryNote(row),
    corrections: row.corrections,
  };
}

export function researchContext(row: ResearchRow, ingredient: IngredientRow): ResearchContextOut {
  const range =
    row.range_low === null && row.range_high === null
      ? null
      : { low: row.range_low, high: row.range_high, unit: row.range_unit ?? 'unspecified', basis: row.range_basis ?? 'per day' };
  const date = row.dated ?? (row.reference_year === null ? null : String(row.reference_year));
  return {
    ingredient_id: row.ingredient_id,
    ingredient_name: ingredient.name,
    studied_range: range,
    population: row.population,
    evidence: row.evidence,
    references: [{ title: row.reference_title, year: row.reference_year, kind: row.reference_kind, url: row.reference_url, date }],
    note: 'A studied range is the span of amounts used in the research cited; it is not a recommended dose or a judgement of any product.',
    entry_id: row.entry_id,
    authority: row.authority,
    date,
    corrections: row.corrections,
  };
}

/** A retired entry, named in coverage instead of served as current context (decision 1601). */
export function retiredEntry(row: ResearchRow | RegulatoryRow): { entry_id: string; ingredient_id: string; title: string; authority: string | null; date: string | null; retired_on: string; note: string } {
  const title = 'title' in row ? row.title : row.reference_title;
  const year = 'year' in row ? row.year : row.reference_year;
  return { entry_id: row.entry_id, ingredient_id: row.ingredient_id, title, authority: row.authority, date: row.dated ?? (year === null ? null : String(year)), retired_on: row.retired_on!, note: row.retired_note ?? '' };
}
