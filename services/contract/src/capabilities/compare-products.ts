import { z } from 'zod';
import { historyStateClasses } from '../decisions';
import { date, open } from '../answer-parts';
import { ProductId } from '../ids';
import { example } from '../openapi-examples';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

const { product, other, state } = example;

export const CompareProductsBody = z.strictObject({
  product_ids: z
    .array(ProductId)
    .min(2)
    .max(3)
    .refine((ids) => new Set(ids).size === ids.length, 'product_ids must be distinct'),
});
export type CompareProductsBody = z.infer<typeof CompareProductsBody>;

export const Comparison = open({
  basis: z.string(),
  states: z.array(
    open({
      product_id: z.string(),
      state_id: z.string().nullable(),
      observed_from: date.nullable(),
      observed_to: date.nullable(),
      classification: z.enum(historyStateClasses).nullable(),
    }),
  ),
  serving: z.array(
    open({
      product_id: z.string(),
      serving_size: z.number().nullable(),
      serving_unit: z.string().nullable(),
      servings_per_container: z.number().nullable(),
      description: z.string().nullable(),
    }),
  ),
  ingredients: z
    .array(
      open({
        ingredient_id: z.string().nullable().describe('null when the Record has not mapped the declared name to an ingredient'),
        name: z.string(),
        declared: z
          .array(
            open({
              product_id: z.string(),
              declared: z.boolean().describe('false: not on the label as captured (undisclosed), never zero'),
              declared_name: z.string().nullable(),
              amount: z.number().nullable().describe('null: no amount of its own on the label; never treated as zero'),
              unit: z.string().nullable(),
              blend: z.string().nullable(),
            }),
          )
          .describe('one cell per product, in request order'),
      }),
    )
    .describe('one row per ingredient any product declares, in label order; there is no ranking'),
  blends: z.array(open({ product_id: z.string().nullable(), name: z.string(), total_amount: z.number().nullable(), total_unit: z.string().nullable() })),
  note: z.string(),
})
  .describe('compare_products: declared doses side by side in the labels\' own units. Never names a winner; absent when the comparison is refused')
  .meta({ id: 'Comparison' });

export const compareProducts = defineCapability({
  name: 'compare_products',
  method: 'POST', path: '/api/v1/products/compare', scope: 'comparisons:create', cost: 'product', service: 'record', tool: 'products.compare', readOnly: true,
  description: 'Declared doses of 2 or 3 products side by side, with price per serving as a calculation. Never names a winner; refuses REGISTERED-depth products.',
  params: EmptyPath, query: EmptyQuery, body: CompareProductsBody,
  answer: { comparison: Comparison },
  refusals: ['not_found'],
  paged: false,
  examples: {
    request: { product_ids: ['prd_0a1b2c3d4e5f', 'prd_1b2c3d4e5f6g'] },
    answer: {
      products: [product, other],
      comparison: {
        basis: "Amounts per serving as declared on each product's latest label state, in the label's own units.",
        states: [
          { product_id: product.product_id, ...state },
          { product_id: other.product_id, state_id: 'hs_7h8j9k0l1m2n', observed_from: '2026-03-11', observed_to: '2026-11-14', classification: 'comparable' },
        ],
        serving: [
          { product_id: product.product_id, serving_size: 12, serving_unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' },
          { product_id: other.product_id, serving_size: 10.5, serving_unit: 'g', servings_per_container: 25, description: '1 scoop (10.5 g)' },
        ],
        ingredients: [
          {
            ingredient_id: 'ing_caffeine',
            name: 'Caffeine',
            declared: [
              { product_id: product.product_id, declared: true, declared_name: 'Caffeine Anhydrous', amount: 250, unit: 'mg', blend: null },
              { product_id: other.product_id, declared: false, declared_name: null, amount: null, unit: null, blend: null },
            ],
          },
        ],
        blends: [],
        note: 'Not declared means not on the label as captured (undisclosed), not absent from the product.',
      },
    },
  },
  mcp: {
    title: 'Compare 2 or 3 products',
    use: 'Report declared doses side by side; a dose comparison is not evidence of effectiveness, safety or suitability, and never names a winner.',
    arguments: { product_ids: '2 or 3 distinct canonical product ids (prd_…), resolved first.' },
  },
});
