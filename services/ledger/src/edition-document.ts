import { SUPPORTED_CATEGORY } from '@evidence-record/contract';
import type { PoolClient } from '@evidence-record/platform';
import { dataAsOf, periodStart } from './period';
import {
  comparableStatesInForce,
  coveredProducts,
  declarationsOf,
  newestListPrices,
  publicCorrections,
  signalsReleasedBetween,
  type CoveredProductRow,
  type DeclarationRow,
  type ListPriceRow,
  type PublicCorrectionRow,
  type ReleasedSignalRow,
  type StateInForceRow,
} from './queries/document';

/**
 * The ledger edition document: the published content of one monthly edition
 * and the value its `edition_hash` is computed over (contract
 * `editionHash(document)`: SHA-256 of its canonical JSON). A closed edition
 * stores it once and serves it verbatim; an open edition's is computed live.
 *
 * It holds only released Signals, public correction notes, list prices and
 * declared label content as of `data_as_of`; never candidates, refused
 * Signals, review or operator notes, preserved-source paths or source hashes.
 * Signal addresses are given as paths (`/api/v1/signals/<id>`) so the frozen
 * document does not depend on the host it was closed on; the answer adds the
 * absolute `signal_url` of each Signal outside the hashed document.
 */
export interface Cohort {
  description: string;
  denominator: number;
}

export interface ConfirmedChange {
  signal_id: string;
  signal_path: string;
  product_id: string;
  product_name: string;
  brand_name: string;
  dimension: string;
  summary: string;
  observation_window: { start: string; end: string; exact_change_date: string | null };
  released_at: string;
  status_as_of: 'released' | 'corrected' | 'withdrawn';
  corrections: Array<{ kind: 'correction' | 'withdrawal'; recorded_on: string; note: string }>;
}

export interface CategoryBenchmark {
  benchmark: string;
  value: number | null;
  unit: string;
  numerator: number | null;
  cohort: Cohort;
  note: string;
}

export interface ServingEconomicsRow {
  product_id: string;
  product_name: string;
  brand_name: string;
  retailer: string;
  observed_at: string;
  price_basis: 'list';
  list_price: { amount: number; currency: 'USD' };
  servings_per_container: number | null;
  price_per_serving: {
    result: number | null;
    unit: 'USD/serving';
    formula: string;
    operands: Array<{ name: string; value: number | null; unit: string; source: string | null }>;
  };
}

export interface ProductComparisonRow {
  product_id: string;
  product_name: string;
  brand_name: string;
  depth_class: string;
  state_id: string;
  label_observed: { from: string; to: string };
  serving: { serving_size: number | null; serving_unit: string | null; servings_per_container: number | null };
  declared_ingredient_count: number;
  proprietary_blends: number;
  amounts_not_disclosed: number;
  key_declarations: Array<{ ingredient_id: string; ingredient_name: string; declared: boolean; declared_name: string | null; amount: number | null; unit: string | null }>;
}

export interface EditionDocument {
  edition_id: string;
  period: string;
  status: 'open' | 'closed';
  data_as_of: string;
  category: string;
  executive_summary: string;
  confirmed_changes: ConfirmedChange[];
  category_benchmarks: CategoryBenchmark[];
  serving_economics: ServingEconomicsRow[];
  product_comparison: ProductComparisonRow[];
  limitations: string[];
}

export interface EditionInputs {
  edition_id: string;
  period: string;
  status: 'open' | 'closed';
  data_as_of: string;
  signals: ReleasedSignalRow[];
  corrections: PublicCorrectionRow[];
  products: CoveredProductRow[];
  listPrices: ListPriceRow[];
  states: StateInForceRow[];
  declarations: DeclarationRow[];
}

export async function readEditionInputs(
  client: PoolClient,
  edition: { edition_id: string; period: string; status: 'open' | 'closed' },
  today: string,
): Promise<EditionInputs> {
  const asOf = dataAsOf(edition.period, today);
  const from = periodStart(edition.period);
  const signals = (await signalsReleasedBetween(client, from, asOf)).filter((s) => s.category === SUPPORTED_CATEGORY);
  const products = await coveredProducts(client, asOf, SUPPORTED_CATEGORY);
  const covered = new Set(products.map((p) => p.product_id));
  const states = (await comparableStatesInForce(client, asOf)).filter((s) => covered.has(s.product_id));
  return {
    ...edition,
    data_as_of: asOf,
    signals,
    corrections: await publicCorrections(client, signals.map((s) => s.signal_id), asOf),
    products,
    listPrices: (await newestListPrices(client, from, asOf)).filter((p) => covered.has(p.product_id)),
    states,
    declarations: await declarationsOf(client, states.map((s) => s.state_id)),
  };
}

