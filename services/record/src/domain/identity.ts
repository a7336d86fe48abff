import type { z } from 'zod';
import type { ProductIdentity as ProductIdentitySchema } from '@evidence-record/contract';
import type { ProductRow } from '@evidence-record/record-store';

export type ProductIdentity = z.infer<typeof ProductIdentitySchema>;

/** The product row and its presenter are the Record store's (one query and one presenter for every service). */
export { productIdentity, type ProductRow } from '@evidence-record/record-store';

/** "Brand Product", the way a person names a product. */
export function displayName(row: Pick<ProductRow, 'brand_name' | 'name'>): string {
  return `${row.brand_name} ${row.name}`;
}
