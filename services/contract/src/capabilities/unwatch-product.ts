import { z } from 'zod';
import { count, open } from '../answer-parts';
import { ProductId } from '../ids';
import { EmptyQuery } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

export const WatchPath = z.strictObject({ product_id: ProductId });

export const WatchRemoved = open({
  changed: z.boolean().describe('false when the product was not watched (idempotent)'),
  alerts_cancelled: count.describe('alerts not yet sent that the removal stopped; nothing already delivered is removed'),
  count,
  limit: count,
})
  .describe('unwatch_product')
  .meta({ id: 'WatchRemoved' });

export const unwatchProduct = defineCapability({
  name: 'unwatch_product',
  method: 'DELETE', path: '/api/v1/watch/:product_id', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.remove', readOnly: false,
  description: 'Remove a product from the watchlist (idempotent). Stops future alerts; removes nothing already delivered.',
  params: WatchPath, query: EmptyQuery, body: null,
  answer: { watch: WatchRemoved },
  // No not_found: removing a watch that does not exist succeeds (spec, Behaviours 9).
  refusals: [],
  paged: false,
  examples: {
    answer: { watch: { changed: true, alerts_cancelled: 0, count: 0, limit: 10 } },
  },
  mcp: {
    title: 'Stop watching a product',
    use: 'Safe to repeat: removing a product that is not watched succeeds.',
    arguments: { product_id: arg.productId },
  },
});
