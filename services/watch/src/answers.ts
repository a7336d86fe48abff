import { z } from 'zod';
import { ContractViolation, WatchItem as ContractWatchItem } from '@evidence-record/contract';
import { productIdentity } from '@evidence-record/record-store';
import { CHECK_INTERVAL_HOURS, monitoringView, type Coverage } from './monitoring';
import type { CheckCounts } from './queries/receipts';
import type { ProductRow, WatchItemRow } from './queries/watches';

/**
 * What a watch answer may show. The schemas are strict, so a source URL,
 * source id, capture id, check id or candidate detail can never leave in a
 * watch object by accident: building an item with one fails.
 */
export const WatchItem = z.strictObject({
  // The contract's fields (answer objects are open there, for clients); here no other field may be added.
  ...ContractWatchItem.shape,
  monitoring_state: z.enum(['monitored', 'not_monitored', 'source_unreadable']),
});
export type WatchItem = z.infer<typeof WatchItem>;

export const ReceiptItem = z.strictObject({
  product_id: z.string(),
  name: z.string(),
  brand_name: z.string(),
  coverage: z.strictObject({
    state: z.enum(['covered', 'partly_covered']),
    covered_days: z.number().int(),
    days_in_period: z.number().int(),
    period_complete: z.boolean(),
  }),
  /** null when the monitoring ledger reaches no day of the period: unknown, never zero. */
  checks: z
    .strictObject({ valid: z.number().int(), empty: z.number().int(), unreadable: z.number().int(), recoveries: z.number().int() })
    .nullable(),
  confirmed_signals: z.strictObject({ count: z.number().int(), signal_ids: z.array(z.string()) }),
});
export type ReceiptItem = z.infer<typeof ReceiptItem>;

function strict<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ContractViolation(parsed.error.issues);
  return parsed.data;
}

export { productIdentity };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function watchItem(row: WatchItemRow, now: Date): WatchItem {
  const view = monitoringView(
    {
      retired: row.retired_on !== null,
      monitoredToday: row.monitored_today,
      spanStartedOn: row.span_started_on,
      sourcesUnreadable: row.sources_unreadable,
      lastCheckedAt: row.last_checked_at,
      scheduledCheckDue: row.next_check_due,
    },
    now,
  );
  return strict(WatchItem, {
    product_id: row.product_id,
    name: row.name,
    brand_name: row.brand_name,
    watched_since: row.watched_since.toISOString(),
    ...view,
    unreadable_since: view.currently_unreadable ? iso(row.unreadable_since) : null,
    last_read_at: iso(row.last_read_at),
    last_checked_at: iso(row.last_checked_at),
    check_interval_hours: CHECK_INTERVAL_HOURS,
  });
}

export function receiptItem(row: ProductRow, coverage: Coverage, counts: CheckCounts | undefined, signalIds: string[]): ReceiptItem {
  return strict(ReceiptItem, {
    product_id: row.product_id,
    name: row.name,
    brand_name: row.brand_name,
    coverage,
    checks: coverage.covered_days === 0 ? null : (counts ?? { valid: 0, empty: 0, unreadable: 0, recoveries: 0 }),
    confirmed_signals: { count: signalIds.length, signal_ids: signalIds },
  });
}

export const watchConfidence = {
  level: 'high' as const,
  basis: "Read from the account's watchlist and the monitoring ledger in one committed state of the Record.",
};

export const NO_SUBSCRIPTION = 'Watching a product starts no subscription and changes no plan; alerts about released Signals arrive by email.';
