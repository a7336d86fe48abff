import type { ClientBase } from 'pg';

/** Candidate rows read per path before ranking; bounds the work one question can cause. */
const CANDIDATES_PER_PATH = 1000;

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
 * scored by trigram similarity to the whole question.
 */
export async function nameHits(db: ClientBase, normalized: string, tokens: string[]): Promise<NameHit[]> {
  if (tokens.length === 0) return [];
  // Tokens are normalised words (letters and digits only), so they are safe inside the pattern.
  const pattern = `\\m(${tokens.join('|')})\\M`;
  const { rows } = await db.query<NameHit>({
    name: 'record-search-names',
    text: `
      WITH hits AS (
        (SELECT p.product_id, 'name'::text AS field, p.name AS value, p.name_norm AS norm
           FROM products p WHERE p.name_norm ~ $2 LIMIT ${CANDIDATES_PER_PATH})
        UNION ALL
        (SELECT a.product_id, 'alias', a.alias, a.alias_norm
           FROM product_aliases a WHERE a.alias_norm ~ $2 LIMIT ${CANDIDATES_PER_PATH})
        UNION ALL
        (SELECT p.product_id, 'brand', b.name, b.name_norm
           FROM brands b JOIN products p ON p.brand_id = b.brand_id WHERE b.name_norm ~ $2 LIMIT ${CANDIDATES_PER_PATH})
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

/**
 * Products whose latest label state declares any of the ingredients, most
 * matched ingredients first. Earlier states do not count: a product that no
 * longer declares an ingredient is not found by it.
 */
export async function productsDeclaring(db: ClientBase, ingredientIds: string[]): Promise<DeclaringProduct[]> {
  if (ingredientIds.length === 0) return [];
  const { rows } = await db.query<DeclaringProduct>({
    name: 'record-search-declaring',
    text: `
      SELECT hs.product_id,
             jsonb_agg(DISTINCT jsonb_build_object('ingredient_id', di.ingredient_id, 'declared_name', di.declared_name)) AS declared
        FROM declared_ingredients di
        JOIN history_states hs ON hs.state_id = di.state_id
       WHERE di.ingredient_id = ANY($1::text[])
         AND hs.state_id = (SELECT h.state_id FROM history_states h WHERE h.product_id = hs.product_id
                             ORDER BY h.observed_to DESC, h.observed_from DESC, h.state_id DESC LIMIT 1)
       GROUP BY hs.product_id
       ORDER BY count(DISTINCT di.ingredient_id) DESC, hs.product_id
       LIMIT ${CANDIDATES_PER_PATH}`,
    values: [ingredientIds],
  });
  return rows;
}
