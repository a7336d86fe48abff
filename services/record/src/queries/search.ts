import type { ClientBase } from 'pg';

/** Candidate rows read per path before ranking; bounds the work one question can cause. */
const CANDIDATES_PER_PATH = 1000;
/** Brands a question is taken to name, most similar first; their products are searched first. */
const BRANDS_CONSIDERED = 10;

export interface NameHit {
  product_id: string;
  field: 'name' | 'alias' | 'brand';
  value: string;
  exact: boolean;
  /** 0..3: how much of the name is in the question, how much of the question is in the name, and overall trigram similarity. */
  score: number;
}

/**
 * Products whose name, alias or brand contains one of the question's words
 * (a whole-word regular expression, answered from the trigram indexes),
 * scored by trigram similarity to the whole question. The brands the
 * question names best are found first and their products searched on their
 * own, so "brand + name" finds that brand's product even when the name alone
 * is shared by more products than one path reads.
 */
export async function nameHits(db: ClientBase, normalized: string, tokens: string[]): Promise<NameHit[]> {
  if (tokens.length === 0) return [];
  // Tokens are normalised words (letters and digits only), so they are safe inside the pattern.
  const pattern = `\\m(${tokens.join('|')})\\M`;
  const { rows } = await db.query<NameHit>({
    name: 'record-search-names',
    text: `
      WITH named_brands AS (
        SELECT b.brand_id, b.name, b.name_norm FROM brands b WHERE b.name_norm ~ $2
         ORDER BY word_similarity(b.name_norm, $1) DESC, b.brand_id LIMIT ${BRANDS_CONSIDERED}
      ),
      hits AS (
        (SELECT p.product_id, 'name'::text AS field, p.name AS value, p.name_norm AS norm
           FROM named_brands nb JOIN products p ON p.brand_id = nb.brand_id WHERE p.name_norm ~ $2 LIMIT ${CANDIDATES_PER_PATH})
        UNION ALL
        (SELECT p.product_id, 'name', p.name, p.name_norm
           FROM products p WHERE p.name_norm ~ $2 LIMIT ${CANDIDATES_PER_PATH})
        UNION ALL
        (SELECT a.product_id, 'alias', a.alias, a.alias_norm
           FROM product_aliases a WHERE a.alias_norm ~ $2 LIMIT ${CANDIDATES_PER_PATH})
        UNION ALL
        (SELECT p.product_id, 'brand', nb.name, nb.name_norm
           FROM named_brands nb JOIN products p ON p.brand_id = nb.brand_id LIMIT ${CANDIDATES_PER_PATH})
      )
      SELECT product_id, field, value, norm = $1 AS exact,
             (word_similarity(norm, $1) + word_similarity($1, norm) + similarity(norm, $1))::float8 AS score
        FROM hits`,
    values: [normalized, pattern],
  });
  return rows;
}

/** A synonym of an ingredient that the question names whole, or shares a word with. */
export interface SynonymHit {
  ingredient_id: string;
  name: string;
  synonym: string;
  synonym_norm: string;
  whole: boolean;
}

/**
 * Synonyms (the catalogue stores each ingredient's name among them) that
 * appear as whole words in the question, or share one of its words. The
 * synonym table is small; choosing among the hits is the ranking's job.
 */
export async function synonymHits(db: ClientBase, normalized: string, tokens: string[]): Promise<SynonymHit[]> {
  const { rows } = await db.query<SynonymHit>({
    name: 'record-search-synonyms',
    text: `
      SELECT s.ingredient_id, i.name, s.synonym, s.synonym_norm,
             position(' ' || s.synonym_norm || ' ' IN ' ' || $1 || ' ') > 0 AS whole
        FROM ingredient_synonyms s JOIN ingredients i ON i.ingredient_id = s.ingredient_id
       WHERE position(' ' || s.synonym_norm || ' ' IN ' ' || $1 || ' ') > 0
          OR string_to_array(s.synonym_norm, ' ') && $2::text[]
       ORDER BY s.ingredient_id, length(s.synonym_norm) DESC, s.synonym_norm`,
    values: [normalized, tokens],
  });
  return rows;
}

