import { z } from 'zod';
import { decisionTexts } from '../decision-texts';
import { SUPPORTED_CATEGORY, categories, signalDimensions } from '../decisions';
import { ProductId, brandIdPattern } from '../ids';
import { example } from '../openapi-examples';
import { cursor, isoDate, noNul, noNulMessage, pageLimit } from '../request-parts';
import { EmptyPath } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { signal } = example;

export const SignalFeedQuery = z
  .strictObject({
    since: isoDate.optional(),
    until: isoDate.optional(),
    product_id: ProductId.optional(),
    brand: z.string().max(60).regex(brandIdPattern, 'brand is a brand id such as brd_example').optional(),
    dimension: z.string().max(40).refine(noNul, noNulMessage).optional(),
    category: z.string().max(60).refine(noNul, noNulMessage).optional(),
    limit: pageLimit.optional(),
    cursor: cursor.optional(),
  })
  .refine((q) => !q.since || !q.until || q.since <= q.until, { message: 'since must not be after until', path: ['since'] });
export type SignalFeedQuery = z.infer<typeof SignalFeedQuery>;

export const listSignalChanges = defineCapability({
  name: 'list_signal_changes',
  method: 'GET', path: '/api/v1/signals', scope: 'signals:read', cost: 'signal', service: 'signals', tool: 'signals.list', readOnly: true,
  description: 'Approved Signals newest release first. Poll with since = the newest review.released_at you processed; follow next_cursor until null.',
  params: EmptyPath, query: SignalFeedQuery, body: null,
  answer: {},
  refusals: [],
  paged: true,
  examples: {
    answer: { signals: [signal], next_cursor: null },
  },
  parameters: {
    since: {
      description:
        'Release date, YYYY-MM-DD (UTC), exclusive: only Signals released after this date. Store the newest review.released_at you processed and pass it here on the next run; release dates never move. Default: no lower bound.',
      example: '2026-11-01',
    },
    until: { description: 'Release date, YYYY-MM-DD (UTC), inclusive: only Signals released on or before this date. Default: no upper bound.', example: '2026-11-30' },
    brand: { description: decisionTexts.brand_filter, example: 'brd_ironvale' },
    dimension: { description: decisionTexts.signal_dimensions, example: 'formula' },
    category: { description: decisionTexts.categories, example: SUPPORTED_CATEGORY },
  },
  mcp: {
    title: 'List released Signals (the change feed)',
    use: 'Ordered by release date, newest first, not by the date of the change.',
    arguments: {
      since: 'Release date YYYY-MM-DD. To poll, pass the newest review.released_at you have already processed.',
      until: 'Release date YYYY-MM-DD: the latest release date to include.',
      product_id: 'Only Signals about this canonical product id (prd_…).',
      brand: 'Only Signals about this brand id (brd_ followed by a lowercase slug).',
      dimension: `Only Signals of this dimension: ${signalDimensions.join(', ')} (open list).`,
      category: `Only Signals in this category: ${categories.join(', ')} (open list).`,
      limit: arg.pageLimit,
      cursor: arg.cursor,
    },
  },
});
