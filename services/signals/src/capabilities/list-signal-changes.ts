import { DEFAULT_PAGE_SIZE, buildAnswer } from '@evidence-record/contract';
import { withSnapshot, type HandlerOf } from '@evidence-record/platform';
import { budgetCutLimitation, pageSize } from '../budget-cut';
import type { SignalsDeps } from '../deps';
import { issueCursor, readCursor } from '../cursor';
import { correctionsOf, presentSignal } from '@evidence-record/record-store';
import { releasedSignalsPage, type FeedFilters } from '../queries/signals';

/**
 * list_signal_changes: released Signals, newest release first (ties by
 * Signal id, descending). `since` is exclusive and `until` inclusive, both
 * release dates. Releases come in dated batches, one per date and each date
 * after the last, so a poller that passes the newest `review.released_at` it
 * processed as `since` receives every Signal exactly once.
 */
export function listSignalChanges(deps: SignalsDeps): HandlerOf<'list_signal_changes'> {
  return async ({ capability, query }, ctx) => {
    const filters: FeedFilters = {
      since: query.since,
      until: query.until,
      product_id: query.product_id,
      brand: query.brand,
      dimension: query.dimension,
      category: query.category,
    };
    const cursorContext = { secret: deps.cursorSecret, kind: 'feed' as const, filters: { ...filters } };
    const below = query.cursor ? readCursor(cursorContext, query.cursor) : null;
    const asked = query.limit ?? DEFAULT_PAGE_SIZE;
    const limit = pageSize(asked, ctx.pageCap);

    return withSnapshot(deps.pool, async (client, record) => {
      const rows = await releasedSignalsPage(client, filters, below ? { released_on: below.r, signal_id: below.s } : null, limit);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const nextCursor = rows.length > limit && last ? issueCursor(cursorContext, { released_on: last.released_on, signal_id: last.signal_id }) : null;
      // The page stops short because the organisation's daily Signal budget holds no more today.
      const cutByBudget = limit < asked && nextCursor !== null;
      const corrections = await correctionsOf(client, page.map((r) => r.signal_id));
      const signals = page.map((r) => presentSignal(r, corrections.get(r.signal_id) ?? [], deps.publicBaseUrl));

      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: cutByBudget ? 'partial' : 'supported',
        summary:
          cutByBudget
            ? `${signals.length} of up to ${asked} released Signals, newest release first: the daily Signal budget holds no more today; follow next_cursor after it resets.`
            : signals.length === 0
            ? below
              ? 'No further released Signals match these filters: this is the last page.'
              : 'No released Signals match these filters in the Record.'
            : `${signals.length} released Signal${signals.length === 1 ? '' : 's'}, newest release first${nextCursor ? '; follow next_cursor for more' : ''}.`,
        signals,
        next_cursor: nextCursor,
        limitations: [
          ...(cutByBudget ? [budgetCutLimitation(signals.length, asked)] : []),
          'Ordered by release date, not by the date of the change: a late-released Signal appears at the top.',
          'since is exclusive and until inclusive; store the newest review.released_at you processed and pass it as since next time.',
          'Corrections and withdrawals keep a Signal\'s release date and address and never re-release it.',
        ],
        confidence: { level: 'high', basis: 'Every Signal listed was confirmed by a human reviewer between two comparable states and released in a dated batch.' },
        record,
      });
      return { answer, entities: signals.map((s) => s.signal_id) };
    });
  };
}
