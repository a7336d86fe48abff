import { Refusal, bound, type DeclaredOperator } from '@evidence-record/contract';
import { answered, withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { RecordDeps } from '../deps';
import { commercialFact, pricePerServing, servingsFor } from '../domain/economics';
import { productIdentity, type ProductRow } from '../domain/identity';
import { distinct, limitation } from '../domain/limitations';
import { normalizeName } from '@evidence-record/record-store';
import { declaredLines, latestStates, type DeclaredRow, type StateRow } from '../queries/label';
import { newestPricePerBasis, type PriceRow } from '../queries/prices';
import { productsById } from '@evidence-record/record-store';

/**
 * Declared doses of two or three products side by side, in each label's own
 * units, with price per serving as a calculation. It never ranks, never
 * names a winner and never judges suitability. A REGISTERED product is
 * refused by comparison (a 200 answer with status `refused`, decision 0003).
 */
export const compareProducts = (deps: RecordDeps): HandlerOf<'compare_products'> => async ({ capability, body }, ctx) => {
  const { product_ids: productIds } = body;

  return withSnapshot(deps.pool, async (db, record) => {
    const found = new Map((await productsById(db, productIds)).map((p) => [p.product_id, p]));
    const unknown = productIds.filter((id) => !found.has(id));
    if (unknown.length > 0) throw new Refusal('not_found', { message: 'No product with that identifier in the Record.', details: { field: 'product_ids', unknown } });
    const products = productIds.map((id) => found.get(id)!);
    const demo = products.some((p) => p.is_demo);

    const registered = products.filter((p) => p.depth_class === 'REGISTERED');
    if (registered.length > 0) {
      return answered(ctx, record, productIds, {
        capability,
        status: 'refused',
        summary: 'The comparison is refused because a named product is REGISTERED: the Record holds no comparable label of it.',
        products: products.map(productIdentity),
        limitations: distinct([demo && limitation.demoData, ...registered.map(limitation.registeredNotCompared), limitation.absenceIsAboutTheRecord]),
        confidence: { level: 'none', basis: 'No comparison is made.' },
      });
    }

    const states = await latestStates(db, productIds);
    const lines = await declaredLines(db, [...states.values()].map((s) => s.state_id));
    const prices = preferredPrices(await newestPricePerBasis(db, productIds));

    const servings = prices.map((p) => ({ p, servings: servingsFor(p, states.get(p.product_id) ?? null) }));
    const calculations = servings.map(({ p, servings: s }) => pricePerServing(p, s));
    const comparison = sideBySide(products, states, lines);
    const notComparable = products.filter((p) => states.get(p.product_id)?.classification !== 'comparable');
    const mixedUnits = comparison.ingredients.some((row) => new Set(row.declared.filter((d) => d.unit).map((d) => d.unit)).size > 1);
    const boundedCells = comparison.ingredients.reduce((n, row) => n + row.declared.filter((d) => d.declared && d.operator !== undefined).length, 0);

    return answered(ctx, record, productIds, {
      capability,
      status: notComparable.length > 0 || prices.length === 0 ? 'partial' : 'supported',
      summary: `Declared doses of ${products.length} products side by side from their latest label states, with price per serving as a calculation; no winner is named.`,
      products: products.map(productIdentity),
      comparison,
      commercial_facts: prices.map(commercialFact),
      calculations,
      limitations: distinct([
        demo && limitation.demoData,
        limitation.doseComparison,
        limitation.undisclosedNotAbsent,
        comparison.ingredients.some((row) => row.declared.some((d) => d.declared && d.amount === null)) &&
          'Some declared ingredients have no amount of their own (amount null, for example inside a proprietary blend); they are not compared as zero.',
        boundedCells > 0 && limitation.boundedAmounts(boundedCells),
        comparison.ingredients.some((row) => row.declared.some((d) => d.declared && d.amount === 0 && d.operator === undefined)) &&
          'Some declared ingredients are declared as 0 (amount 0): the label states zero, a declared amount compared as such, not an undisclosed one.',
        mixedUnits && limitation.unitsAsDeclared,
        ...notComparable.map((p) => `${p.brand_name} ${p.name}: its latest label state is not comparable (${states.get(p.product_id)?.classification ?? 'no state'}), so its amounts may be missing.`),
        ...products.filter((p) => p.retired_on !== null).map(limitation.retired),
        calculations.length > 0 && limitation.pricePerServing,
        calculations.length > 0 && limitation.promotionalIsNotAChange,
        servings.some((s) => s.servings.derived) && limitation.servingsDerived,
        calculations.length > 0 &&
          "Each product's price per serving uses its newest list price; a product with no list price in the Record uses its newest observed price, and the calculation names that basis.",
        ...products.filter((p) => !prices.some((x) => x.product_id === p.product_id)).map((p) => `${p.brand_name} ${p.name}: the Record holds no price observation, so no price per serving is calculated.`),
      ]),
      confidence:
        notComparable.length === 0
          ? { level: 'high', basis: 'Every product has a comparable latest label state; amounts are as declared.' }
          : { level: 'medium', basis: 'At least one product has no comparable latest label state.' },
    });
  });
};

/** One price per product, so the comparison puts like beside like: its newest list price, else its newest price of any basis. */
function preferredPrices(newestPerBasis: PriceRow[]): PriceRow[] {
  const chosen = new Map<string, PriceRow>();
  for (const row of newestPerBasis) {
    const seen = chosen.get(row.product_id);
    if (!seen || (row.price_basis === 'list' && seen.price_basis !== 'list') || (seen.price_basis !== 'list' && row.observed_at > seen.observed_at)) {
      chosen.set(row.product_id, row);
    }
  }
  return [...chosen.values()];
}

interface DeclaredCell {
  product_id: string;
  declared: boolean;
  declared_name: string | null;
  amount: number | null;
  unit: string | null;
  /** Present only where the label states the amount as a bound ("<1 g"; decision 2430). */
  operator?: DeclaredOperator;
  blend: string | null;
}

/**
 * One row per ingredient any of the products declares (by ingredient id, or
 * by normalised declared name when the Record has not mapped it), one cell
 * per product. A product that does not declare it gets `declared: false`
 * with amount null: undisclosed, never zero. Rows follow label order of the
 * first product that declares them; there is no ranking.
 */
function sideBySide(products: ProductRow[], states: Map<string, StateRow>, lines: DeclaredRow[]) {
  const rows = new Map<string, { ingredient_id: string | null; name: string; cells: Map<string, DeclaredRow> }>();
  for (const product of products) {
    const state = states.get(product.product_id);
    if (!state) continue;
    for (const line of lines) {
      if (line.state_id !== state.state_id || line.row_kind !== 'ingredient') continue;
      const byName = `name:${normalizeName(line.declared_name)}`;
      let key = line.ingredient_id ?? byName;
      // A label may declare one ingredient on two lines ("Caffeine Anhydrous" and "Caffeine Citrate"): the second
      // gets a row of its own, by its printed name, so no declared line is left out.
      if (line.ingredient_id && rows.get(key)?.cells.has(product.product_id)) key = `${line.ingredient_id}|${byName}`;
      const second = key !== line.ingredient_id && line.ingredient_id !== null;
      const row = rows.get(key) ?? { ingredient_id: line.ingredient_id, name: second ? line.declared_name : (line.ingredient_name ?? line.declared_name), cells: new Map() };
      if (!row.cells.has(product.product_id)) row.cells.set(product.product_id, line);
      rows.set(key, row);
    }
  }
  return {
    basis: "Amounts per serving as declared on each product's latest label state, in the label's own units.",
    states: products.map((p) => {
      const s = states.get(p.product_id);
      return s
        ? { product_id: p.product_id, state_id: s.state_id, observed_from: s.observed_from, observed_to: s.observed_to, classification: s.classification }
        : { product_id: p.product_id, state_id: null, observed_from: null, observed_to: null, classification: null };
    }),
    serving: products.map((p) => {
      const s = states.get(p.product_id);
      return {
        product_id: p.product_id,
        serving_size: s?.serving_size ?? null,
        serving_unit: s?.serving_unit ?? null,
        servings_per_container: s?.servings_per_container ?? null,
        description: s?.serving_description ?? null,
      };
    }),
    ingredients: [...rows.values()].map((row) => ({
      ingredient_id: row.ingredient_id,
      name: row.name,
      declared: products.map((p): DeclaredCell => {
        const line = row.cells.get(p.product_id);
        return line
          ? { product_id: p.product_id, declared: true, declared_name: line.declared_name, amount: line.amount, unit: line.unit, ...bound(line.operator), blend: line.blend_name }
          : { product_id: p.product_id, declared: false, declared_name: null, amount: null, unit: null, blend: null };
      }),
    })),
    blends: lines
      .filter((l) => l.row_kind === 'blend')
      .map((l) => ({ product_id: products.find((p) => states.get(p.product_id)?.state_id === l.state_id)?.product_id ?? null, name: l.declared_name, total_amount: l.amount, total_unit: l.unit })),
    note: 'Not declared means not on the label as captured (undisclosed), not absent from the product.',
  };
}
