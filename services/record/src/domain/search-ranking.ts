import type { DeclaringProduct, NameHit, SynonymHit } from '../queries/search';

/**
 * Ranking of search_record. A product ranks by how closely its name or alias
 * matches the question, plus its brand, plus each ingredient of the question
 * its latest label declares. The weights make an exact name beat any partial
 * one and a name beat an ingredient; ties fall to the product id so the same
 * question always ranks the same way.
 */
const STOPWORDS = new Set(
  ('a an the and or of in on at by with without for to from is are was be it its this that these those what which who whose how ' +
    'much many does do did has have had contain contains containing any all some me my i we you show find list tell about per vs versus ' +
    'than more less most least product products brand brands supplement supplements pre workout preworkout powder formula label ' +
    'serving servings dose doses amount amounts price prices cost mg g mcg ' +
    // Words in many brand names ("… Labs", "… Nutrition") that say nothing about which brand.
    'labs lab nutrition sport sports supply co company inc performance').split(' '),
);

/**
 * The words of a normalised question worth matching names against. A
 * question made only of common words ("pre-workout") is matched on those
 * words, since they are then the name asked about.
 */
export function significantTokens(normalizedWords: string[]): string[] {
  const usable = normalizedWords.filter((w) => w.length >= 2 || /\d/.test(w));
  const significant = usable.filter((w) => !STOPWORDS.has(w));
  return [...new Set(significant.length > 0 ? significant : usable)];
}

/** Words too common in ingredient names to name one on their own. */
const GENERIC_INGREDIENT_WORDS = new Set(
  'extract acid powder anhydrous malate sulfate chloride hydrochloride hcl fruit root seed leaf vitamin blend matrix complex l dl n beta alpha as'.split(' '),
);

/** An ingredient the question names: by a whole name or synonym, or (weaker) by one distinctive word of it. */
export interface IngredientHit {
  ingredient_id: string;
  name: string;
  matched: string;
  by: 'name' | 'word';
}

/**
 * Which ingredients a question names. The longest whole names win: in
 * "citrulline malate", Citrulline Malate is named and L-Citrulline is not.
 * A single distinctive word ("huperzine") names an ingredient only when no
 * whole name already used that word.
 */
export function recogniseIngredients(hits: SynonymHit[], tokens: string[]): IngredientHit[] {
  const whole = hits.filter((h) => h.whole);
  const inside = (shorter: string, longer: string) => shorter !== longer && ` ${longer} `.includes(` ${shorter} `);
  const kept = whole.filter((h) => !whole.some((o) => o.ingredient_id !== h.ingredient_id && inside(h.synonym_norm, o.synonym_norm)));
  const chosen = new Map<string, IngredientHit>();
  for (const h of kept) if (!chosen.has(h.ingredient_id)) chosen.set(h.ingredient_id, { ingredient_id: h.ingredient_id, name: h.name, matched: h.synonym, by: 'name' });
  const used = new Set(kept.flatMap((h) => h.synonym_norm.split(' ')));
  const distinctive = new Set(tokens.filter((t) => t.length >= 4 && !used.has(t) && !GENERIC_INGREDIENT_WORDS.has(t)));
  for (const h of hits) {
    if (h.whole || chosen.has(h.ingredient_id)) continue;
    if (h.synonym_norm.split(' ').some((w) => distinctive.has(w))) chosen.set(h.ingredient_id, { ingredient_id: h.ingredient_id, name: h.name, matched: h.synonym, by: 'word' });
  }
  return [...chosen.values()];
}

export interface Matched {
  field: 'name' | 'alias' | 'brand' | 'declared_ingredient';
  value: string;
  ingredient_id?: string;
}

export interface Ranked {
  product_id: string;
  score: number;
  matched: Matched[];
}

const weight = { nameExact: 100, aliasExact: 90, name: 20, alias: 18, brandExact: 40, brand: 8, ingredient: 10, ingredientWord: 6 } as const;

export function rankSearch(names: NameHit[], ingredients: IngredientHit[], declaring: DeclaringProduct[]): Ranked[] {
  const byProduct = new Map<string, { title: number; brand: number; ingredients: number; matched: Matched[] }>();
  const entry = (id: string) => {
    let e = byProduct.get(id);
    if (!e) byProduct.set(id, (e = { title: 0, brand: 0, ingredients: 0, matched: [] }));
    return e;
  };
  for (const hit of names) {
    const e = entry(hit.product_id);
    if (hit.field === 'brand') {
      e.brand = Math.max(e.brand, hit.exact ? weight.brandExact : weight.brand * hit.score);
    } else {
      const exact = hit.field === 'name' ? weight.nameExact : weight.aliasExact;
      const partial = hit.field === 'name' ? weight.name : weight.alias;
      e.title = Math.max(e.title, hit.exact ? exact : partial * hit.score);
    }
    if (!e.matched.some((m) => m.field === hit.field && m.value === hit.value)) e.matched.push({ field: hit.field, value: hit.value });
  }
  const asked = new Map(ingredients.map((i) => [i.ingredient_id, i]));
  for (const d of declaring) {
    const e = entry(d.product_id);
    const lines = d.declared.filter((l) => asked.has(l.ingredient_id));
    e.ingredients = [...new Set(lines.map((l) => l.ingredient_id))].reduce(
      (sum, id) => sum + (asked.get(id)!.by === 'name' ? weight.ingredient : weight.ingredientWord),
      0,
    );
    for (const l of lines) e.matched.push({ field: 'declared_ingredient', value: l.declared_name, ingredient_id: l.ingredient_id });
  }
  return [...byProduct]
    .map(([product_id, e]) => ({ product_id, score: Math.round((e.title + e.brand + e.ingredients) * 1000) / 1000, matched: e.matched }))
    .sort((a, b) => b.score - a.score || (a.product_id < b.product_id ? -1 : a.product_id > b.product_id ? 1 : 0));
}

/** One entry per product, its declared lines merged (the same product can be found from both sides). */
export function mergeDeclaring(...lists: DeclaringProduct[][]): DeclaringProduct[] {
  const byProduct = new Map<string, DeclaringProduct>();
  for (const d of lists.flat()) {
    const seen = byProduct.get(d.product_id);
    if (!seen) {
      byProduct.set(d.product_id, { product_id: d.product_id, declared: [...d.declared] });
      continue;
    }
    for (const line of d.declared) {
      if (!seen.declared.some((l) => l.ingredient_id === line.ingredient_id && l.declared_name === line.declared_name)) seen.declared.push(line);
    }
  }
  return [...byProduct.values()];
}
