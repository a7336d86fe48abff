import { z } from 'zod';
import { depthClasses } from '../decisions';
import { count, date, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyQuery, ProductPath } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { product, state, signal } = example;

export const HistoryCoverage = open({
  depth_class: z.enum(depthClasses),
  depth_of_history: open({
    class: z.string().describe('none, identity_only, presence_only, single_comparable_state or comparable_timeline (open enum)'),
    span_days: count,
  }),
  first_observed: date.nullable(),
  last_observed: date.nullable(),
  states: count,
  comparable_states: count,
  comparable_pairs: count,
  released_signals: count,
  withdrawn_signals: count,
})
  .describe('get_formula_history: how deep the recoverable history goes')
  .meta({ id: 'HistoryCoverage' });

export const getFormulaHistory = defineCapability({
  name: 'get_formula_history',
  method: 'GET', path: '/api/v1/products/:product_id/history', scope: 'history:read', cost: 'product', service: 'record', tool: 'products.history', readOnly: true,
  description: 'The timeline of captured label states, the depth of recoverable history, which states are comparable, and the approved Signals between them.',
  params: ProductPath, query: EmptyQuery, body: null,
  answer: { coverage: HistoryCoverage },
  refusals: ['not_found'],
  paged: false,
  examples: {
    answer: {
      product,
      history: [
        { ...state, state_id: 'hs_1a2b3c4d5e6f', observed_from: '2026-01-05', observed_to: '2026-10-20', serving: { serving_size: 12, serving_unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' }, declared_ingredient_count: 6, note: null },
        { ...state, serving: { serving_size: 12, serving_unit: 'g', servings_per_container: 30, description: '1 scoop (12 g)' }, declared_ingredient_count: 6, note: null },
      ].map((s) => ({ ...s, comparable: true })),
      signals: [signal],
      coverage: {
        depth_class: 'TRACKED',
        depth_of_history: { class: 'comparable_timeline', span_days: 315 },
        first_observed: '2026-01-05',
        last_observed: '2026-11-16',
        states: 2,
        comparable_states: 2,
        comparable_pairs: 1,
        released_signals: 1,
        withdrawn_signals: 0,
      },
    },
  },
  mcp: {
    title: "Get a product's formula history",
    use: 'An observation window is not an exact change date: say "changed between start and end" unless exact_change_date is set.',
    arguments: { product_id: arg.productId },
  },
});
