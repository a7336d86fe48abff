import { describe, expect, it } from 'vitest';
import { SUMMARY_MAX, amountText, changeLines, changeSummary, type LabelSide } from '../src/change-wording';
import type { DeclaredLine } from '../src/declarations';

/** The one wording of a change: a candidate's derived summary and the alert email's "Before → after" lines (decision 1600). */
const line = (declared_name: string, amount: number | null, unit: string | null, ingredient_id: string | null = null, blend: string | null = null, operator: string | null = '='): DeclaredLine => ({
  declared_name,
  amount,
  unit,
  ingredient_id,
  blend,
  operator,
});
const label = (lines: DeclaredLine[], over: Partial<LabelSide> = {}): LabelSide => ({ lines, blends: [], serving: { size: 10, unit: 'g', servings_per_container: 30, description: '1 scoop' }, off_market: false, ...over });

describe('changeLines and changeSummary', () => {
  it('words the issue\'s example: an amount changed and an ingredient added', () => {
    const before = label([line('Caffeine Anhydrous', 200, 'mg', 'ing_caffeine')]);
    const after = label([line('Caffeine Anhydrous', 225, 'mg', 'ing_caffeine'), line('Beta-Alanine', 3.2, 'g', 'ing_beta_alanine')]);
    const lines = changeLines({ dimension: 'formula', before, after });
    expect(lines).toEqual(['Caffeine Anhydrous: 200 mg → 225 mg', 'Beta-Alanine added (3.2 g)']);
    expect(changeSummary(lines, 'fallback')).toBe('Caffeine Anhydrous: 200 mg → 225 mg; Beta-Alanine added (3.2 g)');
  });

  it('a declared zero is "0 mg", an amount not given is "no amount declared", and a name no longer printed is not "removed"', () => {
    expect(amountText({ amount: 0, unit: 'mg' })).toBe('0 mg');
    expect(amountText({ amount: null, unit: null })).toBe('no amount declared');
    expect(amountText({ amount: 5, unit: 'mg', operator: '<' })).toBe('< 5 mg');
    const lines = changeLines({
      dimension: 'formula',
      before: label([line('Sodium', 15, 'mg'), line('Taurine', 1, 'g'), line('L-Citrulline', 2, 'g')]),
      after: label([line('Sodium', 0, 'mg'), line('L-Citrulline', null, null, null, 'Pump Blend')], { blends: [{ name: 'Pump Blend', total_amount: 4, total_unit: 'g' }] }),
    });
    expect(lines).toEqual([
      'Sodium: 15 mg → 0 mg',
      'L-Citrulline: 2 g → no amount declared (in Pump Blend)',
      'Taurine no longer declared (was 1 g)',
      'Pump Blend added (total 4 g)',
    ]);
    expect(lines.join(' ')).not.toMatch(/removed/);
  });

  it('names a renamed declaration of one ingredient once, and a blend total that changed', () => {
    const lines = changeLines({
      dimension: 'formula',
      before: label([line('Caffeine', 200, 'mg', 'ing_caffeine')], { blends: [{ name: 'Focus Matrix', total_amount: null, total_unit: null }] }),
      after: label([line('Caffeine Anhydrous', 200, 'mg', 'ing_caffeine')], { blends: [{ name: 'Focus Matrix', total_amount: 13, total_unit: 'mg' }] }),
    });
    expect(lines).toEqual(['Caffeine Anhydrous (was declared as Caffeine): 200 mg', 'Focus Matrix total: no amount declared → 13 mg']);
  });

  it('words serving, identity and price changes by their own dimension', () => {
    const before = label([line('Caffeine', 200, 'mg')]);
    const after = label([line('Caffeine', 250, 'mg')], { serving: { size: 12, unit: 'g', servings_per_container: 25, description: '1 scoop' }, off_market: true });
    expect(changeLines({ dimension: 'serving', before, after })).toEqual(['Serving: 1 scoop (10 g) → 1 scoop (12 g)', 'Servings per container: 30 → 25']);
    expect(changeLines({ dimension: 'identity', before, after })).toEqual(['Now marked off the market by its source']);
    expect(changeLines({ dimension: 'price', before: null, after: null, prices: { before: { price_cents: 4999, retailer: 'Shelfwise' }, after: { price_cents: 5499, retailer: 'Shelfwise' } } })).toEqual([
      'List price at Shelfwise: $49.99 → $54.99',
    ]);
  });

  it('fits a long change in the summary limit with a count of the rest, one plain line, and falls back when nothing applies', () => {
    const many = Array.from({ length: 40 }, (_, i) => `Ingredient number ${i}: ${i} mg → ${i + 1} mg`);
    const summary = changeSummary(many, 'fallback');
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(summary).toMatch(/; and \d+ more changes$/);
    expect(changeSummary(['Tab\there: 1 mg → 2 mg'], 'fallback')).toBe('Tab here: 1 mg → 2 mg');
    expect(changeSummary([], 'The declared formula differs')).toBe('The declared formula differs');
  });
});
