import type { ClientBase } from 'pg';
import type { ProductRow } from './rows';

/**
 * Product identity: a product joined to its brand. These two fragments are
 * the one spelling of that join; a query that reads a product's identity
 * beside its own columns selects `PRODUCT_IDENTITY_COLUMNS` from
 * `PRODUCTS_WITH_BRANDS`.
 */
export const PRODUCT_IDENTITY_COLUMNS = `p.product_id, p.name, p.brand_id, b.name AS brand_name, p.category, p.form, p.depth_class, p.retired_on`;
export const PRODUCTS_WITH_BRANDS = `products p JOIN brands b ON b.brand_id = p.brand_id`;

const productColumns = `${PRODUCT_IDENTITY_COLUMNS}, p.is_demo`;

/** One product by canonical id with its brand, or null when the Record has no such product. */
export async function productById(db: ClientBase, productId: string): Promise<ProductRow | null> {
  const { rows } = await db.query<ProductRow>({
    name: 'store-product-by-id',
    text: `SELECT ${productColumns} FROM ${PRODUCTS_WITH_BRANDS} WHERE p.product_id = $1`,
    values: [productId],
  });
  return rows[0] ?? null;
}

/** Products by canonical id, in no particular order; ids not in the Record are simply missing. */
export async function productsById(db: ClientBase, productIds: string[]): Promise<ProductRow[]> {
  const { rows } = await db.query<ProductRow>({
    name: 'store-products-by-id',
    text: `SELECT ${productColumns} FROM ${PRODUCTS_WITH_BRANDS} WHERE p.product_id = ANY($1::text[])`,
    values: [productIds],
  });
  return rows;
}
