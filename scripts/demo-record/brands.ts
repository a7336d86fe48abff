/**
 * Ten fictional brands. Every name here was invented for the demo Record and
 * is not, to our knowledge, the name of a real supplement brand: the Record
 * must never publish invented facts about a real product. Their web sites
 * live on the reserved `.example` domain.
 */
export interface DemoBrand {
  slug: string;
  brand_id: string;
  name: string;
  /** Host of the brand's (fictional) manufacturer site. */
  site: string;
}

function brand(slug: string, name: string): DemoBrand {
  return { slug, brand_id: `brd_${slug}`, name, site: `${slug.replace(/_/g, '-')}.example` };
}

export const brands: DemoBrand[] = [
  brand('ironvale', 'Ironvale'),
  brand('quillmoor', 'Quillmoor'),
  brand('brasswick_labs', 'Brasswick Labs'),
  brand('tallowfen', 'Tallowfen Performance'),
  brand('cobaltreed', 'Cobaltreed Nutrition'),
  brand('hollowmere', 'Hollowmere Supply Co.'),
  brand('vantorra', 'Vantorra Sport'),
  brand('kestrelwyn', 'Kestrelwyn Labs'),
  brand('oxenfjord', 'Oxenfjord'),
  brand('drumlin_and_vane', 'Drumlin & Vane'),
];

export type BrandSlug =
  | 'ironvale'
  | 'quillmoor'
  | 'brasswick_labs'
  | 'tallowfen'
  | 'cobaltreed'
  | 'hollowmere'
  | 'vantorra'
  | 'kestrelwyn'
  | 'oxenfjord'
  | 'drumlin_and_vane';

export function brandBySlug(slug: string): DemoBrand {
  const b = brands.find((x) => x.slug === slug);
  if (!b) throw new Error(`unknown demo brand ${slug}`);
  return b;
}

/** Fictional retailers whose listings carry the observed prices. */
export interface DemoRetailer {
  slug: string;
  name: string;
  site: string;
}

export const retailers: DemoRetailer[] = [
  { slug: 'shelfwise', name: 'Shelfwise Supply', site: 'shelfwise.example' },
  { slug: 'parcelgrain', name: 'Parcelgrain Market', site: 'parcelgrain.example' },
  { slug: 'liftcart', name: 'Liftcart', site: 'liftcart.example' },
];

export type RetailerSlug = 'shelfwise' | 'parcelgrain' | 'liftcart';

export function retailerBySlug(slug: string): DemoRetailer {
  const r = retailers.find((x) => x.slug === slug);
  if (!r) throw new Error(`unknown demo retailer ${slug}`);
  return r;
}
