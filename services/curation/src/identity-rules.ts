import { normalizeName } from '@evidence-record/record-store';
import type { CatalogueEntry } from './ingredient-catalogue';

/**
 * Ingredient identity rules (decision 1500), pure: which canonical ingredient
 * a declared line is, from the identifiers the label gives it. In order:
 *
 *   1. its UNII (DSLD `uniiCode`; placeholders "0", "1" and "" are no UNII);
 *   2. its DSLD ingredient group: a claim on the group together with one of
 *      the line's forms ("Creatine" as "Creatine Monohydrate") first, then a
 *      claim on the whole group;
 *   3. its printed name, normalised (normalizeName), then the same name
 *      without its parenthesised parts ("Vitamin B12 (as cyanocobalamin)");
 *      then both again without the words that say how it was grown or
 *      prepared ("organic", "micronized", "powder", "extract": DESCRIPTORS),
 *      against the catalogue's names read the same way ("organic Beet root
 *      powder" is "Beet Root Extract").
 *
 * The first rule that names any ingredient decides. If it names two, the
 * line is left unidentified and reported with both as suggestions: never
 * guessed. The declared name is never changed; only what it is identified as.
 */

export type IdentityBasis = 'unii' | 'group' | 'name';

/** What a declared line says about itself (the DSLD parser's line; a bundle's line has the name only). */
export interface DeclaredIdentifiers {
  declared_name: string;
  unii?: string | null;
  ingredient_group?: string | null;
  forms?: readonly string[] | null;
}

export interface Identity {
  ingredient_id: string | null;
  identified_by: IdentityBasis | null;
  /** When the deciding rule named more than one ingredient: those, for a curator to choose from. */
  ambiguous: string[];
}

/** The identity rules' view of the catalogue: every identifier, normalised, and the ingredients it names. */
export interface IdentityIndex {
  byUnii: Map<string, string>;
  /** group_norm → form_norm ('' for the whole group) → ingredient. */
  byGroup: Map<string, Map<string, string>>;
  /** Normalised ingredient name or synonym → ingredients (two means the name is ambiguous). */
  byName: Map<string, Set<string>>;
  /** The same names without their descriptors (plainName) → ingredients. */
  byPlainName: Map<string, Set<string>>;
  names: Map<string, string>;
}

const UNII = /^[0-9A-Z]{10}$/;

/** A UNII as the Record keeps it, or null for none: DSLD's placeholders ("0", "1", "") and anything not shaped like one. */
export function normaliseUnii(value: string | null | undefined): string | null {
  const v = (value ?? '').trim().toUpperCase();
  return UNII.test(v) ? v : null;
}

/**
 * Words that say how an ingredient was grown or prepared, never which
 * ingredient it is: a label prints "organic Maca root powder", "Beet extract",
 * "Creatine Monohydrate, Micronized" for what the catalogue names "Maca root",
 * "Beet", "Creatine Monohydrate". Which part of a plant ("root", "leaf") and
 * which salt ("HCl", "citrate") can change what a line is, so they stay.
 */
const DESCRIPTORS = new Set(['organic', 'certified', 'natural', 'micronized', 'micronised', 'instantized', 'powder', 'powdered', 'extract', 'dry', 'dried', 'standardized', 'standardised']);

/** A normalised name without its descriptors ('' when nothing else is left). */
export function plainName(normalized: string): string {
  return normalized.split(' ').filter((w) => !DESCRIPTORS.has(w)).join(' ');
}

/** The printed name without its parenthesised parts ("Caffeine (from Green Tea)" → "Caffeine"). */
export function bareName(name: string): string {
  let out = name;
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(/\([^()]*\)/g, ' ');
  }
  return out;
}

export function emptyIndex(): IdentityIndex {
  return { byUnii: new Map(), byGroup: new Map(), byName: new Map(), byPlainName: new Map(), names: new Map() };
}

export function addName(index: IdentityIndex, name: string, ingredientId: string): void {
  const norm = normalizeName(name);
  if (!norm) return;
  for (const [map, key] of [[index.byName, norm], [index.byPlainName, plainName(norm)]] as const) {
    if (!key) continue;
    const set = map.get(key) ?? new Set<string>();
    set.add(ingredientId);
    map.set(key, set);
  }
}

