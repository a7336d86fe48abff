import type { PoolClient } from '@evidence-record/platform';
import { bound, type DeclaredOperator } from '@evidence-record/contract';
import { dataAsOf, periodStart } from './period';
import {
  allProducts,
  comparedStates,
  correctionsRecordedBetween,
  listPricesBetween,
  productLabels,
  signalsReleasedBetween,
  type ComparedStateRow,
  type CorrectionFactRow,
  type ListPriceRow,
  type ProductLabelRow,
  type ProductRow,
  type ReleasedSignalRow,
} from './edition-queries';

/** The ingredients the category benchmarks report declared amounts of, and the unit each is reported in. */
const BENCHMARK_INGREDIENTS = { ing_caffeine: 'mg', ing_beta_alanine: 'g' } as const;

/**
 * The ledger edition document: the published content of one monthly edition
 * and the value its `edition_hash` is computed over (contract
 * `editionHash(document)`: SHA-256 of its canonical JSON). A closed edition
 * stores it once and serves it verbatim; an open edition's is computed live.
 * The shape is the one in docs/demo-record.md, which the demo Record's closed
 * editions use too.
 *
 * It is computed from the Record as of `data_as_of` (the period's last day,
 * or today while the period runs) and holds only released Signals, list
 * prices and declared label content: never candidates, refused Signals,
 * review or operator notes, preserved-source paths or source hashes.
 */
export interface Cohort {
  description: string;
  denominator: number;
}

export interface EditionDocument {
  edition_id: string;
  period: string;
  status: 'open' | 'closed';
  data_as_of: string;
  executive_summary: string;
  confirmed_changes: Array<{
    signal_id: string;
    product_id: string;
    product_name: string;
    dimension: string;
    summary: string;
    released_at: string;
    observation_window: { start: string; end: string; exact_change_date: string | null };
  }>;
  category_benchmarks: Array<{ name: string; value: number | null; unit: string; cohort: Cohort }>;
  serving_economics: Array<{
    product_id: string;
    product_name: string;
    retailer: string;
    observed_at: string;
    price_basis: 'list';
    price_cents: number;
    servings_per_container: number;
    /** Absent: the observation's own (decision 2410). */
    servings_source?: string;
    price_per_serving_usd: number;
    calculation: string;
  }>;
  product_comparison: Array<{
    product_id: string;
    product_name: string;
    state_id: string;
    serving: { size: number | null; unit: string | null; servings_per_container: number | null } | null;
    /** `operator` only where the label states the amount as a bound ("<1 g"; decision 2430), so a document without one reads as before. */
    declared: Array<{ ingredient_id: string | null; declared_name: string; amount: number | null; unit: string | null; operator?: DeclaredOperator }>;
  }>;
  limitations: string[];
}

export interface EditionInputs {
  edition_id: string;
  period: string;
  status: 'open' | 'closed';
  data_as_of: string;
  signals: ReleasedSignalRow[];
  corrections: CorrectionFactRow[];
  products: ProductRow[];
  labels: ProductLabelRow[];
  /** Newest comparable labels of the products with a label change in the period. */
  compared: ComparedStateRow[];
  listPrices: ListPriceRow[];
}

export async function readEditionInputs(
  client: PoolClient,
  edition: { edition_id: string; period: string; status: 'open' | 'closed' },
  today: string,
): Promise<EditionInputs> {
  const asOf = dataAsOf(edition.period, today);
  const from = periodStart(edition.period);
  // A report over the whole covered set: sort in memory and skip JIT compilation, which costs more than it saves here.
  await client.query("SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)");
  const signals = await signalsReleasedBetween(client, from, asOf);
  const changed = [...new Set(signals.filter((s) => s.dimension !== 'price').map((s) => s.product_id))];
  return {
    ...edition,
    data_as_of: asOf,
    signals,
    corrections: await correctionsRecordedBetween(client, from, asOf),
    products: await allProducts(client),
    labels: await productLabels(client, asOf, Object.keys(BENCHMARK_INGREDIENTS)),
    compared: await comparedStates(client, changed, asOf),
    listPrices: await listPricesBetween(client, from, asOf),
  };
}

export async function computeEditionDocument(
  client: PoolClient,
  edition: { edition_id: string; period: string; status: 'open' | 'closed' },
  today: string,
): Promise<EditionDocument> {
  return composeEditionDocument(await readEditionInputs(client, edition, today));
}

