import { editionHash } from '@evidence-record/contract';
import { lastDayOfMonth, monthOf } from './dates';
import type { Serving } from './label';
import { LATEST_READ } from './timeline';

/**
 * Ledger editions: one per calendar month. September and October 2026 are
 * closed (their document and hash are final); November 2026 is open. A
 * closed edition's document is computed from the Record as it stood at its
 * data-as-of date, and its `edition_hash` is `editionHash(document)` from the
 * contract (SHA-256 of the canonical JSON), so anyone can recompute it.
 * The document shape is described in docs/demo-record.md.
 */
export const editionPlan = [
  { period: '2026-09', status: 'closed' as const, closedAt: '2026-10-02T15:00:00.000Z' },
  { period: '2026-10', status: 'closed' as const, closedAt: '2026-11-03T15:00:00.000Z' },
  { period: '2026-11', status: 'open' as const, closedAt: null },
];

export interface EditionInput {
  products: {
    product_id: string;
    name: string;
    brand: string;
    depth: string;
    retired_on: string | null;
    states: {
      state_id: string;
      from: string;
      to: string;
      classification: string;
      serving: Serving | null;
      lines: { ingredient_id: string; declared_name: string; amount: number | null; unit: string | null; in_blend: boolean }[];
    }[];
  }[];
  signals: {
    signal_id: string;
    product_id: string;
    dimension: string;
    summary: string;
    released_on: string;
    window_start: string;
    window_end: string;
    exact_change_date: string | null;
  }[];
  corrections: { signal_id: string; kind: string; recorded_on: string }[];
  prices: { product_id: string; retailer: string; observed_at: string; price_cents: number; price_basis: string; servings_per_container: number | null }[];
}

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

function byName<T extends { product_name: string; product_id: string }>(a: T, b: T): number {
  return a.product_name.localeCompare(b.product_name) || a.product_id.localeCompare(b.product_id);
}

