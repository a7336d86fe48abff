/** Calendar dates as 'YYYY-MM-DD' strings in UTC: the Record's release dates have no time of day. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return utcDate(d);
}

/** Number of calendar days from `from` to `to`, counting both ends. */
export function daysInclusive(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && utcDate(new Date(`${value}T00:00:00Z`)) === value;
}
