import { CURSOR_TTL_SECONDS } from '@evidence-record/contract';

/**
 * Pages cut short by the daily budget (docs/decisions/0312-partial-pages-within-the-budget.md).
 * The gateway, which alone knows and enforces the organisation's budget,
 * asks for a page again with `x-er-page-cap` when the full page would cross
 * it; the service answers that many Signals, `partial`, with next_cursor at
 * the first one not given. The gateway still settles what this page names.
 */
export function pageSize(asked: number, cap: number | null): number {
  return cap !== null && cap < asked ? cap : asked;
}

export function budgetCutLimitation(given: number, asked: number): string {
  return (
    `This page holds ${given} of the up to ${asked} Signals asked for: the organization's daily Signal budget holds no more today. ` +
    `next_cursor points at the first Signal not given; follow it after the budget resets at 00:00 UTC ` +
    `(a cursor stays valid ${Math.round(CURSOR_TTL_SECONDS / 3600)} hours).`
  );
}
