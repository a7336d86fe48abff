import { z } from 'zod';
import { ProductId, randomId } from '@evidence-record/contract';
import { withRecordChange, type Pool, type PoolClient } from '@evidence-record/platform';
import { normalizeName } from '@evidence-record/record-store';
import { CurationRefused } from './errors';

/**
 * The covered set grows: an operator registers a product (and its brand, found
 * by name or created). A new product is REGISTERED until it gains a comparable
 * label state (decision 1001); it is resolvable by name and alias as soon as
 * its Record change commits.
 */
const text = (max: number) => z.string().trim().min(1).max(max);
export const AddProductInput = z.strictObject({
  brand: text(120),
  name: text(200),
  aliases: z.array(text(200)).max(20).default([]),
  category: z.enum(['pre-workout']).default('pre-workout'),
  form: z.enum(['powder', 'capsule', 'ready_to_drink']).default('powder'),
});
export type AddProductInput = z.input<typeof AddProductInput>;

export interface AddedProduct {
  product_id: string;
  brand_id: string;
  name: string;
  depth_class: string;
  brand_created: boolean;
  record_version: string | null;
}

export async function addProduct(pool: Pool, input: AddProductInput): Promise<AddedProduct> {
  const parsed = AddProductInput.safeParse(input);
  if (!parsed.success) throw new CurationRefused(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  const { result, record_version } = await withRecordChange(pool, `product added: ${parsed.data.brand} ${parsed.data.name}`, (client) => addProductIn(client, parsed.data));
  return { ...result, record_version };
}

export async function addProductIn(client: PoolClient, input: z.output<typeof AddProductInput>): Promise<Omit<AddedProduct, 'record_version'>> {
  const brandNorm = normalizeName(input.brand);
  const nameNorm = normalizeName(input.name);
  if (!brandNorm || !nameNorm) throw new CurationRefused('a brand and a product name need at least one letter or digit');
  const brand = await brandFor(client, input.brand, brandNorm);
  const clash = await client.query<{ product_id: string }>('SELECT product_id FROM products WHERE brand_id = $1 AND name_norm = $2', [brand.brand_id, nameNorm]);
  if (clash.rows[0]) throw new CurationRefused(`${input.brand} already has a product named ${input.name} (${clash.rows[0].product_id})`, 'already_exists');
  const productId = `prd_${randomId()}`;
  await client.query(
    `INSERT INTO products (product_id, brand_id, name, name_norm, category, form, depth_class) VALUES ($1, $2, $3, $4, $5, $6, 'REGISTERED')`,
    [productId, brand.brand_id, input.name, nameNorm, input.category, input.form],
  );
  for (const alias of new Set(input.aliases)) {
    const aliasNorm = normalizeName(alias);
    if (!aliasNorm) continue;
    await client.query('INSERT INTO product_aliases (alias, alias_norm, product_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [alias, aliasNorm, productId]);
  }
  return { product_id: productId, brand_id: brand.brand_id, name: input.name, depth_class: 'REGISTERED', brand_created: brand.created };
}

async function brandFor(client: PoolClient, name: string, norm: string): Promise<{ brand_id: string; created: boolean }> {
  const found = await client.query<{ brand_id: string }>('SELECT brand_id FROM brands WHERE name_norm = $1 ORDER BY brand_id LIMIT 1', [norm]);
  if (found.rows[0]) return { brand_id: found.rows[0].brand_id, created: false };
  // A readable id from the name, made unique with a short random tail.
  const stem = norm.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 30) || 'brand';
  const brandId = `brd_${stem}_${randomId(6)}`;
  await client.query('INSERT INTO brands (brand_id, name, name_norm) VALUES ($1, $2, $3)', [brandId, name, norm]);
  return { brand_id: brandId, created: true };
}

const RetireInput = z.strictObject({ product_id: ProductId, on: z.iso.date(), note: text(500).nullable().default(null) });

/** Retires a product: its id stays and answers say it is retired. */
export async function retireProduct(pool: Pool, input: z.input<typeof RetireInput>): Promise<{ product_id: string; retired_on: string; record_version: string | null }> {
  const parsed = RetireInput.safeParse(input);
  if (!parsed.success) throw new CurationRefused(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  const r = parsed.data;
  const { record_version } = await withRecordChange(pool, `product ${r.product_id} retired`, async (client) => {
    const { rows } = await client.query<{ retired_on: string | null }>('SELECT retired_on FROM products WHERE product_id = $1 FOR UPDATE', [r.product_id]);
    if (!rows[0]) throw new CurationRefused(`product ${r.product_id} does not exist`, 'not_found');
    if (rows[0].retired_on) throw new CurationRefused(`product ${r.product_id} was already retired on ${rows[0].retired_on}`, 'already_retired');
    await client.query('UPDATE products SET retired_on = $2, retired_note = $3 WHERE product_id = $1', [r.product_id, r.on, r.note]);
  });
  return { product_id: r.product_id, retired_on: r.on, record_version };
}
