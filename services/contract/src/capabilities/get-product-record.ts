import { z } from 'zod';
import { historyStateClasses } from '../decisions';
import { date, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyQuery, ProductPath } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { product, state } = example;

const StateRef = open({
  state_id: z.string(),
  observed_from: date,
  observed_to: date,
  classification: z.enum(historyStateClasses),
});

export const ProductRecordCoverage = open({
  latest_state: StateRef.nullable(),
  freshness: open({ label_observed_to: date.nullable(), newest_price_observed_at: date.nullable() }),
  source_health: z
    .array(
      open({
        kind: z.string().describe('manufacturer or retailer'),
        retailer: z.string().nullable(),
        readable: z.boolean(),
        since: date.describe('the day the source entered its current health'),
        last_read_on: date.nullable(),
        last_captured_on: date.nullable(),
      }),
    )
    .describe('data-level state of each source; an unreadable source is never an API outage'),
  label_versions: z
    .array(
      open({
        dsld_label_id: z.number().int(),
        product_version_code: z.string().nullable(),
        dsld_date: date.nullable().describe("the label's own DSLD date (entryDate, else its 'Date entered into DSLD' event)"),
        off_market: z.boolean().describe('DSLD marks this label off the market (offMarket 1 or an Off Market event)'),
        off_market_since: date.nullable(),
        monitored: z.boolean().describe("only the product's newest label version is monitored; older versions are its recoverable history"),
        source_url: z.string(),
      }),
    )
    .optional()
    .describe('the DSLD label versions the Record holds of this product, oldest first (decision 1401)'),
})
  .describe('get_product_record: the latest label state, freshness, source health and DSLD label versions')
  .meta({ id: 'ProductRecordCoverage' });

export const getProductRecord = defineCapability({
  name: 'get_product_record',
  method: 'GET', path: '/api/v1/products/:product_id', scope: 'products:read', cost: 'product', service: 'record', tool: 'products.get', readOnly: true,
  description: 'The product record: identity, serving configuration, declared ingredients, captured prices and freshness, with dates and limitations.',
  params: ProductPath, query: EmptyQuery, body: null,
  answer: { coverage: ProductRecordCoverage },
  refusals: ['not_found'],
  paged: false,
  examples: {
    answer: {
      product,
      coverage: {
        latest_state: state,
        freshness: { label_observed_to: '2026-11-16', newest_price_observed_at: '2026-11-15' },
        source_health: [{ kind: 'manufacturer', retailer: null, readable: true, since: '2026-01-05', last_read_on: '2026-11-16', last_captured_on: '2026-11-16' }],
      },
    },
  },
  mcp: {
    title: 'Get a product record',
    use: 'A label ingredient with amount null was named without an amount: report it as undisclosed, never as zero.',
    arguments: { product_id: arg.productId },
  },
});
