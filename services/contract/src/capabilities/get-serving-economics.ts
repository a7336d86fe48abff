import { z } from 'zod';
import { priceBases } from '../decisions';
import { count, date, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyQuery, ProductPath } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { product } = example;

export const ServingEconomicsCoverage = open({
  observations: count,
  first_observed_at: date.nullable(),
  last_observed_at: date.nullable(),
  price_bases_observed: z.array(z.enum(priceBases)),
  price_runs: z
    .array(
      open({
        retailer: z.string(),
        price_basis: z.enum(priceBases),
        price: z.number().describe('USD'),
        first_observed_at: date,
        last_observed_at: date,
        observations: z.number().int().min(1),
      }),
    )
    .describe('spans of dated observations at one price per retailer and basis; never a change date'),
  per_gram_basis: open({ price_basis: z.enum(priceBases).nullable(), as_of: date }).nullable(),
})
  .describe('get_serving_economics: the price observations behind the calculations')
  .meta({ id: 'ServingEconomicsCoverage' });

export const getServingEconomics = defineCapability({
  name: 'get_serving_economics',
  method: 'GET', path: '/api/v1/products/:product_id/serving-economics', scope: 'economics:read', cost: 'product', service: 'record', tool: 'products.serving_economics', readOnly: true,
  description:
    'Price per serving (and per gram of declared ingredients where meaningful) as calculations with operands, list and promotional kept apart. Servings per container are the declared ones; where a label declares none, net contents ÷ serving size for capsules, tablets and other counted forms, marked as derived.',
  params: ProductPath, query: EmptyQuery, body: null,
  answer: { coverage: ServingEconomicsCoverage },
  refusals: ['not_found'],
  paged: false,
  examples: {
    answer: {
      product,
      coverage: {
        observations: 12,
        first_observed_at: '2026-01-08',
        last_observed_at: '2026-11-15',
        price_bases_observed: ['list', 'promotional'],
        price_runs: [{ retailer: 'Shelfwise', price_basis: 'list', price: 44.99, first_observed_at: '2026-01-08', last_observed_at: '2026-11-15', observations: 10 }],
        per_gram_basis: { price_basis: 'list', as_of: '2026-11-15' },
      },
    },
  },
  mcp: {
    title: 'Get price per serving',
    use: 'Price per serving is a calculation by the service, not a manufacturer figure; a promotional price is not a price change.',
    arguments: { product_id: arg.productId },
  },
});
