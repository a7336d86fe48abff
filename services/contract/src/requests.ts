import { z } from 'zod';
import { EditionId, IngredientId, ProductId, SignalId } from './ids';

/**
 * The request shapes several capabilities share (spec: Request shapes);
 * each capability's own body or query schema is in its module under
 * capabilities/, built from these and from request-parts.ts. Every object
 * is strict: unknown properties are refused. The gateway validates with
 * these before a request reaches a service; the service parses again to
 * type it.
 */
const none = z.strictObject({});

export const ProductPath = z.strictObject({ product_id: ProductId });
export const SignalPath = z.strictObject({ signal_id: SignalId });
export const EditionPath = z.strictObject({ edition_id: EditionId });

/** get_research_context and get_regulatory_context: the ingredients named, or those a product declares. */
export const IngredientContextBody = z
  .strictObject({
    ingredient_ids: z.array(IngredientId).max(5).optional(),
    product_id: ProductId.optional(),
  })
  .refine((b) => (b.ingredient_ids?.length ?? 0) > 0 || b.product_id !== undefined, {
    message: 'name ingredient_ids or a product_id',
    path: ['ingredient_ids'],
  });

export const EmptyQuery = none;
export const EmptyPath = none;

export type IngredientContextBody = z.infer<typeof IngredientContextBody>;
