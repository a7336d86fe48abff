import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SNAPSHOT_WINDOW_DAYS,
  MAX_SNAPSHOT_WINDOW_DAYS,
  Refusal,
  SUPPORTED_CATEGORY,
  buildAnswer,
  signalDimensions,
} from '@evidence-record/contract';
import { withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { SignalsDeps } from '../deps';
import { addDays, daysInclusive, utcDate } from '@evidence-record/contract';
import { issueCursor, readCursor } from '../cursor';
import { budgetCutLimitation, pageSize } from '../budget-cut';
import { correctionsOf, presentSignal } from '@evidence-record/record-store';
import { releasedSignalsPage } from '../queries/signals';
import { coverageCounts, windowCounts } from '../queries/snapshot';
import { proportion } from '../proportion';

/** Year 0001: Postgres has no year 0000, and the request schemas refuse it. */
const FIRST_CALENDAR_DATE = '0001-01-01';

const SIGNAL_COHORT = 'released Signals in window';
const PRODUCT_COHORT = 'covered products (not retired)';
const SOURCE_COHORT = 'sources of covered products';

/**
 * The release-date window of a snapshot: `to` defaults to today (UTC) and
 * `from` to DEFAULT_SNAPSHOT_WINDOW_DAYS days before it, both inclusive. A
 * window longer than MAX_SNAPSHOT_WINDOW_DAYS is refused, not truncated.
 */
export function resolveWindow(query: { from?: string; to?: string }, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  // A default window reaching back past the first calendar day the Record can hold starts on it.
  const defaultFrom = addDays(to, -(DEFAULT_SNAPSHOT_WINDOW_DAYS - 1));
  const from = query.from ?? (defaultFrom < FIRST_CALENDAR_DATE ? FIRST_CALENDAR_DATE : defaultFrom);
  const problem = (p: string) =>
    new Refusal('invalid_request', { details: { location: 'query', field: query.from ? 'from' : 'to', issues: [{ field: query.from ? 'from' : 'to', problem: p }] } });
  if (from > to) throw problem(`from (${from}) is after to (${to})`);
  if (daysInclusive(from, to) > MAX_SNAPSHOT_WINDOW_DAYS) {
    throw problem(`the window ${from}..${to} is ${daysInclusive(from, to)} days; the maximum is ${MAX_SNAPSHOT_WINDOW_DAYS} days`);
  }
  return { from, to };
}

/**
 * get_category_snapshot: for one capped release-date window, a summary of
 * released Signals and the coverage state of the category, with a capped
 * page of the Signals themselves.
 */
export function getCategorySnapshot(deps: SignalsDeps): HandlerOf<'get_category_snapshot'> {
  return async ({ capability, query }, ctx) => {
    const cursorContext = { secret: deps.cursorSecret, kind: 'snapshot' as const, filters: { from: query.from, to: query.to } };
    const cursor = query.cursor ? readCursor(cursorContext, query.cursor) : null;
    // Later pages read the window the first page resolved, even if the default window has moved since.
    const window = cursor?.w ? { from: cursor.w[0], to: cursor.w[1] } : resolveWindow(query, utcDate(deps.clock()));
    const asked = query.limit ?? DEFAULT_PAGE_SIZE;
    const limit = pageSize(asked, ctx.pageCap);

    return withSnapshot(deps.pool, async (client, record) => {
      // `from` is inclusive in the query itself: the day before 0001-01-01 is a date Postgres cannot hold.
      const filters = { from: window.from, until: window.to, category: SUPPORTED_CATEGORY };
      const rows = await releasedSignalsPage(client, filters, cursor ? { released_on: cursor.r, signal_id: cursor.s } : null, limit);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const nextCursor =
        rows.length > limit && last
          ? issueCursor(cursorContext, { released_on: last.released_on, signal_id: last.signal_id }, [window.from, window.to])
          : null;
      const cutByBudget = limit < asked && nextCursor !== null;
      const corrections = await correctionsOf(client, page.map((r) => r.signal_id));
      const signals = page.map((r) => presentSignal(r, corrections.get(r.signal_id) ?? [], deps.publicBaseUrl));

      const counts = await windowCounts(client, window.from, window.to, SUPPORTED_CATEGORY);
      const coverage = await coverageCounts(client, SUPPORTED_CATEGORY);
      const released = counts.by_dimension.reduce((n, d) => n + d.count, 0);
      const covered = coverage.products_by_depth.reduce((n, d) => n + d.count, 0);
      const sourcesTotal = coverage.sources_by_kind.reduce((n, s) => n + s.total, 0);
      const unreadable = coverage.sources_by_kind.reduce((n, s) => n + s.unreadable, 0);
      const dimensions = [...new Set([...signalDimensions, ...counts.by_dimension.map((d) => d.dimension)])];

      const limitations = [
        ...(cutByBudget ? [budgetCutLimitation(signals.length, asked)] : []),
        'Counts are of released Signals by release date within the window, not by the date the change happened.',
        'Coverage counts describe the covered set as of this record version, not as of the window.',
        ...(unreadable > 0
          ? [`${unreadable} of ${sourcesTotal} ${SOURCE_COHORT} were unreadable at their last check; changes on those products may not be captured yet.`]
          : []),
      ];
      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        status: cutByBudget ? 'partial' : 'supported',
        summary: `A snapshot of ${released} released Signal${released === 1 ? '' : 's'} in the ${SUPPORTED_CATEGORY} category from ${window.from} to ${window.to}, with coverage state.`,
        signals,
        next_cursor: nextCursor,
        coverage: {
          category: SUPPORTED_CATEGORY,
          window: { from: window.from, to: window.to, days: daysInclusive(window.from, window.to), max_days: MAX_SNAPSHOT_WINDOW_DAYS },
          signals: {
            released_in_window: released,
            by_dimension: dimensions.map((dimension) => ({
              dimension,
              ...proportion(counts.by_dimension.find((d) => d.dimension === dimension)?.count ?? 0, released, SIGNAL_COHORT),
            })),
            by_status: (['released', 'corrected', 'withdrawn'] as const).map((status) => ({
              status,
              ...proportion(counts.by_status.find((s) => s.status === status)?.count ?? 0, released, SIGNAL_COHORT),
            })),
          },
          products: {
            covered,
            by_depth_class: coverage.products_by_depth.map((d) => ({ depth_class: d.depth_class, ...proportion(d.count, covered, PRODUCT_COHORT) })),
            with_signals_in_window: proportion(counts.products_with_signals, covered, PRODUCT_COHORT),
          },
          sources: {
            total: sourcesTotal,
            unreadable: proportion(unreadable, sourcesTotal, SOURCE_COHORT),
            by_kind: coverage.sources_by_kind.map((s) => ({ kind: s.kind, total: s.total, unreadable: proportion(s.unreadable, s.total, `${s.kind} ${SOURCE_COHORT}`) })),
          },
        },
        limitations,
        confidence: { level: 'high', basis: 'Counts are computed over reviewed, released Signals and the covered set in one Record version.' },
        record,
      });
      return { answer, entities: signals.map((s) => s.signal_id) };
    });
  };
}
