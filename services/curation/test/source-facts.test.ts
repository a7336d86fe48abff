import { describe, expect, it } from 'vitest';
import { SourceFacts } from '@evidence-record/curation';

/** A capture bundle's source facts: the label statements it may carry (decision 2420), within the monitor's own limits. */
describe('source facts of a capture bundle', () => {
  const statement = { type: 'Formula re: Contains', text: 'Each serving supplies 200 mg of caffeine.' };

  it('carry label statements, and none when the bundle gives none', () => {
    expect(SourceFacts.parse({ dsld_label_id: 14168, statements: [statement] }).statements).toEqual([statement]);
    expect(SourceFacts.parse({ dsld_label_id: 14168 }).statements).toEqual([]);
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
});
