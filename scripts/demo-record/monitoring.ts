import { addDays } from './dates';
import { stableInt } from './ids';

/**
 * How the demo Record's monitoring behaves. Manufacturer pages of TRACKED
 * products are read weekly through each label state; between two states the
 * one check in the middle of the observation window returned nothing or
 * could not be read (that is why the window is two weeks wide), and the
 * first read of the new state is marked as a recovery. Retailer listings are
 * read weekly on the retailer's own weekday; now and then a read comes back
 * empty and the next one recovers.
 */

/** First weekly read of each retailer: Shelfwise on Mondays, Parcelgrain on Thursdays, Liftcart on Saturdays. */
export const retailerFirstRead: Record<string, string> = {
  shelfwise: '2026-01-05',
  parcelgrain: '2026-01-08',
  liftcart: '2026-01-10',
};

/** Roughly one retailer read in 30 comes back empty. */
export function retailerReadIsEmpty(sourceKey: string, date: string): boolean {
  return stableInt(`${sourceKey}:${date}`, 30) === 0;
}

/** The failed check inside an observation window: empty page or unreadable capture, alternating by product. */
export function gapOutcome(productSlug: string, date: string): 'empty' | 'unreadable' {
  return stableInt(`${productSlug}:${date}:gap`, 2) === 0 ? 'empty' : 'unreadable';
}

/** The manufacturer source that has been unreadable since its last good read; checks keep failing. */
export const unreadableSince = { product: 'oxenfjord-pre-workout', lastGoodRead: '2026-11-02' };

/** Time of day of a check, spread deterministically so checks do not all share one instant. */
export function checkTime(kind: 'manufacturer' | 'retailer', key: string, date: string): string {
  const base = kind === 'manufacturer' ? 6 * 60 : 9 * 60;
  const minutes = base + stableInt(`${key}:${date}:t`, 120);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${date}T${hh}:${mm}:00.000Z`;
}

export function weeklyFrom(start: string, until: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= until; d = addDays(d, 7)) out.push(d);
  return out;
}
