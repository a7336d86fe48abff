import { dsldLabel } from './labels';
import type { OfferSpec } from './server';

/**
 * The local stack's demo sources: one fictional product read from a DSLD-like
 * label and two retailers' pages. `change` moves the label or the list price
 * one step, so a newcomer sees the monitor open a candidate.
 */
export const DEMO_BRAND = 'Kestrel Demo Nutrition';
export const DEMO_PRODUCT = 'Updraft Pre-Workout';
export const DEMO_LABEL_ID = 990001;
export const DEMO_RETAILERS = [
  { retailer: 'Shelfwise', slug: 'shelfwise' },
  { retailer: 'Northbay Supply', slug: 'northbay' },
] as const;

export interface DemoState {
  caffeineMg: number;
  listPrice: number;
}

export const initialDemoState = (): DemoState => ({ caffeineMg: 200, listPrice: 44.99 });

export function demoLabel(s: DemoState): Record<string, unknown> {
  return dsldLabel({
    id: DEMO_LABEL_ID,
    brand: DEMO_BRAND,
    name: DEMO_PRODUCT,
    caffeineMg: s.caffeineMg,
    blend: { name: 'Updraft Pump Blend', totalMg: 2000, members: ['L-Citrulline', 'Betaine Anhydrous'] },
  });
}

export function demoOffer(s: DemoState, retailer: string): OfferSpec {
  // Northbay runs a standing promotion below list: recorded, never a price change.
  return retailer === 'northbay' ? { name: DEMO_PRODUCT, price: Math.round((s.listPrice - 5) * 100) / 100, listPrice: s.listPrice, strikethrough: true } : { name: DEMO_PRODUCT, price: s.listPrice, listPrice: s.listPrice };
}

export function changed(s: DemoState, what: 'label' | 'price'): DemoState {
  return what === 'label' ? { ...s, caffeineMg: s.caffeineMg + 25 } : { ...s, listPrice: Math.round((s.listPrice + 3) * 100) / 100 };
}