export function addGroup(index: IdentityIndex, group: string, form: string | null | undefined, ingredientId: string): void {
  const g = normalizeName(group);
  if (!g) return;
  const forms = index.byGroup.get(g) ?? new Map<string, string>();
  forms.set(form ? normalizeName(form) : '', ingredientId);
  index.byGroup.set(g, forms);
}

/** The index of a catalogue file (the demo seed and the tests read it without a database). */
export function indexOfCatalogue(entries: readonly CatalogueEntry[]): IdentityIndex {
  const index = emptyIndex();
  for (const e of entries) {
    index.names.set(e.ingredient_id, e.name);
    for (const n of [e.name, ...(e.synonyms ?? [])]) addName(index, n, e.ingredient_id);
    for (const { unii } of e.uniis ?? []) index.byUnii.set(unii, e.ingredient_id);
    for (const g of e.groups ?? []) addGroup(index, g.group, g.form, e.ingredient_id);
  }
  return index;
}

const decided = (ids: Iterable<string>, basis: IdentityBasis): Identity | null => {
  const distinct = [...new Set(ids)].sort();
  if (distinct.length === 0) return null;
  if (distinct.length === 1) return { ingredient_id: distinct[0]!, identified_by: basis, ambiguous: [] };
  return { ingredient_id: null, identified_by: null, ambiguous: distinct };
};

export function identify(line: DeclaredIdentifiers, index: IdentityIndex): Identity {
  const unii = normaliseUnii(line.unii);
  if (unii) {
    const id = index.byUnii.get(unii);
    if (id) return { ingredient_id: id, identified_by: 'unii', ambiguous: [] };
  }
  const group = normalizeName(line.ingredient_group ?? '');
  const claims = group ? index.byGroup.get(group) : undefined;
  if (claims) {
    const forms = (line.forms ?? []).map(normalizeName).filter((f) => f !== '');
    const byForm = decided(forms.flatMap((f) => (claims.has(f) ? [claims.get(f)!] : [])), 'group');
    if (byForm) return byForm;
    const whole = claims.get('');
    if (whole) return { ingredient_id: whole, identified_by: 'group', ambiguous: [] };
  }
  const printed = [line.declared_name, bareName(line.declared_name)].map(normalizeName);
  const held = [...printed.map((n) => index.byName.get(n)), ...printed.map((n) => index.byPlainName.get(plainName(n)))];
  for (const ids of held) {
    const byName = ids ? decided(ids, 'name') : null;
    if (byName) return byName;
  }
  return { ingredient_id: null, identified_by: null, ambiguous: [] };
}

export interface Suggestion {
  ingredient_id: string;
  name: string;
  /** What suggests it: the line's UNII, its DSLD group (or a form of it), or a rule that named two ingredients. */
  by: 'unii' | 'group' | 'ambiguous';
}

/**
 * Ingredients an unidentified line may be, for a curator to choose from; never
 * applied on their own. From its identifiers: ingredients that claim its
 * group with another form, and ingredients its group or one of its forms
 * names; and the ingredients a rule could not choose between.
 */
export function suggestionsFor(line: DeclaredIdentifiers, index: IdentityIndex): Suggestion[] {
  const out = new Map<string, Suggestion['by']>();
  for (const id of identify(line, index).ambiguous) out.set(id, 'ambiguous');
  const unii = normaliseUnii(line.unii);
  if (unii && index.byUnii.has(unii)) out.set(index.byUnii.get(unii)!, 'unii');
  const group = normalizeName(line.ingredient_group ?? '');
  if (group) {
    for (const id of index.byGroup.get(group)?.values() ?? []) if (!out.has(id)) out.set(id, 'group');
    for (const name of [line.ingredient_group ?? '', ...(line.forms ?? [])]) {
      for (const id of index.byName.get(normalizeName(name)) ?? []) if (!out.has(id)) out.set(id, 'group');
    }
  }
  return [...out.entries()].map(([ingredient_id, by]) => ({ ingredient_id, name: index.names.get(ingredient_id) ?? ingredient_id, by })).sort((a, b) => a.ingredient_id.localeCompare(b.ingredient_id));
}
