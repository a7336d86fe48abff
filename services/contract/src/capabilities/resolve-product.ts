import { z } from 'zod';
import { count, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { noNul, noNulMessage } from '../request-parts';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

const { product } = example;

export const ResolveProductBody = z.strictObject({
  identifier: z.string().max(120).refine((q) => q.trim().length > 0, 'identifier must contain text').refine(noNul, noNulMessage),
});
export type ResolveProductBody = z.infer<typeof ResolveProductBody>;

export const ResolveCoverage = open({
  identifier_normalized: z.string(),
  matched_on: z.string().optional().describe('one match: name, alias, brand_and_name or brand_and_alias (open enum)'),
  matched_value: z.string().optional(),
  candidates_total: count.optional().describe('ambiguous: how many products carry the identifier'),
  candidates_shown: count.optional().describe('ambiguous: how many of them are in candidates'),
})
  .describe('resolve_product: how the identifier was matched, or how many candidates it names')
  .meta({ id: 'ResolveCoverage' });

export const resolveProduct = defineCapability({
  name: 'resolve_product',
  method: 'POST', path: '/api/v1/products/resolve', scope: 'products:read', cost: 'product', service: 'record', tool: 'products.resolve', readOnly: true,
  description: 'Resolve a brand, product name or alias to one canonical product_id. Never guesses: a generic name answers ambiguous with candidates, an uncovered one unsupported.',
  params: EmptyPath, query: EmptyQuery, body: ResolveProductBody,
  answer: { coverage: ResolveCoverage },
  refusals: [],
  paged: false,
  examples: {
    request: { identifier: 'Ironvale Surge' },
    answer: { product, coverage: { identifier_normalized: 'iv surge', matched_on: 'alias', matched_value: 'IV Surge' } },
  },
  mcp: {
    title: 'Resolve a product name to its id',
    use: 'Call this first whenever a product is named, then pass product.product_id to the other tools. status "ambiguous": ask the user to choose among candidates, never take the first. status "unsupported": the product is not covered by the Record (a fact about the Record, not about the product).',
    arguments: { identifier: 'Brand, product name or alias exactly as the user gave it, up to 120 characters.' },
  },
});
