import { describe, expect, it } from 'vitest';
import { durationMs, parseStages, splitSequence, splitSet } from '../../load-tests/lib/lists';

/**
 * The k6 scenarios' list settings (load-tests/lib/lists.ts). Issue 18:
 * STRESS_STAGES went through a de-duplicating list, so "100:1m,100:3m,
 * 100:1m,100:3m" ran half as long as asked.
 */
describe('STRESS_STAGES', () => {
  it('keeps every stage, repeats included, in order', () => {
    const stages = parseStages(splitSequence('100:1m, 100:3m,100:1m,100:3m,0:30s'));
    expect(stages.map((s) => `${s.target}:${s.duration}`)).toEqual(['100:1m', '100:3m', '100:1m', '100:3m', '0:30s']);
    expect(stages.at(-1)!.endsAtMs).toBe(durationMs('8m30s'));
  });

  it('tags each stage by its position, so a repeated stage has its own thresholds', () => {
    const tags = parseStages(splitSequence('50:1m,50:1m,50:1m,50:1m,50:1m,50:1m,50:1m,50:1m,50:1m,50:1m')).map((s) => s.tag);
    expect(new Set(tags).size).toBe(10);
    expect(tags[0]).toBe('s01_50rps');
    expect(tags[9]).toBe('s10_50rps');
  });

  it('refuses an entry that is not target:duration', () => {
    for (const bad of ['100', '100:', 'x:1m', '-1:1m', '100:1 minute', '1.5:1m', '100:1m:2m']) expect(() => parseStages([bad]), bad).toThrow();
  });
});

describe('lists', () => {
  it('a sequence keeps duplicates; a set drops them; both drop empty entries', () => {
    expect(splitSequence('a,,b, a ,b')).toEqual(['a', 'b', 'a', 'b']);
    expect(splitSet('a,,b, a ,b')).toEqual(['a', 'b']);
    expect(splitSequence(undefined)).toEqual([]);
  });

  it('reads k6 durations', () => {
    expect([durationMs('90s'), durationMs('1m30s'), durationMs('500ms'), durationMs('2h')]).toEqual([90_000, 90_000, 500, 7_200_000]);
    expect(() => durationMs('1 minute')).toThrow();
  });
});
