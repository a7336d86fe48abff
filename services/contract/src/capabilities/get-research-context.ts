import { z } from 'zod';
import { FromProductLabel, RetiredEntries, count, open } from '../answer-parts';
import { EmptyPath, EmptyQuery, IngredientContextBody } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

export const ResearchCoverage = open({
  ingredients: z.array(open({ ingredient_id: z.string(), name: z.string(), research_entries: count })),
  from_product_label: FromProductLabel,
  retired: RetiredEntries.optional(),
})
  .describe('get_research_context: the ingredients answered')
  .meta({ id: 'ResearchCoverage' });

export const getResearchContext = defineCapability({
  name: 'get_research_context',
  method: 'POST', path: '/api/v1/research/context', scope: 'research:read', cost: 'ingredient', service: 'record', tool: 'ingredients.research', readOnly: true,
  description: 'Studied ranges and the published evidence behind them for up to 5 ingredients, or for the ingredients a product declares.',
  params: EmptyPath, query: EmptyQuery, body: IngredientContextBody,
  answer: { coverage: ResearchCoverage },
  refusals: ['not_found'],
  paged: false,
  examples: {
    request: { ingredient_ids: ['ing_caffeine', 'ing_beta_alanine'] },
    answer: {
      coverage: { ingredients: [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', research_entries: 1 }], from_product_label: null, retired: [] },
    },
  },
  mcp: {
    title: 'Get research context for ingredients',
    use: 'Studied ranges describe research, not a recommendation for anyone.',
    arguments: { ingredient_ids: arg.ingredientIds, product_id: arg.ingredientProduct },
  },
});
