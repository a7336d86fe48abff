import { describe, expect, it } from 'vitest';
import { changeLines, countedNoun, deriveServings, netContentsText, type LabelSide } from '../src';

/**
 * Servings per container derived from net contents (decision 2410). The
 * net contents and serving sizes below are those of real DSLD labels kept in
 * services/monitor/test/fixtures/dsld-real (ids named; units after the
 * Record's reading, "Gram(s)" as "g").
 */
describe('deriveServings', () => {
  const serving = (size: number | null, unit: string) => ({ size, unit });

  it('divides a count of one dose form by the serving of it, across adjectives and plurals', () => {
    expect(deriveServings(serving(1, 'Caplet(s)'), [{ quantity: 60, unit: 'Caplet(s)' }])?.value).toBe(60); // 19173
    expect(deriveServings(serving(1, 'Vegetarian Capsule(s)'), [{ quantity: 60, unit: 'Vegetable Capsule(s)' }])?.value).toBe(60); // 214982
    expect(deriveServings(serving(1, 'Enteric-Coated Tablet(s)'), [{ quantity: 30, unit: 'Enteric-Coated Tablet(s)' }])?.value).toBe(30); // 184004
    expect(deriveServings(serving(1, 'Capsule(s)'), [{ quantity: 240, unit: 'Veggie Cap(s)' }])?.value).toBe(240); // 59952 declares 240
    expect(deriveServings(serving(2, 'Gummy(ies)'), [{ quantity: 40, unit: 'Gummy(ies)' }])?.value).toBe(20); // 230132 declares 20
    expect(deriveServings(serving(4, 'Tablet(s)'), [{ quantity: 240, unit: 'Tablet(s)' }])).toEqual({
      value: 60, // 18416 declares 60
      net_contents: { quantity: 240, unit: 'Tablet(s)' },
      serving_size: 4,
      serving_unit: 'Tablet(s)',
    });
  });

  it('agrees with every real label that declares servings and counts a dose form', () => {
    // [label, serving size, serving unit, net contents, declared servingsPerContainer]
    const declared: Array<[number, number, string, number, string, number]> = [
      [12196, 2, 'Caplet(s)', 80, 'Coated Caplet(s)', 40],
      [179343, 2, 'Caplet(s)', 60, 'Caplet(s)', 30],
      [184325, 1, 'Softgel Capsule(s)', 180, 'Sofgel Capsule(s)', 180],
      [219289, 2, 'Capsule(s)', 180, 'Capsule(s)', 90],
      [269317, 2, 'Capsule(s)', 500, 'Capsule(s)', 250],
      [318009, 2, 'Capsule(s)', 90, 'Capsule(s)', 45],
      [321944, 3, 'Capsule(s)', 90, 'Veggie Capsule(s)', 30],
      [333240, 4, 'Capsule(s)', 60, 'Vegan Capsule(s)', 15],
      [336948, 2, 'Capsule(s)', 120, 'Capsule(s)', 60],
    ];
    for (const [id, size, unit, quantity, netUnit, spc] of declared) {
      expect(deriveServings(serving(size, unit), [{ quantity, unit: netUnit }])?.value, String(id)).toBe(spc);
    }
  });

  it('never divides a mass or a volume: real powders say 30 where the quotient is 30.7, 29.3 or 48', () => {
    expect(deriveServings(serving(13, 'g'), [{ quantity: 14, unit: 'Ounce(s)' }, { quantity: 399, unit: 'g' }])).toBeNull(); // 307773: 30
    expect(deriveServings(serving(8.5, 'g'), [{ quantity: 408, unit: 'g' }])).toBeNull(); // 219819: 24 servings of two scoops
    expect(deriveServings(serving(9.4, 'g'), [{ quantity: 9.4, unit: 'g' }])).toBeNull(); // 15923: a single packet, by weight
    expect(deriveServings(serving(15, 'mL'), [{ quantity: 473, unit: 'mL' }])).toBeNull(); // 67304: 30
  });

  it('refuses what does not count the same thing, a range, a fraction or two answers', () => {
    expect(deriveServings(serving(1, 'Yellow Caplet(s)'), [{ quantity: 30, unit: 'Pak(s)' }])).toBeNull(); // 176168: a pack holds several
    expect(deriveServings(serving(4, 'Silver Capsule(s)'), [{ quantity: 30, unit: 'Pack(s)' }])).toBeNull(); // 19598
    expect(deriveServings(serving(null, 'Capsule(s)'), [{ quantity: 100, unit: 'Capsule(s)' }])).toBeNull(); // 74529: 1-2 capsules
    expect(deriveServings(serving(3, 'Capsule(s)'), [{ quantity: 100, unit: 'Vegan Capsule(s)' }])).toBeNull(); // 332924: 33.3 (it declares 16)
    expect(deriveServings(serving(2, 'Capsule(s)'), [{ quantity: 60, unit: 'Capsule(s)' }, { quantity: 90, unit: 'Capsule(s)' }])).toBeNull();
    expect(deriveServings(serving(2, 'Capsule(s)'), [{ quantity: 1, unit: 'Capsule(s)' }])).toBeNull();
    expect(deriveServings(serving(1, 'Capsule(s)'), [])).toBeNull();
    expect(deriveServings(null, [{ quantity: 60, unit: 'Capsule(s)' }])).toBeNull();
  });

  it('reads the dose form from the unit’s last noun, and nothing from a mass or a scoop', () => {
    expect(countedNoun('Veggie Cap(s)')).toBe('capsule');
    expect(countedNoun('Sofgel Capsule(s)')).toBe('capsule');
    expect(countedNoun('Gummy(ies)')).toBe('gummy');
    expect(countedNoun('tablets')).toBe('tablet');
    for (const u of ['g', 'Gram(s)', 'mg', 'Ounce(s)', 'mL', 'fl. Oz.', 'Scoop(s)', 'Serving(s)', '', null]) expect(countedNoun(u), String(u)).toBeNull();
  });
});

describe('net contents in change wording', () => {
  const side = (net: LabelSide['net_contents']): LabelSide => ({
    lines: [],
    blends: [],
    serving: { size: 1, unit: 'Capsule(s)', servings_per_container: null, description: null },
    off_market: false,
    net_contents: net,
  });

  it('names a change of net contents as a serving change', () => {
    expect(changeLines({ dimension: 'serving', before: side([{ quantity: 60, unit: 'Capsule(s)' }]), after: side([{ quantity: 90, unit: 'Capsule(s)' }]) })).toEqual([
      'Net contents: 60 Capsule(s) → 90 Capsule(s)',
    ]);
    expect(netContentsText([{ quantity: 1.2, unit: 'lb' }, { quantity: 540, unit: 'g' }])).toBe('1.2 lb; 540 g');
  });

  it('says nothing where a side was read before net contents were', () => {
    expect(changeLines({ dimension: 'serving', before: side([]), after: side([{ quantity: 90, unit: 'Capsule(s)' }]) })).toEqual([]);
    expect(changeLines({ dimension: 'serving', before: side(undefined), after: side([{ quantity: 90, unit: 'Capsule(s)' }]) })).toEqual([]);
  });
});