export interface DeclaringProduct {
  product_id: string;
  declared: Array<{ ingredient_id: string; declared_name: string }>;
}

/** Up to this many declared lines of the asked ingredients, products are found from the ingredient side. */
const RARE_INGREDIENT_LINES = 20000;

const latestStateOf = (product: string) => `(SELECT h.state_id FROM history_states h WHERE h.product_id = ${product}
                        ORDER BY h.observed_to DESC, h.observed_from DESC, h.state_id DESC LIMIT 1)`;
const declaredJson = `jsonb_agg(DISTINCT jsonb_build_object('ingredient_id', di.ingredient_id, 'declared_name', di.declared_name))`;

/**
 * Products whose latest label state declares any of the ingredients: most
 * matched ingredients first, then by product id; `cap` rows. Earlier states
 * do not count: a product that no longer declares an ingredient is not found
 * by it.
 *
 * The work must not grow with the Record. Rare ingredients are read from the
 * ingredient side (every line declaring them). Common ones are read from the
 * product side in id order, stopping as soon as `cap` products declare all
 * the asked ingredients, which is exactly the top of the ranking; only if
 * fewer do so are the remaining places filled with the first products (by
 * id) that declare some of them.
 */
export async function productsDeclaring(
  db: ClientBase,
  ingredientIds: string[],
  cap: number,
  rareLines = RARE_INGREDIENT_LINES,
): Promise<DeclaringProduct[]> {
  if (ingredientIds.length === 0) return [];
  const { rows: volume } = await db.query<{ lines: number }>({
    name: 'record-search-declared-volume',
    text: `SELECT count(*)::int AS lines FROM (SELECT 1 FROM declared_ingredients WHERE ingredient_id = ANY($1::text[]) LIMIT $2) x`,
    values: [ingredientIds, rareLines + 1],
  });
  if (volume[0]!.lines <= rareLines) {
    const { rows } = await db.query<DeclaringProduct>({
      name: 'record-search-declaring-rare',
      text: `
        SELECT hs.product_id, ${declaredJson} AS declared
          FROM declared_ingredients di JOIN history_states hs ON hs.state_id = di.state_id
         WHERE di.ingredient_id = ANY($1::text[]) AND hs.state_id = ${latestStateOf('hs.product_id')}
         GROUP BY hs.product_id
         ORDER BY count(DISTINCT di.ingredient_id) DESC, hs.product_id
         LIMIT $2`,
      values: [ingredientIds, cap],
    });
    return rows;
  }
  const walk = (name: string, minimum: number) =>
    db.query<DeclaringProduct>({
      name,
      text: `
        SELECT p.product_id, m.declared
          FROM products p
          CROSS JOIN LATERAL (
            SELECT ${declaredJson} AS declared, count(DISTINCT di.ingredient_id) AS matched
              FROM declared_ingredients di
             WHERE di.state_id = ${latestStateOf('p.product_id')} AND di.ingredient_id = ANY($1::text[])
          ) m
         WHERE m.matched >= $2
         ORDER BY p.product_id
         LIMIT $3`,
      values: [ingredientIds, minimum, cap],
    });
  const all = (await walk('record-search-declaring-all', ingredientIds.length)).rows;
  if (all.length >= cap || ingredientIds.length === 1) return all;
  const some = (await walk('record-search-declaring-some', 1)).rows.filter((r) => !all.some((a) => a.product_id === r.product_id));
  return [...all, ...some].slice(0, cap);
}

/** Of the given products, those whose latest label state declares any of the ingredients, with the declared lines. */
export async function declaredAmong(db: ClientBase, productIds: string[], ingredientIds: string[]): Promise<DeclaringProduct[]> {
  if (productIds.length === 0 || ingredientIds.length === 0) return [];
  const { rows } = await db.query<DeclaringProduct>({
    name: 'record-search-declared-among',
    text: `
      SELECT ids.product_id, ${declaredJson} AS declared
        FROM unnest($1::text[]) AS ids(product_id)
        JOIN declared_ingredients di ON di.state_id = ${latestStateOf('ids.product_id')} AND di.ingredient_id = ANY($2::text[])
       GROUP BY ids.product_id`,
    values: [productIds, ingredientIds],
  });
  return rows;
}