export async function computeEditionDocument(
  client: PoolClient,
  edition: { edition_id: string; period: string; status: 'open' | 'closed' },
  today: string,
): Promise<EditionDocument> {
  return composeEditionDocument(await readEditionInputs(client, edition, today));
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return round4(sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
}

function share(numerator: number, denominator: number): number | null {
  return denominator > 0 ? round4(numerator / denominator) : null;
}

/** Pure: the same inputs always give the same document, so the same hash. */
export function composeEditionDocument(input: EditionInputs): EditionDocument {
  const byProduct = new Map(input.products.map((p) => [p.product_id, p]));
  const compared = input.products.filter((p) => p.depth_class !== 'REGISTERED');
  const registered = input.products.length - compared.length;

  const confirmed: ConfirmedChange[] = input.signals.map((s) => {
    const corrections = input.corrections.filter((c) => c.signal_id === s.signal_id);
    const last = corrections.at(-1);
    return {
      signal_id: s.signal_id,
      signal_path: `/api/v1/signals/${s.signal_id}`,
      product_id: s.product_id,
      product_name: s.product_name,
      brand_name: s.brand_name,
      dimension: s.dimension,
      summary: s.summary,
      observation_window: { start: s.window_start, end: s.window_end, exact_change_date: s.exact_change_date },
      released_at: s.released_on,
      status_as_of: last ? (last.kind === 'withdrawal' ? 'withdrawn' : 'corrected') : 'released',
      corrections: corrections.map((c) => ({ kind: c.kind, recorded_on: c.recorded_on, note: c.public_note })),
    };
  });
  const standing = confirmed.filter((c) => c.status_as_of !== 'withdrawn');

  const economics: ServingEconomicsRow[] = input.listPrices
    .filter((p) => byProduct.has(p.product_id))
    .map((p) => {
      const product = byProduct.get(p.product_id)!;
      const price = p.price_cents / 100;
      return {
        product_id: p.product_id,
        product_name: product.name,
        brand_name: product.brand_name,
        retailer: p.retailer,
        observed_at: p.observed_at,
        price_basis: 'list',
        list_price: { amount: price, currency: 'USD' },
        servings_per_container: p.servings_per_container,
        price_per_serving: {
          result: p.servings_per_container ? round4(price / p.servings_per_container) : null,
          unit: 'USD/serving',
          formula: 'list price / servings per container',
          operands: [
            { name: 'list_price', value: price, unit: 'USD', source: `list price observed ${p.observed_at} at ${p.retailer}` },
            { name: 'servings_per_container', value: p.servings_per_container, unit: 'servings', source: p.servings_source },
          ],
        },
      };
    });
  const perServing = economics.map((e) => e.price_per_serving.result).filter((v): v is number => v !== null);

  const comparison = composeComparison(input, byProduct);
  const changedProducts = new Set(standing.map((c) => c.product_id));
  const changedCovered = [...changedProducts].filter((id) => byProduct.has(id)).length;
  const withBlend = comparison.filter((r) => r.proprietary_blends > 0).length;
  const dimensionCounts = new Map<string, number>();
  for (const c of standing) dimensionCounts.set(c.dimension, (dimensionCounts.get(c.dimension) ?? 0) + 1);

  const coveredCohort: Cohort = { description: `covered ${SUPPORTED_CATEGORY} products (not retired) as of ${input.data_as_of}`, denominator: input.products.length };
  const changesCohort: Cohort = { description: `confirmed changes released ${input.period} and not withdrawn as of ${input.data_as_of}`, denominator: standing.length };
  const priceCohort: Cohort = { description: `covered products with a list price observed in ${input.period} and a known servings per container`, denominator: perServing.length };
  const labelCohort: Cohort = { description: `covered products with a comparable label state as of ${input.data_as_of}`, denominator: comparison.length };

  const benchmarks: CategoryBenchmark[] = [
    {
      benchmark: 'products_with_a_confirmed_change',
      value: share(changedCovered, coveredCohort.denominator),
      unit: 'share',
      numerator: changedCovered,
      cohort: coveredCohort,
      note: 'Share of covered products with at least one confirmed change released in the period.',
    },
    ...[...dimensionCounts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([dimension, count]) => ({
        benchmark: `confirmed_changes_${dimension}`,
        value: share(count, changesCohort.denominator),
        unit: 'share',
        numerator: count,
        cohort: changesCohort,
        note: `Share of the period's confirmed changes that are ${dimension} changes.`,
      })),
    {
      benchmark: 'median_list_price_per_serving',
      value: median(perServing),
      unit: 'USD/serving',
      numerator: null,
      cohort: priceCohort,
      note: "Median of each product's newest list price in the period divided by its servings per container; a calculation, not a manufacturer figure.",
    },
    {
      benchmark: 'products_declaring_a_proprietary_blend',
      value: share(withBlend, labelCohort.denominator),
      unit: 'share',
      numerator: withBlend,
      cohort: labelCohort,
      note: 'Share of products whose label declares at least one proprietary blend (member amounts not disclosed).',
    },
    {
      benchmark: 'median_declared_ingredient_count',
      value: median(comparison.map((r) => r.declared_ingredient_count)),
      unit: 'ingredients',
      numerator: null,
      cohort: labelCohort,
      note: 'Median number of ingredient lines declared on the label; a count of declarations, not of effective ingredients.',
    },
  ];

  const dims = [...dimensionCounts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([d, n]) => `${n} ${d}`);
  const withdrawn = confirmed.length - standing.length;
  const medianPps = median(perServing);
  const summary = [
    `Edition ${input.period} (${input.status}, data as of ${input.data_as_of}): ${confirmed.length} confirmed change${confirmed.length === 1 ? '' : 's'} released`,
    confirmed.length > 0 ? ` across ${new Set(confirmed.map((c) => c.product_id)).size} of ${input.products.length} covered products${dims.length ? ` (${dims.join(', ')})` : ''}` : '',
    withdrawn > 0 ? `; ${withdrawn} since withdrawn` : '',
    '.',
    medianPps !== null ? ` Median list price per serving across ${perServing.length} products: $${medianPps.toFixed(2)}.` : ' No list price with a known serving count was observed in the period.',
  ].join('');

  const limitations = [
    'Confirmed changes are listed by release date within the period, not by the date the change happened; an observation window is not an exact change date.',
    'Signals released after the data-as-of date, and unreviewed candidates, are not part of this edition.',
    'Prices are list prices as recorded; promotional and subscription prices are excluded, and price per serving is the service\'s arithmetic.',
    'An ingredient a label does not declare is undisclosed, not absent; an amount of null was named without an amount.',
    ...(registered > 0 ? [`${registered} covered product${registered === 1 ? ' is' : 's are'} REGISTERED (no comparable label) and not compared.`] : []),
    ...(withdrawn > 0 ? [`${withdrawn} confirmed change${withdrawn === 1 ? ' was' : 's were'} withdrawn by the data-as-of date; they keep their address and release date and are not counted in benchmarks.`] : []),
    ...(input.status === 'open' ? ['This edition is open: its document and hash change until it is closed.'] : []),
    'The Record performs no laboratory testing; nothing here judges safety, effectiveness or suitability, and no product is ranked.',
  ];

  return {
    edition_id: input.edition_id,
    period: input.period,
    status: input.status,
    data_as_of: input.data_as_of,
    category: SUPPORTED_CATEGORY,
    executive_summary: summary,
    confirmed_changes: confirmed,
    category_benchmarks: benchmarks,
    serving_economics: economics,
    product_comparison: comparison,
    limitations,
  };
}

/**
 * Products side by side on the ingredients the cohort declares most often.
 * REGISTERED products are left out (refused by comparison, not compared);
 * an ingredient a label does not declare is reported as not declared.
 */
function composeComparison(input: EditionInputs, byProduct: Map<string, CoveredProductRow>): ProductComparisonRow[] {
  const states = input.states.filter((s) => byProduct.get(s.product_id)?.depth_class !== 'REGISTERED' && byProduct.has(s.product_id));
  const declarationsByState = new Map<string, DeclarationRow[]>();
  for (const d of input.declarations) declarationsByState.set(d.state_id, [...(declarationsByState.get(d.state_id) ?? []), d]);

  const frequency = new Map<string, { name: string; products: number }>();
  for (const s of states) {
    const ids = new Set((declarationsByState.get(s.state_id) ?? []).map((d) => d.ingredient_id).filter((i): i is string => i !== null));
    for (const id of ids) {
      const name = (declarationsByState.get(s.state_id) ?? []).find((d) => d.ingredient_id === id)?.ingredient_name ?? id;
      frequency.set(id, { name, products: (frequency.get(id)?.products ?? 0) + 1 });
    }
  }
  const key = [...frequency.entries()]
    .sort(([a, x], [b, y]) => y.products - x.products || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 5);

  return states.map((s) => {
    const product = byProduct.get(s.product_id)!;
    const declared = declarationsByState.get(s.state_id) ?? [];
    return {
      product_id: s.product_id,
      product_name: product.name,
      brand_name: product.brand_name,
      depth_class: product.depth_class,
      state_id: s.state_id,
      label_observed: { from: s.observed_from, to: s.observed_to },
      serving: { serving_size: s.serving_size, serving_unit: s.serving_unit, servings_per_container: s.servings_per_container },
      declared_ingredient_count: declared.length,
      proprietary_blends: s.blends,
      amounts_not_disclosed: declared.filter((d) => d.amount === null).length,
      key_declarations: key.map(([ingredientId, info]) => {
        const d = declared.find((x) => x.ingredient_id === ingredientId);
        return {
          ingredient_id: ingredientId,
          ingredient_name: info.name,
          declared: d !== undefined,
          declared_name: d?.declared_name ?? null,
          amount: d?.amount ?? null,
          unit: d?.unit ?? null,
        };
      }),
    };
  });
}
