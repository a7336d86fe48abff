/**
 * Times as a curator reads them: UTC to the minute with the zone named, and
 * how far away a moment is. Pure, so each page renders the same for a given
 * clock.
 */

/** `2026-11-26 06:00 UTC`; '' for nothing. */
export function utcMinute(t: Date | string | null | undefined): string {
  if (t === null || t === undefined || t === '') return '';
  // A date alone stays a date; Postgres's text of a timestamptz (`2026-11-26 06:00:00+00`) is read as ISO.
  if (typeof t === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
  const d = t instanceof Date ? t : new Date(t.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));
  if (Number.isNaN(d.getTime())) return String(t);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `2026-11-26`: a date, when the time of day says nothing (health since, released on). */
export function utcDay(t: Date | string | null | undefined): string {
  if (t === null || t === undefined || t === '') return '';
  const d = t instanceof Date ? t : new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString().slice(0, 10);
}

/** A span in the largest units that matter: `6 d 23 h`, `5 h 10 min`, `12 min`, `less than a minute`. */
export function span(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 1) return 'less than a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}

/** `in 6 d 23 h` or `3 h ago`. */
export function fromNow(t: Date, now: Date): string {
  const ms = t.getTime() - now.getTime();
  return ms >= 0 ? `in ${span(ms)}` : `${span(ms)} ago`;
}

/** An address that may become a link: http(s) only, so no javascript: or data: address is ever clickable. */
export function externalUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}
