import type { RetailerSlug } from './brands';

/**
 * Retailer listings and their list-price schedules. A listing is observed
 * weekly while its product is monitored (once, on the capture day, for a
 * CAPTURED product). Only basis 'list' observations can make a price change;
 * promotional and subscription prices are observed beside them and must never
 * be reported as one.
 */
export interface ListingSpec {
  product: string;
  retailer: RetailerSlug;
  /** List price in cents from each date on; the first entry applies from the first observation. */
  list: [from: string, cents: number][];
}

/** Listings with a real list-price change, or that the promotions below need. */
export const listings: ListingSpec[] = [
  { product: 'ironvale-surge', retailer: 'shelfwise', list: [['2026-01-01', 4499], ['2026-07-08', 4999]] },
  { product: 'ironvale-surge', retailer: 'parcelgrain', list: [['2026-01-01', 4699]] },
  { product: 'quillmoor-original', retailer: 'parcelgrain', list: [['2026-01-01', 3999], ['2026-04-20', 4299]] },
  { product: 'quillmoor-original', retailer: 'liftcart', list: [['2026-01-01', 4199]] },
  { product: 'tallowfen-kindle', retailer: 'liftcart', list: [['2026-01-01', 4999], ['2026-09-10', 4699]] },
  { product: 'tallowfen-kindle', retailer: 'shelfwise', list: [['2026-01-01', 4899]] },
  { product: 'kestrelwyn-talon', retailer: 'shelfwise', list: [['2026-01-01', 4599], ['2026-05-26', 4999], ['2026-10-13', 5299]] },
  { product: 'kestrelwyn-talon', retailer: 'liftcart', list: [['2026-01-01', 4799]] },
  // The container shrank from 30 to 20 servings while the list price rose: both are Signals.
  { product: 'oxenfjord-pre-workout', retailer: 'shelfwise', list: [['2026-01-01', 3999], ['2026-06-29', 4499]] },
  { product: 'drumlin-vane-keystone', retailer: 'parcelgrain', list: [['2026-01-01', 5499], ['2026-08-12', 5999]] },
  { product: 'vantorra-original', retailer: 'liftcart', list: [['2026-01-01', 2999], ['2026-11-06', 3299]] },
  { product: 'hollowmere-pre-workout', retailer: 'shelfwise', list: [['2026-01-01', 3799]] },
  { product: 'cobaltreed-apex', retailer: 'shelfwise', list: [['2026-01-01', 4299]] },
];

/** Sales: while one runs, the retailer page shows only the sale price (basis 'promotional'). */
export interface PromotionSpec {
  product: string;
  retailer: RetailerSlug;
  from: string;
  to: string;
  cents: number;
}

export const promotions: PromotionSpec[] = [
  { product: 'ironvale-surge', retailer: 'parcelgrain', from: '2026-03-02', to: '2026-03-16', cents: 3599 },
  { product: 'cobaltreed-apex', retailer: 'shelfwise', from: '2026-05-22', to: '2026-05-26', cents: 3299 },
  { product: 'hollowmere-pre-workout', retailer: 'shelfwise', from: '2026-07-01', to: '2026-07-07', cents: 2799 },
  { product: 'kestrelwyn-talon', retailer: 'liftcart', from: '2026-11-09', to: '2026-11-17', cents: 3999 },
];

/** Shelfwise Supply offers subscribe-and-save at this share of the list price. */
export const SUBSCRIPTION_RETAILER: RetailerSlug = 'shelfwise';
export const SUBSCRIPTION_SHARE = 0.85;

/** The one REGISTERED product with a price seen: a listing that did not say what the price was. */
export const unspecifiedPrices = [{ product: 'tallowfen-emberline', retailer: 'liftcart' as RetailerSlug, on: '2026-10-02', cents: 3899 }];
