import { z } from 'zod';
import { WatchItem, count, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

const { watchItem } = example;

export const WatchList = open({ items: z.array(WatchItem), count, limit: count.describe("the account's watch limit") })
  .describe('list_watched_products')
  .meta({ id: 'WatchList' });

export const listWatchedProducts = defineCapability({
  name: 'list_watched_products',
  method: 'GET', path: '/api/v1/watch', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.list', readOnly: true,
  description: "The products on the key's account watchlist with monitoring state, last read, next check due and whether the source is unreadable.",
  params: EmptyPath, query: EmptyQuery, body: null,
  answer: { watch: WatchList },
  refusals: [],
  paged: false,
  examples: {
    answer: { watch: { items: [watchItem], count: 1, limit: 10 } },
  },
  mcp: {
    title: 'List the watchlist',
    use: 'Acts on the one account bound to the key; no argument names an account.',
    arguments: {},
  },
});
