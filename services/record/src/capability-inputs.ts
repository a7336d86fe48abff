import { Refusal } from '@evidence-record/contract';
import { withSnapshot, type Pool, type PoolClient } from '@evidence-record/platform';
import type { RecordState } from '@evidence-record/contract';
import type { ProductRow } from './domain/identity';
import { normalizeName } from '@evidence-record/record-store';
import { productById } from '@evidence-record/record-store';

/**
 * Runs `fn` in one snapshot of the Record with the product the path names;
 * a product_id the Record does not hold is `not_found` before anything else
 * is read.
 */
export function withProductSnapshot<T>(pool: Pool, productId: string, fn: (db: PoolClient, record: RecordState, product: ProductRow) => Promise<T>): Promise<T> {
  return withSnapshot(pool, async (db, record) => {
    const product = await productById(db, productId);
    if (!product) throw new Refusal('not_found', { details: { field: 'product_id' } });
    return fn(db, record, product);
  });
}

/** The normalised text of a body field; one with no letters or digits matches nothing and is refused, naming the field. */
export function normalizedField(field: 'identifier' | 'query', value: string): string {
  const normalized = normalizeName(value);
  if (normalized.length === 0) {
    throw new Refusal('invalid_request', {
      message: `The ${field} contains no letters or digits.`,
      details: { location: 'body', field, issues: [{ field, problem: 'no letters or digits' }] },
    });
  }
  return normalized;
}
