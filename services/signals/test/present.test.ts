import { describe, expect, it } from 'vitest';
import { DEFAULT_SNAPSHOT_WINDOW_DAYS, MAX_SNAPSHOT_WINDOW_DAYS, Refusal } from '@evidence-record/contract';
import { differingIngredients, presentDeclaredIngredient, presentPrice, presentState, pricePerServing } from '../src/present';
import { resolveWindow } from '../src/capabilities/get-category-snapshot';
import { addDays, daysInclusive, isCalendarDate } from '@evidence-record/contract';
import { proportion } from '../src/proportion';
import type { DeclaredIngredientRow, PriceRow } from '../src/queries/evidence';

const row = (state: string, id: string | null, name: string, amount: number | null, unit: string | null = 'mg', blend: string | null = null, operator: string | null = null): DeclaredIngredientRow => ({
  state_id: state,
  position: 0,
  ingredient_id: id,
  declared_name: name,
  amount,
  unit,
  operator,
  blend,
});

describe('presentPrice', () => {
  const price: PriceRow = {
    observation_id: 7,
    product_id: 'prd_aaaaaaaaaaaa',
    retailer: 'Shelfwise',
    observed_at: '2026-07-15',
    price_cents: 6999,
    currency: 'USD',
    price_basis: 'list',
    servings_per_container: null,
    state_servings_per_container: 60,
    state_serving_size: 1,
    state_serving_unit: 'Capsule(s)',
    state_net_contents: [],
    source_url: 'https://shelfwise.example/p/variant-flow',
    source_variant: null,
    source_kind: 'offer_page',
    source_readable: true,
  };
  it("names the page's variant only when the observation's source reads one (explain_signal's list prices, as the product record)", () => {
    expect(presentPrice(price)).toEqual({
      kind: 'price_observation',
      product_id: 'prd_aaaaaaaaaaaa',
      observed_at: '2026-07-15',
      retailer: 'Shelfwise',
      price: { amount: 69.99, currency: 'USD' },
      price_basis: 'list',
      servings_per_container: 60,
      source_url: 'https://shelfwise.example/p/variant-flow',
    });
    expect(presentPrice({ ...price, source_variant: 'VF-60' })).toMatchObject({ offer_variant: 'VF-60' });
  });

  it('divides by servings derived from net contents where the matched label declares none, and says so (decision 2410)', () => {
    const undeclared = { ...price, state_servings_per_container: null, state_net_contents: [{ quantity: 120, unit: 'Capsule(s)' }] };
    const calc = pricePerServing(undeclared);
    expect(calc.result).toBe(0.5832);
    expect(calc.operands[1]).toEqual({
      name: 'servings_per_container',
      value: 120,
      unit: 'servings',
      source: 'derived from the declared serving configuration: net contents 120 Capsule(s) ÷ serving size 1 Capsule(s)',
    });
    expect(calc.note).toMatch(/declares no servings per container; 120 is the service's net contents/);
    // A declaration is used as it is; nothing derivable gives no figure.
    expect(pricePerServing(price)).toMatchObject({ result: 1.1665, note: null });
    expect(pricePerServing({ ...undeclared, state_net_contents: [{ quantity: 500, unit: 'g' }] })).toMatchObject({ result: null });
    // The commercial fact reports what is declared, never the derived figure.
    expect(presentPrice(undeclared).servings_per_container).toBeNull();
  });
});

describe('presentState', () => {
  const state = {
    state_id: 'hs_aaaaaaaaaaaa', product_id: 'prd_aaaaaaaaaaaa', observed_from: '2026-08-03', observed_to: '2026-08-05', classification: 'comparable' as const,
    serving_size: 1, serving_unit: 'Capsule(s)', servings_per_container: null, serving_description: null, note: null, declared_ingredient_count: 2, net_contents: [],
  };
  it('shows net contents beside the serving where the state holds them, and nothing where it holds none (decision 2410)', () => {
    expect(presentState(state)).not.toHaveProperty('net_contents');
    expect(presentState({ ...state, net_contents: [{ quantity: 90, unit: 'Vegetable Capsule(s)' }] }).net_contents).toEqual([{ quantity: 90, unit: 'Vegetable Capsule(s)' }]);
  });
});

describe('differingIngredients', () => {
  it('keeps only declarations the other side does not make identically', () => {
    const before = [row('a', 'ing_caffeine', 'Caffeine', 200), row('a', 'ing_beta_alanine', 'Beta-Alanine', 3.2, 'g'), row('a', 'ing_tyrosine', 'L-Tyrosine', 500)];
    const after = [row('b', 'ing_caffeine', 'Caffeine', 250), row('b', 'ing_beta_alanine', 'Beta-Alanine', 3.2, 'g'), row('b', 'ing_theanine', 'L-Theanine', 100)];
    const diff = differingIngredients(before, after);
    expect(diff.before.map((d) => `${d.ingredient_id}:${d.amount}`)).toEqual(['ing_caffeine:200', 'ing_tyrosine:500']);
    expect(diff.after.map((d) => `${d.ingredient_id}:${d.amount}`)).toEqual(['ing_caffeine:250', 'ing_theanine:100']);
  });

  it('treats an amount that becomes undisclosed (null) as a difference, never as zero', () => {
    const diff = differingIngredients([row('a', 'ing_caffeine', 'Caffeine', 200)], [row('b', 'ing_caffeine', 'Caffeine', null, null, 'Energy Blend')]);
    expect(diff.before).toHaveLength(1);
    expect(diff.after[0]!.amount).toBeNull();
  });

  it('matches unmapped declarations by normalised name', () => {
    const diff = differingIngredients([row('a', null, 'Black  Pepper Extract', 5)], [row('b', null, 'black pepper extract', 5)]);
    // Same key, but the declared text differs: shown on both sides.
    expect(diff.before).toHaveLength(1);
    const same = differingIngredients([row('a', null, 'Black Pepper Extract', 5)], [row('b', null, 'Black Pepper Extract', 5)]);
    expect(same).toEqual({ before: [], after: [] });
  });

  it('a bound that becomes an amount is a difference, and each side shows how its label states it (decision 2430)', () => {
    const diff = differingIngredients([row('a', null, 'Total Carbohydrates', 1, 'g', null, '<')], [row('b', null, 'Total Carbohydrates', 1, 'g')]);
    expect(diff.before.map((d) => presentDeclaredIngredient(d, '2026-03-01', null).value)).toEqual([
      { declared_name: 'Total Carbohydrates', amount: 1, unit: 'g', operator: '<', ingredient_id: null, blend: null, amount_disclosed: true },
    ]);
    expect(diff.after.map((d) => presentDeclaredIngredient(d, '2026-03-09', null).value)).toEqual([
      { declared_name: 'Total Carbohydrates', amount: 1, unit: 'g', ingredient_id: null, blend: null, amount_disclosed: true },
    ]);
    expect(differingIngredients([row('a', null, 'Sugar', 1, 'g', null, '<')], [row('b', null, 'Sugar', 1, 'g', null, '<')])).toEqual({ before: [], after: [] });
  });
});

describe('snapshot window', () => {
  const today = '2026-11-21';
  it(`defaults to the last ${DEFAULT_SNAPSHOT_WINDOW_DAYS} days ending today`, () => {
    const w = resolveWindow({}, today);
    expect(w).toEqual({ from: addDays(today, -(DEFAULT_SNAPSHOT_WINDOW_DAYS - 1)), to: today });
    expect(daysInclusive(w.from, w.to)).toBe(DEFAULT_SNAPSHOT_WINDOW_DAYS);
  });

  it(`accepts exactly ${MAX_SNAPSHOT_WINDOW_DAYS} days and refuses one more, naming the field`, () => {
    const from = addDays(today, -(MAX_SNAPSHOT_WINDOW_DAYS - 1));
    expect(resolveWindow({ from, to: today }, today)).toEqual({ from, to: today });
    try {
      resolveWindow({ from: addDays(from, -1), to: today }, today);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(Refusal);
      expect((err as Refusal).code).toBe('invalid_request');
      expect((err as Refusal).details.field).toBe('from');
    }
  });

  it('refuses a from after the default to', () => {
    expect(() => resolveWindow({ from: '2027-01-01' }, today)).toThrow(Refusal);
  });
});

describe('helpers', () => {
  it('proportion names its cohort and denominator and never divides by zero', () => {
    expect(proportion(3, 12, 'released Signals in window')).toEqual({ share: 0.25, numerator: 3, denominator: 12, cohort: 'released Signals in window' });
    expect(proportion(0, 0, 'x').share).toBeNull();
  });

  it('calendar dates are validated, not coerced', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-2-3')).toBe(false);
  });
});
