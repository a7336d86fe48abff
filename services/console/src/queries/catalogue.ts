import type { Pool } from '@evidence-record/platform';

/** Each product's brand and name (`Ironvale Surge`), by product id. */
export async function productLabels(pool: Pool, productIds: string[]): Promise<Map<string, string>> {
  const { rows } = await pool.query<{ product_id: string; label: string }>(
    `SELECT p.product_id, b.name || ' ' || p.name AS label FROM products p JOIN brands b ON b.brand_id = p.brand_id WHERE p.product_id = ANY($1::text[])`,
    [[...new Set(productIds)]],
  );
  return new Map(rows.map((r) => [r.product_id, r.label]));
}

/** An ingredient's name, or undefined when the catalogue has no such ingredient. */
export async function ingredientName(pool: Pool, ingredientId: string): Promise<string | undefined> {
  return (await pool.query<{ name: string }>('SELECT name FROM ingredients WHERE ingredient_id = $1', [ingredientId])).rows[0]?.name;
}
