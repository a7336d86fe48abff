/** A ledger period is a UTC calendar month, YYYY-MM; its edition id is ed_YYYY_MM. */
export function editionIdOf(period: string): string {
  return `ed_${period.replace('-', '_')}`;
}

export function periodStart(period: string): string {
  return `${period}-01`;
}

export function periodEnd(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** An edition's data reaches the end of its period, or today while the period is still running. */
export function dataAsOf(period: string, today: string): string {
  const end = periodEnd(period);
  return end < today ? end : today;
}
