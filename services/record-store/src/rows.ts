import type { z } from 'zod';
import type { ProductIdentity, depthClasses } from '@evidence-record/contract';

/**
 * Rows of the Record as the queries read them, where several services read
 * the same thing: one type each, so that a column renamed in the schema is
 * renamed for every reader.
 */

/** A product joined to its brand, as every answer that names a product reads it. */
export interface ProductIdentityRow {
  product_id: string;
  name: string;
  brand_id: string;
  brand_name: string;
  category: string;
  form: string;
  depth_class: (typeof depthClasses)[number];
  retired_on: string | null;
}

/** A product row as `productById` reads it. `is_demo` stays internal: the record service only adds a limitation for it. */
export interface ProductRow extends ProductIdentityRow {
  is_demo: boolean;
}

/** The envelope's product identity of a product row. */
export function productIdentity(row: ProductIdentityRow): z.infer<typeof ProductIdentity> {
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

/**
 * What every reader of a released Signal selects from the `signals` table
 * (joined to its product for the category), whichever service answers with
 * it: one row type, so that a column renamed in the schema is renamed for
 * all of them. Each reader adds the columns only it needs.
 */
export type SignalStatus = 'released' | 'corrected' | 'withdrawn';

export interface ReleasedSignalColumns {
  signal_id: string;
  product_id: string;
  category: string;
  dimension: string;
  summary: string;
  status: SignalStatus;
  window_start: string;
  window_end: string;
  exact_change_date: string | null;
  released_on: string;
  before_state_id: string | null;
  after_state_id: string | null;
}

/** The product and brand a Signal is about, by id and name. */
export interface SignalProductNames {
  product_name: string;
  brand_id: string;
  brand_name: string;
}
