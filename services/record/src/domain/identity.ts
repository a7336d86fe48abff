import type { z } from 'zod';
import { productIdentity, type ProductIdentity as ProductIdentitySchema, type ProductIdentityRow } from '@evidence-record/contract';

export type ProductIdentity = z.infer<typeof ProductIdentitySchema>;

/** A product row as the queries return it. `is_demo` stays internal: it only adds a limitation. */
export interface ProductRow extends ProductIdentityRow {
  is_demo: boolean;
}

export { productIdentity };

/** "Brand Product", the way a person names a product. */
export function displayName(row: Pick<ProductRow, 'brand_name' | 'name'>): string {
  return `${row.brand_name} ${row.name}`;
}
