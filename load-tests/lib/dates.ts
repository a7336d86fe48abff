/** Dates and waiting on the UTC clock. */
import { sleep } from 'k6';

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function daysAgo(n: number): string {
  return isoDate(new Date(Date.now() - n * 86400000));
}

/** Current UTC month as YYYY-MM (watch receipt period). */
export function currentPeriod(): string {
  return new Date().toISOString().slice(0, 7);
}

export function secondsUntilUtcMidnight(now: number = Date.now()): number {
  const d = new Date(now);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Math.ceil((next - now) / 1000);
}

/** Sleep until `offsetSeconds` past the next UTC minute boundary. */
export function sleepUntilNextMinute(offsetSeconds: number): void {
  const now = Date.now();
  const next = (Math.floor(now / 60000) + 1) * 60000 + offsetSeconds * 1000;
  sleep((next - now) / 1000);
}
