/** Randomness and the realistic mix the sustained, stress and soak scenarios share. */
import type { Response } from 'k6/http';
import type { Api } from './api.ts';
import { checkEnvelope, classify } from './checks.ts';
import { envList } from './config.ts';
import type { Capability } from './contract.ts';
import { daysAgo } from './dates.ts';
import type { Fixtures } from './fixtures.ts';

export function pick<T>(items: T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(Math.random() * items.length)] as T;
}

export interface Weighted<T> {
  weight: number;
  value: T;
}

export function pickWeighted<T>(items: Weighted<T>[]): T {
  let total = 0;
  for (const i of items) total += i.weight;
  let r = Math.random() * total;
  for (const i of items) {
    r -= i.weight;
    if (r < 0) return i.value;
  }
  return (items[items.length - 1] as Weighted<T>).value;
}

export type MixOp =
  | 'resolve'
  | 'product'
  | 'history'
  | 'signals_feed'
  | 'economics'
  | 'compare'
  | 'research'
  | 'regulatory'
  | 'record_version';

/** Default weights (percent of iterations). Override with MIX="resolve=20,product=18,...". */
export const DEFAULT_MIX: { [op in MixOp]: number } = {
  resolve: 20,
  product: 18,
  history: 8,
  signals_feed: 14,
  economics: 10,
  compare: 6,
  research: 6,
  regulatory: 6,
  record_version: 12,
};

export const MIX_CAPABILITY: { [op in MixOp]: Capability } = {
  resolve: 'resolve_product',
  product: 'get_product_record',
  history: 'get_formula_history',
  signals_feed: 'list_signal_changes',
  economics: 'get_serving_economics',
  compare: 'compare_products',
  research: 'get_research_context',
  regulatory: 'get_regulatory_context',
  record_version: 'get_record_version',
};

export function mixFromEnv(): Weighted<MixOp>[] {
  const weights: { [op: string]: number } = { ...DEFAULT_MIX };
  for (const entry of envList('MIX')) {
    const [op, w] = entry.split('=');
    if (op === undefined || w === undefined || !(op in DEFAULT_MIX)) {
      throw new Error(`MIX entry "${entry}" is not op=weight with op in ${Object.keys(DEFAULT_MIX).join('|')}`);
    }
    weights[op] = parseFloat(w);
  }
  const out: Weighted<MixOp>[] = [];
  for (const op in weights) {
    const w = weights[op] as number;
    if (w > 0) out.push({ weight: w, value: op as MixOp });
  }
  return out;
}

/** Capabilities the mix can touch (for per-capability thresholds). */
export function mixCapabilities(mix: Weighted<MixOp>[]): Capability[] {
  return mix.map((m) => MIX_CAPABILITY[m.value]);
}

/**
 * One iteration of realistic traffic: a single capability call chosen by
 * weight, checked in `lite` mode, with non-200s classified into
 * limit_refusals / other_refusals.
 */
export function mixedIteration(api: Api, f: Fixtures, mix: Weighted<MixOp>[]): void {
  let op = pickWeighted(mix);
  if (op === 'compare' && f.comparablePairs.length === 0) op = 'product';
  let res: Response;
  switch (op) {
    case 'resolve':
      res = api.resolveProduct(pick(f.productNames));
      break;
    case 'product':
      res = api.getProductRecord(pick(f.productIds));
      break;
    case 'history':
      res = api.getFormulaHistory(pick(f.productIds));
      break;
    case 'signals_feed':
      // Half the polls read the head of the feed, half pass a stored `since`.
      res = Math.random() < 0.5 ? api.listSignalChanges({ limit: 10 }) : api.listSignalChanges({ since: daysAgo(30), limit: 25 });
      break;
    case 'economics':
      res = api.getServingEconomics(pick(f.productIds));
      break;
    case 'compare':
      res = api.compareProducts(pick(f.comparablePairs));
      break;
    case 'research':
      res = api.getResearchContext(contextArgs(f));
      break;
    case 'regulatory':
      res = api.getRegulatoryContext(contextArgs(f));
      break;
    case 'record_version':
      res = api.getRecordVersion();
      break;
  }
  const capability = MIX_CAPABILITY[op];
  checkEnvelope(res, capability, 'lite');
  classify(res, capability);
}

function contextArgs(f: Fixtures): { ingredient_ids?: string[]; product_id?: string } {
  if (f.ingredientIds.length > 0 && Math.random() < 0.5) {
    return { ingredient_ids: f.ingredientIds.slice(0, 5) };
  }
  return { product_id: pick(f.productIds) };
}
