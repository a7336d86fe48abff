import type { DeclaringProduct, IngredientHit, NameHit } from '../queries/search';

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
    'serving servings dose doses amount amounts price prices cost mg g mcg').split(' '),
);

/** The words of a normalised question worth matching names against. */
export function significantTokens(normalizedWords: string[]): string[] {
  return [...new Set(normalizedWords.filter((w) => !STOPWORDS.has(w) && (w.length >= 2 || /\d/.test(w))))];
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

const weight = { nameExact: 100, aliasExact: 90, name: 20, alias: 18, brandExact: 40, brand: 8, ingredient: 10 } as const;

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
  const asked = new Set(ingredients.map((i) => i.ingredient_id));
  for (const d of declaring) {
    const e = entry(d.product_id);
    const lines = d.declared.filter((l) => asked.has(l.ingredient_id));
    e.ingredients = weight.ingredient * new Set(lines.map((l) => l.ingredient_id)).size;
    for (const l of lines) e.matched.push({ field: 'declared_ingredient', value: l.declared_name, ingredient_id: l.ingredient_id });
  }
  return [...byProduct]
    .map(([product_id, e]) => ({ product_id, score: Math.round((e.title + e.brand + e.ingredients) * 1000) / 1000, matched: e.matched }))
    .sort((a, b) => b.score - a.score || (a.product_id < b.product_id ? -1 : a.product_id > b.product_id ? 1 : 0));
}
