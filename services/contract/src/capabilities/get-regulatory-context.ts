import { z } from 'zod';
import { FromProductLabel, RetiredEntries, count, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyPath, EmptyQuery, IngredientContextBody } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { product, state } = example;

export const RegulatoryCoverage = open({
  ingredients: z.array(open({ ingredient_id: z.string(), name: z.string(), regulatory_records: count, documented_cautions: count })),
  from_product_label: FromProductLabel,
  retired: RetiredEntries.optional(),
})
  .describe('get_regulatory_context: the ingredients answered')
  .meta({ id: 'RegulatoryCoverage' });

export const getRegulatoryContext = defineCapability({
  name: 'get_regulatory_context',
  method: 'POST', path: '/api/v1/regulatory/context', scope: 'regulatory:read', cost: 'ingredient', service: 'record', tool: 'ingredients.regulatory', readOnly: true,
  description: 'Regulatory records and documented cautions for up to 5 ingredients, or for the ingredients a product declares. A filing is never an approval or a finding of harm.',
  params: EmptyPath, query: EmptyQuery, body: IngredientContextBody,
  answer: { coverage: RegulatoryCoverage },
  refusals: ['not_found'],
  paged: false,
  examples: {
    request: { product_id: 'prd_0a1b2c3d4e5f' },
    answer: {
      product,
      coverage: {
        ingredients: [{ ingredient_id: 'ing_caffeine', name: 'Caffeine', regulatory_records: 1, documented_cautions: 1 }],
        from_product_label: { product_id: product.product_id, state_id: state.state_id },
        retired: [],
      },
    },
  },
  mcp: {
    title: 'Get regulatory records for ingredients',
    use: 'Report a filing as what it is; never as an approval, a warning about a product or a finding of harm.',
    arguments: { ingredient_ids: arg.ingredientIds, product_id: arg.ingredientProduct },
  },
});
