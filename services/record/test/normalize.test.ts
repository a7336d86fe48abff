import { describe, expect, it } from 'vitest';
import { normalizeName } from '../src/domain/normalize';
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