const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/** A percentage of a named cohort; null when the cohort is empty rather than a division by zero. */
function percent(numerator: number, denominator: number): number | null {
  return denominator > 0 ? round((100 * numerator) / denominator, 1) : null;
}

const massInMg: Record<string, number> = { mcg: 0.001, mg: 1, g: 1000 };

/** Declared amounts in one unit, so a median never mixes milligrams and grams. Other units are left out. */
function inUnit(amount: number, unit: string | null, target: 'mg' | 'g'): number | null {
  const factor = unit ? massInMg[unit] : undefined;
  if (factor === undefined) return null;
  return round((amount * factor) / massInMg[target]!, 6);
}

/** Pure: the same inputs always give the same document, so the same hash. */
export function composeEditionDocument(input: EditionInputs): EditionDocument {
  const asOf = input.data_as_of;
  const [year, month] = input.period.split('-').map(Number) as [number, number];
  const label = `${monthNames[month - 1]} ${year}`;
  const productById = new Map(input.products.map((p) => [p.product_id, p]));
  const displayName = (id: string) => {
    const p = productById.get(id)!;
    return `${p.brand_name} ${p.name}`;
  };
  const labelOf = new Map(input.labels.map((l) => [l.product_id, l]));
  const comparedOf = new Map(input.compared.map((c) => [c.product_id, c]));
  const byName = <T extends { product_name: string; product_id: string }>(a: T, b: T) =>
    a.product_name.localeCompare(b.product_name) || a.product_id.localeCompare(b.product_id);

  const released = input.signals;
  const confirmed_changes = released.map((s) => ({
    signal_id: s.signal_id,
    product_id: s.product_id,
    product_name: displayName(s.product_id),
    dimension: s.dimension,
    summary: s.summary,
    released_at: s.released_on,
    observation_window: { start: s.window_start, end: s.window_end, exact_change_date: s.exact_change_date },
  }));

  // Cohorts: products known on the as-of date that are compared (not REGISTERED) and not retired by then.
  const live = input.products.filter((p) => p.depth_class !== 'REGISTERED' && (p.retired_on === null || p.retired_on > asOf));
  const comparableNow = live.map((p) => labelOf.get(p.product_id)).filter((l): l is ProductLabelRow => l !== undefined && l.comparable_state_id !== null);
  const labelled = live.filter((p) => labelOf.get(p.product_id)?.labelled === true);
  const amountsOf = (ingredientId: keyof typeof BENCHMARK_INGREDIENTS) =>
    comparableNow.flatMap((l) =>
      l.benchmark_amounts
        .filter((a) => a.ingredient_id === ingredientId)
        .map((a) => inUnit(a.amount, a.unit, BENCHMARK_INGREDIENTS[ingredientId]))
        .filter((v): v is number => v !== null),
    );
  const caffeine = amountsOf('ing_caffeine');
  const betaAlanine = amountsOf('ing_beta_alanine');
  const withCaffeine = comparableNow.filter((l) => l.benchmark_amounts.some((a) => a.ingredient_id === 'ing_caffeine'));
  const withBlend = labelled.filter((p) => labelOf.get(p.product_id)?.newest_has_blend === true);
  const pricesOf = new Map<string, ListPriceRow[]>();
  for (const o of input.listPrices) {
    const list = pricesOf.get(o.product_id);
    if (list) list.push(o);
    else pricesOf.set(o.product_id, [o]);
  }
  const newestList = live
    .map((p) => {
      const obs = (pricesOf.get(p.product_id) ?? []).sort((a, b) => b.observed_at.localeCompare(a.observed_at) || a.retailer.localeCompare(b.retailer));
      return obs[0] ? { p, o: obs[0] } : null;
    })
    .filter((x) => x !== null);
  const perServing = newestList.map(({ o }) => o.price_cents / o.servings_per_container / 100);
  const medianPerServing = median(perServing);

  const category_benchmarks = [
    {
      name: 'Products whose newest comparable label declares caffeine with an amount',
      value: percent(withCaffeine.length, comparableNow.length),
      unit: 'percent',
      cohort: { description: `products in the Record with a comparable label state on or before ${asOf}`, denominator: comparableNow.length },
    },
    {
      name: 'Median declared caffeine per serving',
      value: median(caffeine),
      unit: 'mg',
      cohort: { description: `products whose newest comparable label on or before ${asOf} declares caffeine with an amount (a declared 0 is an amount; caffeine named without one, or stated only as a bound such as "<1 g", is not counted)`, denominator: caffeine.length },
    },
    {
      name: 'Median declared beta-alanine per serving',
      value: median(betaAlanine),
      unit: 'g',
      cohort: { description: `products whose newest comparable label on or before ${asOf} declares beta-alanine with an amount (a declared 0 is an amount; beta-alanine named without one, or stated only as a bound such as "<1 g", is not counted)`, denominator: betaAlanine.length },
    },
    {
      name: 'Products whose newest label declares a proprietary blend',
      value: percent(withBlend.length, labelled.length),
      unit: 'percent',
      cohort: { description: `products in the Record with a captured label (comparable or presence-only) on or before ${asOf}`, denominator: labelled.length },
    },
    {
      name: 'Median list price per serving',
      value: medianPerServing === null ? null : round(medianPerServing, 2),
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
      price_basis: 'list' as const,
      price_cents: o.price_cents,
      servings_per_container: o.servings_per_container,
      // Only where it is not the observation's own, so a document computed before this field keeps its hash.
      ...(o.servings_source ? { servings_source: o.servings_source } : {}),
      price_per_serving_usd: round(o.price_cents / o.servings_per_container / 100, 2),
      calculation: 'price_cents / servings_per_container / 100, rounded to cents',
    }))
    .sort(byName);

  const changedProducts = [...new Set(released.filter((s) => s.dimension !== 'price').map((s) => s.product_id))];
  const product_comparison = changedProducts
    .map((id) => comparedOf.get(id))
    .filter((c): c is ComparedStateRow => c !== undefined)
    .map((c) => ({
      product_id: c.product_id,
      product_name: displayName(c.product_id),
      state_id: c.state_id,
      serving:
        c.serving_size === null && c.serving_unit === null && c.servings_per_container === null
          ? null
          : { size: c.serving_size, unit: c.serving_unit, servings_per_container: c.servings_per_container },
      declared: c.declared.map((l) => ({ ingredient_id: l.ingredient_id, declared_name: l.declared_name, amount: l.amount, unit: l.unit, ...bound(l.operator) })),
    }))
    .sort(byName);

  const exact = released.filter((s) => s.exact_change_date !== null).length;
  const limitations = [
    ...(live.length > 0 && live.every((p) => p.is_demo) ? ['Demonstration data: every brand and product in this edition is fictional.'] : []),
    `Observation windows are not change dates: ${exact} of the ${released.length} confirmed changes carry an exact change date; the others are dated only by their observation window.`,
    'Prices are retailer observations with their basis. Only list prices are compared over time; promotional and subscription prices are never counted as price changes.',
    'Price per serving is a calculation by the Record (price divided by declared servings per container), not a manufacturer figure.',
    'Benchmarks describe products in the Record, not the market, and name their cohort; an ingredient missing from a label is undisclosed, not absent.',
    'Products known only by identity (depth REGISTERED) are not compared.',
    'Nothing here judges effectiveness, safety or suitability, and no product is ranked.',
    ...input.corrections.map(
      (c) =>
        `Signal ${c.signal_id} (released ${c.released_on}) was ${c.kind === 'withdrawal' ? 'withdrawn' : 'corrected'} on ${c.recorded_on}; it keeps its address and release date, and earlier editions are unchanged.`,
    ),
    ...(input.status === 'open' ? [`This edition is open: its document and hash change until it is closed after ${input.period} has ended.`] : []),
  ];

  const dims = (d: string) => released.filter((s) => s.dimension === d).length;
  const executive_summary =
    `In ${label} the Record released ${released.length} confirmed changes for ${new Set(released.map((s) => s.product_id)).size} products: ` +
    `${dims('formula')} formula, ${dims('serving')} serving and ${dims('price')} price. ` +
    `${exact} carry an exact change date; the rest are dated by their observation window. ` +
    'The figures below describe the Record as of the data-as-of date; they do not rank products or judge them.';

  return {
    edition_id: input.edition_id,
    period: input.period,
    status: input.status,
    data_as_of: asOf,
    executive_summary,
    confirmed_changes,
    category_benchmarks,
    serving_economics,
    product_comparison,
    limitations,
  };
}
