/** Calendar arithmetic on 'YYYY-MM-DD' strings, in UTC, so no local time zone leaks in. */

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function lastDayOfMonth(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** Dates from `from` to `to` inclusive, every `step` days. */
export function everyDays(from: string, to: string, step: number): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, step)) out.push(d);
  return out;
}

export const at = (date: string, time = '12:00:00') => `${date}T${time}.000Z`;
