import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { coverageOf, coveredDays, monitoringView, nextCheckDue, periodOf } from '../src/monitoring';
import { alertIdFor } from '../src/fanout/alert-id';

describe('periods and coverage', () => {
  it('knows the length of each month, leap years included', () => {
    expect(periodOf('2026-02')).toEqual({ period: '2026-02', start: '2026-02-01', end: '2026-02-28', daysInPeriod: 28 });
    expect(periodOf('2028-02').daysInPeriod).toBe(29);
    expect(periodOf('2026-12')).toMatchObject({ end: '2026-12-31', daysInPeriod: 31 });
  });

  it('counts overlapping spans once and never counts days after today', () => {
    const feb = periodOf('2026-02');
    expect(coveredDays([{ started_on: '2026-01-20', ended_on: '2026-02-05' }, { started_on: '2026-02-03', ended_on: '2026-02-10' }], feb, '2026-06-01')).toBe(10);
    expect(coveredDays([{ started_on: '2026-02-10', ended_on: null }], feb, '2026-02-15')).toBe(6);
    expect(coveredDays([{ started_on: '2026-03-01', ended_on: null }], feb, '2026-06-01')).toBe(0);
  });

  it('calls a period covered only when it is over and reached on every day', () => {
    const jan = periodOf('2026-01');
    expect(coverageOf([{ started_on: '2025-12-01', ended_on: null }], jan, '2026-02-01').state).toBe('covered');
    expect(coverageOf([{ started_on: '2025-12-01', ended_on: null }], jan, '2026-01-31')).toMatchObject({ state: 'partly_covered', period_complete: false, covered_days: 31 });
    expect(coverageOf([], jan, '2026-05-01')).toMatchObject({ state: 'partly_covered', covered_days: 0 });
  });

  it('never reports more covered days than the period has', () => {
    const day = fc.integer({ min: 0, max: 800 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.array(fc.tuple(day, fc.option(day)), { maxLength: 5 }), day, fc.integer({ min: 0, max: 23 }), (raw, today, m) => {
        const spans = raw.map(([a, b]) => ({ started_on: b && b < a ? b : a, ended_on: b && b < a ? a : b }));
        const period = periodOf(`${2025 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`);
        const c = coverageOf(spans, period, today);
        return c.covered_days >= 0 && c.covered_days <= c.days_in_period && (c.state === 'partly_covered' || c.covered_days === c.days_in_period);
      }),
    );
  });
});

describe('monitoring state of a watch item', () => {
  const now = new Date('2026-03-15T12:00:00Z');
  it('is due a week after the last check, or from the span start when never checked', () => {
    expect(nextCheckDue(new Date('2026-03-15T06:00:00Z'), '2026-01-01').toISOString()).toBe('2026-03-22T06:00:00.000Z');
    expect(nextCheckDue(null, '2026-03-10').toISOString()).toBe('2026-03-10T00:00:00.000Z');
  });
  it('separates monitored, source unreadable and not monitored', () => {
    const base = { retired: false, monitoredToday: true, spanStartedOn: '2026-01-01', sourcesUnreadable: 0, lastCheckedAt: new Date('2026-03-15T06:00:00Z') };
    expect(monitoringView(base, now)).toEqual({ monitoring_state: 'monitored', currently_unreadable: false, next_check_due: '2026-03-22T06:00:00.000Z', check_overdue: false });
    expect(monitoringView({ ...base, sourcesUnreadable: 1 }, now).monitoring_state).toBe('source_unreadable');
    expect(monitoringView({ ...base, monitoredToday: false }, now)).toEqual({ monitoring_state: 'not_monitored', currently_unreadable: null, next_check_due: null, check_overdue: null });
    expect(monitoringView({ ...base, retired: true }, now).monitoring_state).toBe('not_monitored');
    expect(monitoringView({ ...base, lastCheckedAt: new Date('2026-03-08T06:00:00Z') }, now).check_overdue).toBe(true);
    expect(monitoringView({ ...base, lastCheckedAt: new Date('2026-03-08T18:00:00Z') }, now).check_overdue).toBe(false);
  });
});

describe('alert ids', () => {
  it('are stable per Signal and account, and differ otherwise', () => {
    expect(alertIdFor('sig_aaaaaaaaaaaa', 'acc_1')).toBe(alertIdFor('sig_aaaaaaaaaaaa', 'acc_1'));
    expect(alertIdFor('sig_aaaaaaaaaaaa', 'acc_1')).not.toBe(alertIdFor('sig_aaaaaaaaaaaa', 'acc_2'));
    expect(alertIdFor('sig_aaaaaaaaaaaa', 'acc_1')).toMatch(/^alr_[0-9a-f]{24}$/);
  });
});
