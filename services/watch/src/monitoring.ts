/**
 * Monitoring vocabulary of a watch item and a receipt, as pure functions so
 * the rules can be read (and tested) without a database.
 *
 * Schedule: a monitored product's sources are read once a week (the cadence
 * of the monitoring ledger), so the next check is due seven days after the
 * last check (docs/decisions/0502-watch-items-and-receipts.md).
 */
export const CHECK_INTERVAL_HOURS = 7 * 24;

export type MonitoringState = 'monitored' | 'not_monitored' | 'source_unreadable';

export interface MonitoringFacts {
  retired: boolean;
  /** A monitoring span reaches today. */
  monitoredToday: boolean;
  /** Start of the span that reaches today. */
  spanStartedOn: string | null;
  sourcesUnreadable: number;
  lastCheckedAt: Date | null;
  /** The earliest next check the source monitor has scheduled for the product's active sources (null: none scheduled). */
  scheduledCheckDue?: Date | null;
}

export interface MonitoringView {
  monitoring_state: MonitoringState;
  /** null when the product is not monitored: its source health is not known today. */
  currently_unreadable: boolean | null;
  next_check_due: string | null;
  check_overdue: boolean | null;
}

export function monitoringView(facts: MonitoringFacts, now: Date): MonitoringView {
  if (facts.retired || !facts.monitoredToday) {
    return { monitoring_state: 'not_monitored', currently_unreadable: null, next_check_due: null, check_overdue: null };
  }
  const unreadable = facts.sourcesUnreadable > 0;
  // The monitor's own schedule when it has one; otherwise the weekly cadence from the last check.
  const due = facts.scheduledCheckDue ?? nextCheckDue(facts.lastCheckedAt, facts.spanStartedOn);
  return {
    monitoring_state: unreadable ? 'source_unreadable' : 'monitored',
    currently_unreadable: unreadable,
    next_check_due: due.toISOString(),
    check_overdue: due.getTime() < now.getTime(),
  };
}

/** Last check + the interval; a product never checked yet is due from the start of its monitoring span. */
export function nextCheckDue(lastCheckedAt: Date | null, spanStartedOn: string | null): Date {
  if (lastCheckedAt) return new Date(lastCheckedAt.getTime() + CHECK_INTERVAL_HOURS * 3_600_000);
  return new Date(`${spanStartedOn ?? '1970-01-01'}T00:00:00.000Z`);
}

// ---------------------------------------------------------------------------
// Receipt periods and coverage
// ---------------------------------------------------------------------------

export interface Period {
  /** YYYY-MM */
  period: string;
  /** First day, YYYY-MM-DD */
  start: string;
  /** Last day, YYYY-MM-DD */
  end: string;
  daysInPeriod: number;
}

export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function currentPeriod(now: Date): string {
  return now.toISOString().slice(0, 7);
}

export function periodOf(period: string): Period {
  const [y, m] = period.split('-').map(Number) as [number, number];
  const daysInPeriod = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { period, start: `${period}-01`, end: `${period}-${String(daysInPeriod).padStart(2, '0')}`, daysInPeriod };
}

export interface Span {
  started_on: string;
  ended_on: string | null;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/**
 * Days of the period the monitoring ledger reaches: the union of the
 * product's spans (an open span reaches today), cut to the period and to
 * today, so a day that has not happened yet is never counted as covered.
 */
export function coveredDays(spans: Span[], period: Period, today: string): number {
  const from = dayNumber(period.start);
  const to = Math.min(dayNumber(period.end), dayNumber(today));
  if (to < from) return 0;
  const covered = new Set<number>();
  for (const s of spans) {
    const start = Math.max(from, dayNumber(s.started_on));
    const end = Math.min(to, dayNumber(s.ended_on ?? today));
    for (let d = start; d <= end; d++) covered.add(d);
  }
  return covered.size;
}

export type CoverageState = 'covered' | 'partly_covered';

export interface Coverage {
  state: CoverageState;
  covered_days: number;
  days_in_period: number;
  /** false while the period is still running (the current month). */
  period_complete: boolean;
}

/**
 * A period is covered only when it is over and the ledger reaches every one
 * of its days. Anything less is partly covered, including a period the ledger
 * does not reach at all: that is an absence of monitoring, never "zero".
 */
export function coverageOf(spans: Span[], period: Period, today: string): Coverage {
  const days = coveredDays(spans, period, today);
  const complete = today > period.end;
  return {
    state: complete && days === period.daysInPeriod ? 'covered' : 'partly_covered',
    covered_days: days,
    days_in_period: period.daysInPeriod,
    period_complete: complete,
  };
}
