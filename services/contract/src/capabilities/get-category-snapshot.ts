import { z } from 'zod';
import { decisionTexts } from '../decision-texts';
import { DEFAULT_SNAPSHOT_WINDOW_DAYS, MAX_SNAPSHOT_WINDOW_DAYS } from '../decisions';
import { Proportion, count, date, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { cursor, isoDate, pageLimit } from '../request-parts';
import { EmptyPath } from '../requests';
import { defineCapability } from './define';
import * as arg from './mcp-arguments';

const { signal, share: exampleShare } = example;

export const CategorySnapshotQuery = z
  .strictObject({
    from: isoDate.optional(),
    to: isoDate.optional(),
    limit: pageLimit.optional(),
    cursor: cursor.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type CategorySnapshotQuery = z.infer<typeof CategorySnapshotQuery>;

const share = (extra: z.core.$ZodLooseShape) => open({ ...extra, ...Proportion.shape });

export const CategorySnapshotCoverage = open({
  category: z.string(),
  window: open({ from: date, to: date, days: z.number().int().min(1), max_days: z.number().int() }).describe('release dates, both ends inclusive'),
  signals: open({
    released_in_window: count,
    by_dimension: z.array(share({ dimension: z.string() })),
    by_status: z.array(share({ status: z.string().describe('released, corrected or withdrawn') })),
  }),
  products: open({
    covered: count,
    by_depth_class: z.array(share({ depth_class: z.string() })),
    with_signals_in_window: Proportion,
  }),
  sources: open({
    total: count,
    unreadable: Proportion,
    by_kind: z.array(open({ kind: z.string(), total: count, unreadable: Proportion })),
  }),
})
  .describe('get_category_snapshot: Signals released in the window and coverage state; every proportion names its cohort')
  .meta({ id: 'CategorySnapshotCoverage' });

export const getCategorySnapshot = defineCapability({
  name: 'get_category_snapshot',
  method: 'GET', path: '/api/v1/category/snapshot', scope: 'category:read', cost: 'signal', service: 'signals', tool: 'signals.snapshot', readOnly: true,
  description: 'A summary of approved Signals and coverage for one capped date window, paged with cursor; every proportion names its denominator.',
  params: EmptyPath, query: CategorySnapshotQuery, body: null,
  answer: { coverage: CategorySnapshotCoverage },
  refusals: [],
  paged: true,
  examples: {
    answer: {
      signals: [signal],
      next_cursor: null,
      coverage: {
        category: 'pre-workout',
        window: { from: '2026-10-26', to: '2026-11-24', days: 30, max_days: MAX_SNAPSHOT_WINDOW_DAYS },
        signals: {
          released_in_window: 1,
          by_dimension: [{ dimension: 'formula', ...exampleShare(1, 1, 'Signals released in the window') }],
          by_status: [{ status: 'released', ...exampleShare(1, 1, 'Signals released in the window') }],
        },
        products: {
          covered: 40,
          by_depth_class: [{ depth_class: 'TRACKED', ...exampleShare(30, 40, 'products in the covered set') }],
          with_signals_in_window: exampleShare(1, 40, 'products in the covered set'),
        },
        sources: { total: 95, unreadable: exampleShare(1, 95, 'sources'), by_kind: [{ kind: 'manufacturer', total: 40, unreadable: exampleShare(1, 40, 'manufacturer sources') }] },
      },
    },
  },
  parameters: {
    from: { description: `First release date of the window, YYYY-MM-DD (UTC), inclusive. ${decisionTexts.snapshot_window}`, example: '2026-10-01' },
    to: { description: 'Last release date of the window, YYYY-MM-DD (UTC), inclusive. Default: today, or from plus the maximum window.', example: '2026-10-31' },
  },
  mcp: {
    title: 'Get a category snapshot',
    use: 'Page with next_cursor until it is null.',
    arguments: {
      from: `First release date of the window, YYYY-MM-DD. Without from/to: the last ${DEFAULT_SNAPSHOT_WINDOW_DAYS} days.`,
      to: `Last release date of the window, YYYY-MM-DD. A window spans at most ${MAX_SNAPSHOT_WINDOW_DAYS} days.`,
      limit: arg.pageLimit,
      cursor: arg.cursor,
    },
  },
});
