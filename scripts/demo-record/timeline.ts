/**
 * The demo Record's calendar. Monitoring starts in January 2026; the newest
 * observation is a few days before the day this Record was written
 * (2026-11-21), so `record_timestamp` is never in the future.
 */
/** The newest day any source was read. */
export const LATEST_READ = '2026-11-17';
/** Release day of the week (Tuesday). */
export const RELEASE_WEEKDAY = 2;
/** A change is released on the first release day at least this many days after its window ends. */
export const REVIEW_DAYS = 7;
