import { describe, expect, it } from 'vitest';
import { secondsToNextUtcMidnight, rateWindowKeys, budgetKey, scoreKeys } from '@evidence-record/access';
import { rateLimitHeaders, reportedWindow, type WindowState } from '../src/limits/rate-windows';

describe('rate-limit headers', () => {
  const w = (name: WindowState['name'], limit: number, used: number, resetMs: number): WindowState => ({ name, limit, used, remaining: Math.max(0, limit - used), resetMs });
  it('report the window closest to exhaustion, by name', () => {
    const windows = [w('minute', 30, 3, 50_000), w('hour', 500, 490, 3_000_000), w('day', 2000, 495, 80_000_000)];
    expect(rateLimitHeaders({ reported: reportedWindow(windows) })).toEqual({ 'RateLimit-Limit': '500', 'RateLimit-Remaining': '10', 'RateLimit-Reset': '3000', 'RateLimit-Policy': 'hour' });
  });
  it('among spent windows, the one that stays spent longest', () => {
    expect(reportedWindow([w('minute', 30, 30, 10_000), w('hour', 500, 500, 900_000), w('day', 2000, 600, 1)]).name).toBe('hour');
  });
});

describe('keys in Redis share a hash tag per key and per organisation', () => {
  it('so each script touches one slot', () => {
    for (const k of rateWindowKeys('p:', 'abc')) expect(k).toContain('{k:abc}');
    const s = scoreKeys('p:', 'org_1', 'abc', '2026-01-01');
    for (const k of [...Object.values(s), budgetKey('p:', 'org_1', '2026-01-01', 'product')]) expect(k).toMatch(/^p:\{o:org_1\}/);
  });
  it('Retry-After for the budget is the time to the next UTC midnight', () => {
    expect(secondsToNextUtcMidnight(Date.UTC(2026, 0, 1, 23, 59, 30))).toBe(30);
    expect(secondsToNextUtcMidnight(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe(86_400);
  });
});
