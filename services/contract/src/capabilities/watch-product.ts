import { z } from 'zod';
import { WatchItem, count, open } from '../answer-parts';
import { ProductId } from '../ids';
import { example } from '../openapi-examples';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { watchItem } = example;

export const WatchProductBody = z.strictObject({ product_id: ProductId });

export const WatchAdded = open({
  changed: z.boolean().describe('false when the product was already watched (idempotent)'),
  item: WatchItem,
  count,
  limit: count,
})
  .describe('watch_product')
  .meta({ id: 'WatchAdded' });

export const watchProduct = defineCapability({
  name: 'watch_product',
  method: 'POST', path: '/api/v1/watch', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.add', readOnly: false,
  description: "Add a covered product to the account's watchlist (idempotent). Alerts arrive by email when Signals on it are released.",
  params: EmptyPath, query: EmptyQuery, body: WatchProductBody,
  answer: { watch: WatchAdded },
  refusals: ['not_found', 'watch_limit_reached', 'product_not_watchable'],
  paged: false,
  examples: {
    request: { product_id: 'prd_0a1b2c3d4e5f' },
    answer: { watch: { changed: true, item: watchItem, count: 1, limit: 10 } },
  },
  mcp: {
    title: 'Watch a product',
    use: 'Safe to repeat: watching a watched product succeeds. Refused for a product outside the covered set or beyond the watch limit.',
    arguments: { product_id: arg.productId },
  },
});
