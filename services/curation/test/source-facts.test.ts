import { describe, expect, it } from 'vitest';
import { LabelInput, SourceFacts } from '@evidence-record/curation';

/** A capture bundle's source facts: the label statements and other ingredients it may carry (decision 2420), within the monitor's own limits; and the % Daily Value a declared line may carry (decision 2440). */
describe('source facts of a capture bundle', () => {
  const statement = { type: 'Formula re: Contains', text: 'Each serving supplies 200 mg of caffeine.' };

  it('carry label statements, and none when the bundle gives none', () => {
    expect(SourceFacts.parse({ dsld_label_id: 14168, statements: [statement] }).statements).toEqual([statement]);
    expect(SourceFacts.parse({ dsld_label_id: 14168 }).statements).toEqual([]);
  });

  it('carry other ingredients with the forms listed under each, and none when the bundle gives none', () => {
    const other = [{ name: 'Contains 2% or less of', forms: ['Sucralose'] }, { name: 'Citric Acid' }];
    expect(SourceFacts.parse({ other_ingredients: other }).other_ingredients).toEqual([{ name: 'Contains 2% or less of', forms: ['Sucralose'] }, { name: 'Citric Acid', forms: [] }]);
    expect(SourceFacts.parse({}).other_ingredients).toEqual([]);
    for (const other_ingredients of [[{ name: ' ' }], [{ name: 'x', forms: [''] }], [{ name: 'x', amount: 1 }], Array.from({ length: 61 }, () => ({ name: 'x' })), [{ name: 'x', forms: Array.from({ length: 41 }, () => 'y') }]]) {
      expect(SourceFacts.safeParse({ other_ingredients }).success, JSON.stringify(other_ingredients).slice(0, 80)).toBe(false);
    }
  });

  it('refuse a statement that is empty, too long, has a property of its own or is one too many', () => {
    for (const statements of [
      [{ type: 'Formula re: Contains', text: '   ' }],
      [{ type: '', text: 'x' }],
      [{ type: 'Formula re: Contains', text: 'x'.repeat(2001) }],
      [{ ...statement, note: 'mine' }],
      Array.from({ length: 41 }, () => statement),
    ]) {
      expect(SourceFacts.safeParse({ statements }).success, JSON.stringify(statements).slice(0, 80)).toBe(false);
    }
    expect(SourceFacts.safeParse({ statements: Array.from({ length: 40 }, () => statement) }).success).toBe(true);
  });

  it('a declared line may carry the % Daily Value printed beside it (decision 2440); none given is none read', () => {
    const label = (daily_values?: unknown) =>
      LabelInput.safeParse({
        classification: 'comparable',
        ingredients: [{ declared_name: 'Vitamin C', amount: null, ...(daily_values === undefined ? {} : { daily_values }) }],
      });
    const adults = 'Adults and children 4 or more years of age';
    const read = label([{ percent: 833, target_group: adults }, { percent: 1, operator: '<', target_group: null }, { percent: null, target_group: adults, note: 'Daily Value not established' }]);
    expect(read.success && read.data.ingredients[0]!.daily_values).toEqual([
      { percent: 833, target_group: adults },
      { percent: 1, operator: '<', target_group: null },
      { percent: null, target_group: adults, note: 'Daily Value not established' },
    ]);
    const none = label();
    expect(none.success && none.data.ingredients[0]!.daily_values).toBeNull();
    for (const bad of [[{ percent: -1, target_group: null }], [{ percent: 5, target_group: null, amount: 1 }], [{ percent: 5, operator: '=', target_group: null }], [{ percent: null, target_group: adults }], [{ percent: null, operator: '<', target_group: null, note: 'x' }], Array.from({ length: 5 }, () => ({ percent: 1, target_group: null }))]) {
      expect(label(bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
    }
  });
});
