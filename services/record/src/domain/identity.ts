import type { z } from 'zod';
import type { ProductIdentity as ProductIdentitySchema, depthClasses } from '@evidence-record/contract';

export type ProductIdentity = z.infer<typeof ProductIdentitySchema>;
export type DepthClass = (typeof depthClasses)[number];

/** A product row as the queries return it. `is_demo` stays internal: it only adds a limitation. */
export interface ProductRow {
  product_id: string;
  name: string;
  brand_id: string;
  brand_name: string;
  category: string;
  form: string;
  depth_class: DepthClass;
  retired_on: string | null;
  is_demo: boolean;
}

export function productIdentity(row: ProductRow): ProductIdentity {
  return {
    product_id: row.product_id,
    name: row.name,
    brand_id: row.brand_id,
    brand_name: row.brand_name,
    category: row.category,
    form: row.form,
    depth_class: row.depth_class,
    retired: row.retired_on !== null,
    retired_on: row.retired_on,
  };
}

/** "Brand Product", the way a person names a product. */
export function displayName(row: Pick<ProductRow, 'brand_name' | 'name'>): string {
  return `${row.brand_name} ${row.name}`;
}
