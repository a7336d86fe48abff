import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, editionHash } from '@evidence-record/contract';
import { buildDemoRecord, defaultReleaseDate, describeFormulaChange, describeServingChange } from './build';
import { label, blend, serving } from './label';
import { normalizeName } from '@evidence-record/record-store';
import { stableId } from './ids';

describe('normalizeName', () => {
  it('folds case, accents, punctuation, spacing and ampersands', () => {
    expect(normalizeName('Pre-Workout')).toBe('pre workout');
    expect(normalizeName('  PRE–WORKOUT!! ')).toBe('pre workout');
    expect(normalizeName('Drumlin & Vane')).toBe('drumlin and vane');
    expect(normalizeName('Crème  Brûlée')).toBe('creme brulee');
    expect(normalizeName('Citrulline Malate 2:1')).toBe('citrulline malate 2 1');
    expect(normalizeName('β-Alanine')).toBe('β alanine');
    expect(normalizeName('IV Surge')).not.toBe(normalizeName('IV Surge Stim-Free'));
  });

  it('is idempotent and never leaves double or edge spaces', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const n = normalizeName(s);
        return normalizeName(n) === n && !/ {2}|^ | $/.test(n) && n === n.toLowerCase();
      }),
    );
  });
});

describe('canonicalJson and editionHash', () => {
  it('sorts keys recursively and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: 'é' } })).toBe('{"a":{"c":"é","d":[3,{"x":2,"y":1}]},"b":1}');
  });

  it('gives the same hash whatever the key order, and a different one when a value changes', () => {
    const a = { edition_id: 'ed_2026_09', limitations: ['x'], n: 1.5 };
    const b = { n: 1.5, limitations: ['x'], edition_id: 'ed_2026_09' };
    expect(editionHash(a)).toBe(editionHash(b));
    expect(editionHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(editionHash({ ...a, n: 1.6 })).not.toBe(editionHash(a));
    expect(editionHash({ ...a, limitations: ['x', 'y'] })).not.toBe(editionHash(a));
  });

  it('survives a JSON round trip unchanged, as a jsonb round trip does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => canonicalJson(JSON.parse(JSON.stringify(v))) === canonicalJson(JSON.parse(canonicalJson(v)))),
    );
  });

  it('refuses values JSON cannot carry instead of changing them', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([undefined])).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });
});

describe('demo Record building blocks', () => {
  it('derives stable 12-character ids', () => {
    expect(stableId('product', 'ironvale-surge')).toBe(stableId('product', 'ironvale-surge'));
    expect(stableId('product', 'ironvale-surge')).toMatch(/^[0-9a-z]{12}$/);
    expect(stableId('product', 'ironvale-surge')).not.toBe(stableId('product', 'ironvale-surge-stim-free'));
  });

  it('describes formula and serving changes in the label’s words', () => {
    const before = label('Caffeine Anhydrous 300 mg', 'Beta-Alanine 3.2 g', 'Taurine 1 g', blend('Matrix', '8 g', 'L-Arginine', 'Betaine'));
    const after = label('Caffeine Anhydrous 325 mg', 'Beta-Alanine 3.2 g', 'Huperzine A', blend('Matrix', '7.5 g', 'L-Arginine'));
    expect(describeFormulaChange(before, after)).toBe(
      'Caffeine Anhydrous: 300 mg → 325 mg; Huperzine A added (named without an amount); Matrix (proprietary blend total): 8 g → 7.5 g; Betaine removed from Matrix; Taurine removed.',
    );
    expect(describeFormulaChange(before, before)).toBeNull();
    expect(describeServingChange(serving(14.5, 'g', 30), serving(14.5, 'g', 25))).toBe('Servings per container: 30 → 25.');
  });

  it('releases on the first Tuesday a week after the window closes', () => {
    expect(defaultReleaseDate('2026-05-12')).toBe('2026-05-19');
    expect(defaultReleaseDate('2026-05-13')).toBe('2026-05-26');
  });

  it('builds the same Record twice', () => {
    expect(canonicalJson(buildDemoRecord())).toBe(canonicalJson(buildDemoRecord()));
  });
});
