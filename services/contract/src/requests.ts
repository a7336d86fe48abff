import { z } from 'zod';
import { EditionId, IngredientId, ProductId, SignalId, brandIdPattern } from './ids';
import { MAX_PAGE_SIZE, periodPattern } from './decisions';

/**
 * Request shapes of the 18 capabilities (spec: Request shapes). Every object
 * is strict: unknown properties are refused. The gateway validates with these
 * before a request reaches a service; the service parses again to type it.
 */
// Postgres has no year 0000 (ISO 8601's 1 BC): such a date is a bad request, never a server fault.
const isoDate = z.iso.date().refine((d) => !d.startsWith('0000'), 'year 0000 is not a calendar year the Record can hold');
const pageLimit = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE);
const cursor = z.string().min(1).max(512);
// Postgres text cannot hold a NUL character: free text carrying one is a bad request, never a server fault.
const noNul = (s: string) => !s.includes('\u0000');
const noNulMessage = 'must not contain a NUL character';
const none = z.strictObject({});

export const SearchRecordBody = z.strictObject({
  query: z.string().max(300).refine((q) => q.trim().length > 0, 'query must contain text').refine(noNul, noNulMessage),
});
export const ResolveProductBody = z.strictObject({
  identifier: z.string().max(120).refine((q) => q.trim().length > 0, 'identifier must contain text').refine(noNul, noNulMessage),
});
export const ProductPath = z.strictObject({ product_id: ProductId });
export const SignalPath = z.strictObject({ signal_id: SignalId });
export const EditionPath = z.strictObject({ edition_id: EditionId });

export const SignalFeedQuery = z
  .strictObject({
    since: isoDate.optional(),
    until: isoDate.optional(),
    product_id: ProductId.optional(),
    brand: z.string().max(60).regex(brandIdPattern, 'brand is a brand id such as brd_example').optional(),
    dimension: z.string().max(40).refine(noNul, noNulMessage).optional(),
    category: z.string().max(60).refine(noNul, noNulMessage).optional(),
    limit: pageLimit.optional(),
    cursor: cursor.optional(),
  })
  .refine((q) => !q.since || !q.until || q.since <= q.until, { message: 'since must not be after until', path: ['since'] });

export const CompareProductsBody = z.strictObject({
  product_ids: z
    .array(ProductId)
    .min(2)
    .max(3)
    .refine((ids) => new Set(ids).size === ids.length, 'product_ids must be distinct'),
});

export const IngredientContextBody = z
  .strictObject({
    ingredient_ids: z.array(IngredientId).max(5).optional(),
    product_id: ProductId.optional(),
  })
  .refine((b) => (b.ingredient_ids?.length ?? 0) > 0 || b.product_id !== undefined, {
    message: 'name ingredient_ids or a product_id',
    path: ['ingredient_ids'],
  });

export const CategorySnapshotQuery = z
  .strictObject({
    from: isoDate.optional(),
    to: isoDate.optional(),
    limit: pageLimit.optional(),
    cursor: cursor.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });

export const WatchProductBody = z.strictObject({ product_id: ProductId });
export const WatchPath = z.strictObject({ product_id: ProductId });
export const WatchReceiptQuery = z.strictObject({
  period: z.string().max(7).regex(periodPattern, 'period is a calendar month, YYYY-MM').optional(),
});

export const EmptyQuery = none;
export const EmptyPath = none;

export type SearchRecordBody = z.infer<typeof SearchRecordBody>;
export type ResolveProductBody = z.infer<typeof ResolveProductBody>;
export type SignalFeedQuery = z.infer<typeof SignalFeedQuery>;
export type CompareProductsBody = z.infer<typeof CompareProductsBody>;
export type IngredientContextBody = z.infer<typeof IngredientContextBody>;
export type CategorySnapshotQuery = z.infer<typeof CategorySnapshotQuery>;
export type WatchReceiptQuery = z.infer<typeof WatchReceiptQuery>;
