import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeName } from '../src/domain/normalize';
import { normalizeName as seedNormalize } from '../../../scripts/demo-record/normalize';
import { brandSplits } from '../src/capabilities/resolve-product';

describe('normalizeName', () => {
  it('ignores case, accents, punctuation and spacing, and reads & as and', () => {
    expect(normalizeName('  PRE–WORKOUT ')).toBe('pre workout');
    expect(normalizeName('Pre-Workout')).toBe('pre workout');
    expect(normalizeName('pre   workout')).toBe('pre workout');
    expect(normalizeName('Café Crème')).toBe('cafe creme');
    expect(normalizeName('Drumlin & Vane')).toBe('drumlin and vane');
    expect(normalizeName('Drumlin&Vane')).toBe('drumlin and vane');
    expect(normalizeName('D&V Keystone')).toBe('d and v keystone');
    expect(normalizeName('Citrulline Malate 2:1')).toBe('citrulline malate 2 1');
    expect(normalizeName('!!!')).toBe('');
  });

  it('agrees with the rule the demo Record stored its *_norm columns with', () => {
    const samples = [
      'Ironvale Surge', 'IV Surge', 'Surge Stim-Free', 'Drumlin & Vane Original', 'D&V Cairn', 'Hollowmere Supply Co.',
      'β-Alanine', 'L-Alpha-Glycerylphosphorylcholine', '1,3-Dimethylamylamine (DMAA)', 'Vitamin B12 (as cyanocobalamin)',
      "Men's Pre", 'ＦＵＬＬＷＩＤＴＨ', 'Crème brûlée', 'ﬁne ligature', '  tabs\tand\nnewlines  ', 'émoji 💪 pump', 'İstanbul', 'straße',
    ];
    for (const s of samples) expect(normalizeName(s), s).toBe(seedNormalize(s));
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => normalizeName(s) === seedNormalize(s)));
  });
});

describe('brandSplits', () => {
  it('lists every split into a leading brand and a non-empty rest', () => {
    expect(brandSplits('drumlin and vane keystone')).toEqual([
      ['drumlin', 'and vane keystone'],
      ['drumlin and', 'vane keystone'],
      ['drumlin and vane', 'keystone'],
    ]);
    expect(brandSplits('surge')).toEqual([]);
  });
});
