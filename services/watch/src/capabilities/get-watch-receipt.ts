import { Refusal, buildAnswer } from '@evidence-record/contract';
import { withSnapshot, type HandlerOf } from '@evidence-record/platform';
import { boundAccount } from '../account';
import { productIdentity, receiptItem, watchConfidence } from '../answers';
import type { WatchDeps } from '../deps';
import { coverageOf, currentPeriod, periodOf, utcDate } from '../monitoring';
import { checkCounts, monitoringSpans, releasedSignals, watchedProducts } from '../queries/receipts';

/**
 * The monitoring receipt of one calendar month for every watched product:
 * valid checks, attempts that returned nothing, unreadable attempts,
 * recoveries and confirmed Signals. Days the monitoring ledger does not reach
 * make the period partly covered; they are never reported as zero checks.
 */
export function getWatchReceipt(deps: WatchDeps): HandlerOf<'get_watch_receipt'> {
  return async ({ capability, query }, ctx) => {
    const now = deps.now();
    const today = utcDate(now);
    const requested: string = query.period ?? currentPeriod(now);
    if (requested > currentPeriod(now)) {
      throw new Refusal('invalid_request', {
        message: 'The period has not started yet.',
        details: { location: 'query', field: 'period', issues: [{ field: 'period', problem: `period is after the current month (${currentPeriod(now)})` }] },
      });
    }
    const period = periodOf(requested);

    return withSnapshot(deps.pool, async (client, record) => {
      const account = await boundAccount(client, ctx, capability);
      const products = await watchedProducts(client, account.accountId);
      const ids = products.map((p) => p.product_id);
      const spans = await monitoringSpans(client, ids);
      const counts = await checkCounts(client, ids, period.start, nextDay(period.end));
      const signals = await releasedSignals(client, ids, period.start, period.end);

      const items = products.map((p) =>
        receiptItem(p, coverageOf(spans.get(p.product_id) ?? [], period, today), counts.get(p.product_id), signals.get(p.product_id) ?? []),
      );
      const partly = items.filter((i) => i.coverage.state === 'partly_covered');
      const complete = today > period.end;

      const limitations: string[] = [];
      if (!complete) limitations.push(`The period ${period.period} is still running; the receipt covers it up to ${today} (UTC).`);
      for (const i of partly.filter((p) => p.checks === null)) {
        limitations.push(`The monitoring ledger does not reach ${period.period} for ${i.name}: its checks for the period are unknown, not zero.`);
      }
      for (const i of partly.filter((p) => p.checks !== null && p.coverage.covered_days < Math.min(p.coverage.days_in_period, daysElapsed(period.start, today)))) {
        limitations.push(`The monitoring ledger reaches ${i.coverage.covered_days} of ${i.coverage.days_in_period} days of ${period.period} for ${i.name}; checks are counted on those days only.`);
      }

      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: partly.length > 0 ? 'partial' : 'supported',
        summary:
          items.length === 0
            ? `Monitoring receipt for ${period.period}: the watchlist is empty.`
            : `Monitoring receipt for ${period.period}: checks and confirmed Signals for ${items.length} watched product(s)` +
              (partly.length > 0 ? `, ${partly.length} of them partly covered.` : ', every one fully covered.'),
        products: products.map(productIdentity),
        watch: { receipt: { period: period.period, period_start: period.start, period_end: period.end, period_complete: complete, items } },
        coverage: {
          period: period.period,
          products_total: items.length,
          products_covered: items.length - partly.length,
          products_partly_covered: partly.length,
        },
        limitations,
        confidence: watchConfidence,
        record,
      });
      return { answer, entities: ids };
    });
  };
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function daysElapsed(start: string, today: string): number {
  return Math.floor((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}
