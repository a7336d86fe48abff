import type { ClientBase } from 'pg';
import { PRODUCT_IDENTITY_COLUMNS, type ProductRow } from '@evidence-record/record-store';

/** The identity columns and `is_demo`, which stays internal (it only adds a limitation). */
const identityColumns = `${PRODUCT_IDENTITY_COLUMNS}, p.is_demo`;

export type MatchedOn = 'name' | 'alias' | 'brand_and_name' | 'brand_and_alias';

export interface NameMatch extends ProductRow {
  matched_on: MatchedOn;
  matched_value: string;
}

/**
 * The products a normalised identifier names exactly: by name, by an alias,
 * or by a brand followed by a name or alias. `brandSplits` are the ways the
 * identifier divides into a leading brand and the rest. Each branch is an
 * equality on an indexed normalised column. One row per product (its most
 * specific match), at most `cap` rows in brand and name order, and `total`
 * products in all, so a name shared by thousands stays one small read.
 */
export async function productsNamedExactly(
  db: ClientBase,
  normalized: string,
  brandSplits: Array<[string, string]>,
  cap: number,
): Promise<{ matches: NameMatch[]; total: number }> {
  const { rows } = await db.query<NameMatch & { total: number }>({
    name: 'record-resolve-exact',
    text: `
      WITH split AS (SELECT * FROM unnest($2::text[], $3::text[]) AS s(brand_norm, rest)),
      matched AS (
        SELECT p.product_id, 'brand_and_name'::text AS matched_on, b.name || ' ' || p.name AS matched_value, 0 AS specificity
          FROM split s JOIN brands b ON b.name_norm = s.brand_norm
          JOIN products p ON p.brand_id = b.brand_id AND p.name_norm = s.rest
        UNION ALL
        SELECT a.product_id, 'brand_and_alias', b.name || ' ' || a.alias, 1
          FROM split s JOIN brands b ON b.name_norm = s.brand_norm
          JOIN product_aliases a ON a.alias_norm = s.rest
          JOIN products pa ON pa.product_id = a.product_id AND pa.brand_id = b.brand_id
        UNION ALL
        SELECT p.product_id, 'name', p.name, 2 FROM products p WHERE p.name_norm = $1
        UNION ALL
        SELECT a.product_id, 'alias', a.alias, 3 FROM product_aliases a WHERE a.alias_norm = $1
      ),
      best AS (SELECT DISTINCT ON (product_id) product_id, matched_on, matched_value FROM matched ORDER BY product_id, specificity)
      SELECT ${identityColumns}, best.matched_on, best.matched_value, count(*) OVER () AS total
        FROM best JOIN products p ON p.product_id = best.product_id JOIN brands b ON b.brand_id = p.brand_id
       ORDER BY b.name, p.name, p.product_id
       LIMIT $4`,
    values: [normalized, brandSplits.map(([brand]) => brand), brandSplits.map(([, rest]) => rest), cap],
  });
  return { matches: rows.map(({ total: _t, ...m }) => m), total: rows[0]?.total ?? 0 };
}

export interface BrandProducts {
  brand_name: string;
  total: number;
  products: ProductRow[];
}

/** The products of a brand named exactly, capped; `total` says how many there are. */
export async function productsOfBrandNamed(db: ClientBase, normalized: string, cap: number): Promise<BrandProducts | null> {
  const { rows } = await db.query<ProductRow & { total: number }>({
    name: 'record-resolve-brand',
    text: `
      SELECT ${identityColumns}, count(*) OVER () AS total
        FROM brands b JOIN products p ON p.brand_id = b.brand_id
       WHERE b.name_norm = $1
       ORDER BY p.retired_on IS NOT NULL, b.name, p.name, p.product_id
       LIMIT $2`,
    values: [normalized, cap],
  });
  const first = rows[0];
  if (!first) return null;
  return { brand_name: first.brand_name, total: first.total, products: rows.map(({ total: _total, ...row }) => row) };
}
