import { z } from 'zod';
import { decisionTexts } from '../decision-texts';
import { periodPattern } from '../decisions';
import { count, date, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyPath } from '../requests';
import { defineCapability } from './define';

const { product, signal } = example;

export const WatchReceiptQuery = z.strictObject({
  period: z.string().max(7).regex(periodPattern, 'period is a calendar month, YYYY-MM').optional(),
});
export type WatchReceiptQuery = z.infer<typeof WatchReceiptQuery>;

export const WatchReceiptItem = open({
  product_id: z.string(),
  name: z.string(),
  brand_name: z.string(),
  coverage: open({
    state: z.string().describe('covered or partly_covered: a period the monitoring ledger does not reach is partly covered, never zero'),
    covered_days: count,
    days_in_period: z.number().int(),
    period_complete: z.boolean(),
  }),
  checks: open({ valid: count, empty: count, unreadable: count, recoveries: count })
    .nullable()
    .describe('null when the monitoring ledger reaches no day of the period: unknown, never zero'),
  confirmed_signals: open({ count, signal_ids: z.array(z.string()) }),
}).meta({ id: 'WatchReceiptItem' });

export const WatchReceipt = open({
  receipt: open({ period: z.string(), period_start: date, period_end: date, period_complete: z.boolean(), items: z.array(WatchReceiptItem) }),
})
  .describe('get_watch_receipt')
  .meta({ id: 'WatchReceipt' });

export const WatchReceiptCoverage = open({
  period: z.string().describe('YYYY-MM'),
  products_total: count,
  products_covered: count,
  products_partly_covered: count,
})
  .describe('get_watch_receipt: how many watched products the monitoring ledger reaches for the period')
  .meta({ id: 'WatchReceiptCoverage' });

export const getWatchReceipt = defineCapability({
  name: 'get_watch_receipt',
  method: 'GET', path: '/api/v1/watch/receipt', scope: 'watch:manage', cost: 'product', service: 'watch', tool: 'watchlist.receipt', readOnly: true,
  description: 'Monitoring receipt for a month (YYYY-MM, default current): valid checks, empty attempts, recoveries and confirmed Signals per watched product.',
  params: EmptyPath, query: WatchReceiptQuery, body: null,
  answer: { watch: WatchReceipt, coverage: WatchReceiptCoverage },
  refusals: [],
  paged: false,
  examples: {
    answer: {
      products: [product],
      watch: {
        receipt: {
          period: '2026-10',
          period_start: '2026-10-01',
          period_end: '2026-10-31',
          period_complete: true,
          items: [
            {
              product_id: product.product_id,
              name: product.name,
              brand_name: product.brand_name,
              coverage: { state: 'covered', covered_days: 31, days_in_period: 31, period_complete: true },
              checks: { valid: 4, empty: 0, unreadable: 0, recoveries: 0 },
              confirmed_signals: { count: 1, signal_ids: [signal.signal_id] },
            },
          ],
        },
      },
      coverage: { period: '2026-10', products_total: 1, products_covered: 1, products_partly_covered: 0 },
    },
  },
  parameters: {
    period: { description: decisionTexts.watch_receipt_period, example: '2026-10', format: 'YYYY-MM' },
  },
  mcp: {
    title: 'Get the monitoring receipt',
    use: 'A period the monitoring ledger does not reach is reported as partly covered, not as zero.',
    arguments: { period: 'Calendar month YYYY-MM; omit it for the current month.' },
  },
});
