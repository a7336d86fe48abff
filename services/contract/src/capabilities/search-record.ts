import { z } from 'zod';
import { SEARCH_RESULT_CAP } from '../decisions';
import { open } from '../answer-parts';
import { example } from '../openapi-examples';
import { noNul, noNulMessage } from '../request-parts';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

const { product } = example;

export const SearchRecordBody = z.strictObject({
  query: z.string().max(300).refine((q) => q.trim().length > 0, 'query must contain text').refine(noNul, noNulMessage),
});
export type SearchRecordBody = z.infer<typeof SearchRecordBody>;

const SearchMatch = open({
  field: z.string().describe('name, alias, brand or declared_ingredient (open enum)'),
  value: z.string(),
  ingredient_id: z.string().optional(),
});

export const SearchCoverage = open({
  query_normalized: z.string(),
  result_cap: z.number().int().describe('search_record answers with at most this many products and never pages'),
  results: z.array(open({ rank: z.number().int().min(1), product_id: z.string(), score: z.number(), matched: z.array(SearchMatch) })),
  more_matches: z.boolean().describe('true when more products match than the cap shows'),
  ingredients_recognised: z.array(
    open({ ingredient_id: z.string(), name: z.string(), matched: z.string(), by: z.string().describe('name (a whole name or synonym) or word (one distinctive word)') }),
  ),
})
  .describe('search_record: what the question was matched as and what matched in each product')
  .meta({ id: 'SearchCoverage' });

export const searchRecord = defineCapability({
  name: 'search_record',
  method: 'POST', path: '/api/v1/record/search', scope: 'record:search', cost: 'product', service: 'record', tool: 'record.search', readOnly: true,
  description: 'Answer a free-text question with a small ranked set of matching products and what matched (name, alias or declared ingredient). Never a listing.',
  params: EmptyPath, query: EmptyQuery, body: SearchRecordBody,
  answer: { coverage: SearchCoverage },
  refusals: [],
  paged: false,
  examples: {
    request: { query: 'caffeine and beta-alanine pre-workout' },
    answer: {
      products: [product],
      coverage: {
        query_normalized: 'ironvale surge caffeine',
        result_cap: SEARCH_RESULT_CAP,
        results: [{ rank: 1, product_id: product.product_id, score: 150, matched: [{ field: 'name', value: 'Surge' }, { field: 'declared_ingredient', value: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine' }] }],
        more_matches: false,
        ingredients_recognised: [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', matched: 'caffeine', by: 'name' }],
      },
    },
  },
  mcp: {
    title: 'Search the Record',
    use: 'Use it to find candidate products for a question; pass a returned product_id to the product tools.',
    arguments: { query: 'Free text, up to 300 characters: a brand, product name, alias or declared ingredient.' },
  },
});