/** The closed-edition document for one period, from the Record as of the period's last day. */
export function editionDocument(input: EditionInput, period: string): Record<string, unknown> {
  const asOf = lastDayOfMonth(period);
  const [year, month] = period.split('-').map(Number) as [number, number];
  const label = `${monthNames[month - 1]} ${year}`;
  const productById = new Map(input.products.map((p) => [p.product_id, p]));
  const displayName = (id: string) => {
    const p = productById.get(id)!;
    return `${p.brand} ${p.name}`;
  };

  const released = input.signals
    .filter((s) => monthOf(s.released_on) === period)
    .sort((a, b) => a.released_on.localeCompare(b.released_on) || a.signal_id.localeCompare(b.signal_id));
  const confirmed_changes = released.map((s) => ({
    signal_id: s.signal_id,
    product_id: s.product_id,
    product_name: displayName(s.product_id),
    dimension: s.dimension,
    summary: s.summary,
    released_at: s.released_on,
    observation_window: { start: s.window_start, end: s.window_end, exact_change_date: s.exact_change_date },
  }));

  // The cohort: products known on the as-of date with a comparable label state by then.
  const live = input.products.filter((p) => p.depth !== 'REGISTERED' && (p.retired_on === null || p.retired_on > asOf));
  const comparableNow = live
    .map((p) => ({ p, state: [...p.states].reverse().find((s) => s.from <= asOf && s.classification === 'comparable') }))
    .filter((x): x is { p: (typeof live)[number]; state: NonNullable<(typeof x)['state']> } => x.state !== undefined);
  const labelled = live.filter((p) => p.states.some((s) => s.from <= asOf && s.classification !== 'identity_only'));
  const amountsOf = (ingredientId: string) =>
    comparableNow.flatMap(({ state }) => state.lines.filter((l) => l.ingredient_id === ingredientId && l.amount !== null).map((l) => l.amount!));
  const caffeine = amountsOf('ing_caffeine');
  const betaAlanine = amountsOf('ing_beta_alanine');
  const withBlend = labelled.filter((p) => [...p.states].reverse().find((s) => s.from <= asOf)!.lines.some((l) => l.in_blend));

  const newestList = live
    .map((p) => {
      const obs = input.prices
        .filter((o) => o.product_id === p.product_id && o.price_basis === 'list' && monthOf(o.observed_at) === period && o.servings_per_container)
        .sort((a, b) => b.observed_at.localeCompare(a.observed_at) || a.retailer.localeCompare(b.retailer));
      return obs[0] ? { p, o: obs[0] } : null;
    })
    .filter((x) => x !== null);

  const category_benchmarks = [
    {
      name: 'Products whose newest comparable label declares caffeine with an amount',
      value: round((100 * comparableNow.filter(({ state }) => state.lines.some((l) => l.ingredient_id === 'ing_caffeine' && l.amount !== null)).length) / comparableNow.length, 1),
      unit: 'percent',
      cohort: { description: `products in the Record with a comparable label state on or before ${asOf}`, denominator: comparableNow.length },
    },
    {
      name: 'Median declared caffeine per serving',
      value: median(caffeine),
      unit: 'mg',
      cohort: { description: `products whose newest comparable label on or before ${asOf} declares caffeine with an amount`, denominator: caffeine.length },
    },
    {
      name: 'Median declared beta-alanine per serving',
      value: median(betaAlanine),
      unit: 'g',
      cohort: { description: `products whose newest comparable label on or before ${asOf} declares beta-alanine with an amount`, denominator: betaAlanine.length },
    },
    {
      name: 'Products whose newest label declares a proprietary blend',
      value: round((100 * withBlend.length) / labelled.length, 1),
      unit: 'percent',
      cohort: { description: `products in the Record with a captured label (comparable or presence-only) on or before ${asOf}`, denominator: labelled.length },
    },
    {
      name: 'Median list price per serving',
      value: round(median(newestList.map(({ o }) => o.price_cents / o.servings_per_container! / 100)), 2),
      unit: 'USD per serving',
      cohort: { description: `products with a list price and servings per container observed in ${label}`, denominator: newestList.length },
    },
  ];

  const serving_economics = newestList
    .map(({ p, o }) => ({
      product_id: p.product_id,
      product_name: displayName(p.product_id),
      retailer: o.retailer,
      observed_at: o.observed_at,
      price_basis: 'list',
      price_cents: o.price_cents,
      servings_per_container: o.servings_per_container!,
      price_per_serving_usd: round(o.price_cents / o.servings_per_container! / 100, 2),
      calculation: 'price_cents / servings_per_container / 100, rounded to cents',
    }))
    .sort(byName);

  const changedProducts = [...new Set(released.filter((s) => s.dimension !== 'price').map((s) => s.product_id))];
  const product_comparison = changedProducts
    .map((id) => {
      const state = [...productById.get(id)!.states].reverse().find((s) => s.from <= asOf && s.classification === 'comparable')!;
      return {
        product_id: id,
        product_name: displayName(id),
        state_id: state.state_id,
        serving: state.serving
          ? { size: state.serving.size, unit: state.serving.unit, servings_per_container: state.serving.servingsPerContainer }
          : null,
        declared: state.lines.map((l) => ({ ingredient_id: l.ingredient_id, declared_name: l.declared_name, amount: l.amount, unit: l.unit })),
      };
    })
    .sort(byName);

  const exact = released.filter((s) => s.exact_change_date !== null).length;
  const limitations = [
    'Demonstration data: every brand and product in this edition is fictional.',
    `Observation windows are not change dates: ${exact} of the ${released.length} confirmed changes carry an exact change date; the others are dated only by their observation window.`,
    'Prices are retailer observations with their basis. Only list prices are compared over time; promotional and subscription prices are never counted as price changes.',
    'Price per serving is a calculation by the Record (price divided by declared servings per container), not a manufacturer figure.',
    'Benchmarks describe products in the Record, not the market, and name their cohort; an ingredient missing from a label is undisclosed, not absent.',
    'Products known only by identity (depth REGISTERED) are not compared.',
    'Nothing here judges effectiveness, safety or suitability, and no product is ranked.',
  ];
  for (const c of input.corrections.filter((c) => monthOf(c.recorded_on) === period)) {
    const s = input.signals.find((x) => x.signal_id === c.signal_id)!;
    limitations.push(
      `Signal ${c.signal_id} (released ${s.released_on}) was ${c.kind === 'withdrawal' ? 'withdrawn' : 'corrected'} on ${c.recorded_on}; it keeps its address and release date, and earlier editions are unchanged.`,
    );
  }

  const dims = (d: string) => released.filter((s) => s.dimension === d).length;
  const executive_summary =
    `In ${label} the Record released ${released.length} confirmed changes for ${new Set(released.map((s) => s.product_id)).size} products: ` +
    `${dims('formula')} formula, ${dims('serving')} serving and ${dims('price')} price. ` +
    `${exact} carry an exact change date; the rest are dated by their observation window. ` +
    'The figures below describe the Record as of the data-as-of date; they do not rank products or judge them.';

  return {
    edition_id: `ed_${period.replace('-', '_')}`,
    period,
    status: 'closed',
    data_as_of: asOf,
    executive_summary,
    confirmed_changes,
    category_benchmarks,
    serving_economics,
    product_comparison,
    limitations,
  };
}

export function buildEditions(input: EditionInput): Record<string, string | number | boolean | null>[] {
  return editionPlan.map(({ period, status, closedAt }) => {
    const count = input.signals.filter((s) => monthOf(s.released_on) === period).length;
    const base = {
      edition_id: `ed_${period.replace('-', '_')}`,
      period,
      status,
      opened_at: `${period}-01T00:00:00.000Z`,
      count_released: count,
    };
    if (status === 'open') {
      return { ...base, data_as_of: LATEST_READ, closed_at: null, document: null, edition_hash: null };
    }
    const document = editionDocument(input, period);
    return {
      ...base,
      data_as_of: lastDayOfMonth(period),
      closed_at: closedAt,
      document: JSON.stringify(document),
      edition_hash: editionHash(document),
    };
  });
}
