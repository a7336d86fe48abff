import { SEARCH_RESULT_CAP } from '@evidence-record/contract';
import { answered, withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { normalizedField } from '../capability-inputs';
import { productIdentity } from '../domain/identity';
import { distinct, limitation } from '../domain/limitations';
import { words } from '@evidence-record/record-store';
import { mergeDeclaring, rankSearch, recogniseIngredients, significantTokens } from '../domain/search-ranking';
import { productsById } from '@evidence-record/record-store';
import { declaredAmong, nameHits, productsDeclaring, synonymHits } from '../queries/search';

/** How many of the best name matches are checked for the question's ingredients. */
const NAME_LEADERS = 50;

/**
 * A free-text question answered with a small ranked set of products and what
 * matched in each (name, alias, brand, or an ingredient the latest label
 * declares). At most SEARCH_RESULT_CAP products, no cursor: it is never a
 * way to list the Record.
 */
export const searchRecord = (deps: RecordDeps): HandlerOf<'search_record'> => async ({ capability, body }, ctx) => {
  const normalized = normalizedField('query', body.query);
  const tokens = significantTokens(words(normalized));

  return withSnapshot(deps.pool, async (db, record) => {
    const names = await nameHits(db, normalized, tokens);
    const ingredients = recogniseIngredients(await synonymHits(db, normalized, tokens), tokens);
    const ingredientIds = ingredients.map((i) => i.ingredient_id);
    // One more than shown, so the answer can say whether more products match.
    const declaring = await productsDeclaring(db, ingredientIds, SEARCH_RESULT_CAP + 1);
    // The best name matches also earn what their labels declare of the question's ingredients.
    const leaders = rankSearch(names, [], []).slice(0, NAME_LEADERS).map((r) => r.product_id);
    const declaredByLeaders = await declaredAmong(db, leaders, ingredientIds);

    const ranked = rankSearch(names, ingredients, mergeDeclaring(declaring, declaredByLeaders));
    const top = ranked.slice(0, SEARCH_RESULT_CAP);
    const rows = new Map((await productsById(db, top.map((r) => r.product_id))).map((p) => [p.product_id, p]));
    const results = top.filter((r) => rows.has(r.product_id)).map((r) => ({ ...r, product: rows.get(r.product_id)! }));

    if (results.length === 0) {
      return answered(ctx, record, [], {
        capability,
        status: 'unsupported',
        summary: 'No product in the Record matches the question by name, alias, brand or declared ingredient.',
        products: [],
        coverage: { query_normalized: normalized, result_cap: SEARCH_RESULT_CAP, results: [], more_matches: false, ingredients_recognised: [] },
        limitations: [limitation.searchIsNotAListing(SEARCH_RESULT_CAP), limitation.absenceIsAboutTheRecord],
        confidence: { level: 'high', basis: 'No name, alias, brand or declared ingredient in the Record matches the words of the question.' },
      });
    }

    const more = ranked.length > SEARCH_RESULT_CAP;
    return answered(ctx, record, results.map((r) => r.product_id), {
      capability,
      status: 'supported',
      summary: `The ${results.length} product${results.length === 1 ? '' : 's'} in the Record that best match the question, ranked, with what matched in each.`,
      products: results.map((r) => productIdentity(r.product)),
      coverage: {
        query_normalized: normalized,
        result_cap: SEARCH_RESULT_CAP,
        results: results.map((r, i) => ({ rank: i + 1, product_id: r.product_id, score: r.score, matched: r.matched })),
        more_matches: more,
        ingredients_recognised: ingredients.map((i) => ({ ingredient_id: i.ingredient_id, name: i.name, matched: i.matched, by: i.by })),
      },
      limitations: distinct([
        results.some((r) => r.product.is_demo) && limitation.demoData,
        limitation.searchIsNotAListing(SEARCH_RESULT_CAP),
        more && limitation.searchHasMore(SEARCH_RESULT_CAP),
        declaring.length > 0 && 'An ingredient match means the latest label declares it; a product not found by an ingredient may still contain it undisclosed.',
        'A search result is a match on words, not a recommendation; resolve a product and read its record before relying on it.',
      ]),
      confidence: results.some((r) => r.matched.some((m) => m.field !== 'declared_ingredient'))
        ? { level: 'medium', basis: 'Results match words of the question in names, aliases or brands; the ranking is by textual similarity.' }
        : { level: 'medium', basis: 'Results declare an ingredient named in the question; the ranking among them is by number of matched ingredients.' },
    });
  });
};
