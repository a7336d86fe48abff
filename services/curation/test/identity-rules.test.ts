import { describe, expect, it } from 'vitest';
import { normalizeName } from '@evidence-record/record-store';
import { bareName, identify, indexOfCatalogue, ingredientCatalogue, normaliseUnii, plainName, suggestionsFor, type CatalogueEntry } from '@evidence-record/curation';

/** The identity rules (decision 1500) on a small catalogue composed for the test, and on the catalogue the Record ships. */
const composed: CatalogueEntry[] = [
  { ingredient_id: 'ing_a', name: 'Alpha', kind: 'other', synonyms: ['Shared Name'], uniis: [{ unii: 'AAAAAAAAA1', source: 'test' }], groups: [{ group: 'Group One' }] },
  { ingredient_id: 'ing_b', name: 'Beta', kind: 'other', synonyms: ['Shared Name'], groups: [{ group: 'Group Two', form: 'Form B' }] },
  { ingredient_id: 'ing_c', name: 'Gamma', kind: 'other', groups: [{ group: 'Group Two', form: 'Form C' }, { group: 'Group Two' }] },
];
const index = indexOfCatalogue(composed);

describe('identity rules', () => {
  it('identifies by UNII first, then group and form, then the whole group, then the name and the name without its parentheses', () => {
    expect(identify({ declared_name: 'Beta', unii: 'aaaaaaaaa1', ingredient_group: 'Group Two', forms: ['Form B'] }, index)).toEqual({ ingredient_id: 'ing_a', identified_by: 'unii', ambiguous: [] });
    expect(identify({ declared_name: 'Alpha', ingredient_group: 'group two', forms: ['FORM B'] }, index)).toEqual({ ingredient_id: 'ing_b', identified_by: 'group', ambiguous: [] });
    expect(identify({ declared_name: 'Alpha', ingredient_group: 'Group Two', forms: ['Form X'] }, index)).toEqual({ ingredient_id: 'ing_c', identified_by: 'group', ambiguous: [] });
    expect(identify({ declared_name: 'Gamma', ingredient_group: 'Group Nine' }, index)).toEqual({ ingredient_id: 'ing_c', identified_by: 'name', ambiguous: [] });
    expect(identify({ declared_name: 'Alpha (as Alpha Citrate)' }, index)).toEqual({ ingredient_id: 'ing_a', identified_by: 'name', ambiguous: [] });
    expect(identify({ declared_name: 'Delta' }, index)).toEqual({ ingredient_id: null, identified_by: null, ambiguous: [] });
  });

  it('ignores DSLD placeholders ("0", "1", "") and anything not shaped like a UNII', () => {
    for (const v of ['0', '1', '', '  ', null, undefined, 'AAAAAAAAA', 'AAAAAAAAA1X', 'AAAA-AAAA1']) expect(normaliseUnii(v as string | null)).toBeNull();
    expect(normaliseUnii(' 3g6a5w338e ')).toBe('3G6A5W338E');
    expect(identify({ declared_name: 'Alpha', unii: '0', ingredient_group: 'Group Two', forms: ['Form B'] }, index).identified_by).toBe('group');
  });

  it('leaves a line that matches two ingredients unidentified, never guessed, and suggests both', () => {
    expect(identify({ declared_name: 'Shared Name' }, index)).toEqual({ ingredient_id: null, identified_by: null, ambiguous: ['ing_a', 'ing_b'] });
    // Two forms claimed by two ingredients: ambiguous too, even though the whole group names a third.
    expect(identify({ declared_name: 'x', ingredient_group: 'Group Two', forms: ['Form B', 'Form C'] }, index)).toEqual({ ingredient_id: null, identified_by: null, ambiguous: ['ing_b', 'ing_c'] });
    expect(suggestionsFor({ declared_name: 'Shared Name' }, index)).toEqual([
      { ingredient_id: 'ing_a', name: 'Alpha', by: 'ambiguous' },
      { ingredient_id: 'ing_b', name: 'Beta', by: 'ambiguous' },
    ]);
  });

  it('suggests, for a line it cannot identify, the ingredients its group holds or names', () => {
    expect(suggestionsFor({ declared_name: 'Unknown Salt', ingredient_group: 'Alpha', forms: [] }, index)).toEqual([{ ingredient_id: 'ing_a', name: 'Alpha', by: 'group' }]);
    expect(suggestionsFor({ declared_name: 'Unknown', ingredient_group: 'Nothing' }, index)).toEqual([]);
  });

  it('reads a name without the words that say how it was grown or prepared, after the name as printed, against names read the same way', () => {
    const grown = indexOfCatalogue([
      { ingredient_id: 'ing_beet', name: 'Beet Root Extract', kind: 'botanical', synonyms: ['Beet'] },
      { ingredient_id: 'ing_beet_greens', name: 'Beet Greens Powder', kind: 'botanical' },
      { ingredient_id: 'ing_mango', name: 'Mango', kind: 'botanical' },
      { ingredient_id: 'ing_x', name: 'Maca Powder', kind: 'botanical' },
      { ingredient_id: 'ing_y', name: 'Maca Extract', kind: 'botanical' },
    ]);
    expect(plainName('certified organic beet root powder')).toBe('beet root');
    expect(plainName('organic powder')).toBe('');
    for (const printed of ['organic Beet root powder', 'Beet Root, Micronized', 'certified organic Beet', 'Beet (Beta vulgaris) root extract', 'natural Beet Root Powdered', 'Beet Root Extract, Dry', 'Standardized Beet Root Extract']) {
      expect(identify({ declared_name: printed }, grown), printed).toEqual({ ingredient_id: 'ing_beet', identified_by: 'name', ambiguous: [] });
    }
    // The part of the plant stays: greens are not root.
    expect(identify({ declared_name: 'organic Beet Greens' }, grown).ingredient_id).toBe('ing_beet_greens');
    // A flavor is not the fruit: "flavor" is not a descriptor.
    expect(identify({ declared_name: 'natural Mango flavor' }, grown).ingredient_id).toBeNull();
    // Nothing but descriptors names nothing.
    expect(identify({ declared_name: 'Organic Extract' }, grown).ingredient_id).toBeNull();
    // A name printed exactly as one ingredient's is that ingredient, before any descriptor is dropped.
    expect(identify({ declared_name: 'Maca Powder' }, grown)).toEqual({ ingredient_id: 'ing_x', identified_by: 'name', ambiguous: [] });
    // Two ingredients that differ only by a descriptor: a name that could be either is left unidentified, never guessed.
    expect(identify({ declared_name: 'organic Maca' }, grown)).toEqual({ ingredient_id: null, identified_by: null, ambiguous: ['ing_x', 'ing_y'] });
  });

  it('strips nested parentheses from a name', () => {
    expect(bareName('Caffeine (from Coffee (Coffea arabica) Bean)').trim()).toBe('Caffeine');
  });
});

describe('the catalogue the Record ships', () => {
  const ids = ingredientCatalogue.map((e) => e.ingredient_id);
  it('has distinct ids, and no name, UNII or DSLD group (with form) that identifies two ingredients', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^ing_[a-z0-9_]{2,60}$/);
    const owner = new Map<string, string>();
    const claim = (key: string, id: string) => {
      const prior = owner.get(key);
      expect(prior === undefined || prior === id, `${key}: ${prior} and ${id}`).toBe(true);
      owner.set(key, id);
    };
    for (const e of ingredientCatalogue) {
      for (const n of [e.name, ...(e.synonyms ?? [])]) claim(`name:${normalizeName(n)}`, e.ingredient_id);
      for (const u of e.uniis ?? []) claim(`unii:${u.unii}`, e.ingredient_id);
      for (const g of e.groups ?? []) claim(`group:${normalizeName(g.group)}:${normalizeName(g.form ?? '')}`, e.ingredient_id);
    }
  });

  it('has no two ingredients whose names differ only by descriptors, so the descriptor rule never leaves a name ambiguous', () => {
    const owner = new Map<string, string>();
    for (const e of ingredientCatalogue) {
      for (const n of [e.name, ...(e.synonyms ?? [])]) {
        const plain = plainName(normalizeName(n));
        if (!plain) continue;
        const prior = owner.get(plain);
        expect(prior === undefined || prior === e.ingredient_id, `${n} (${plain}): ${prior} and ${e.ingredient_id}`).toBe(true);
        owner.set(plain, e.ingredient_id);
      }
      // And no name of its own is only descriptors.
      expect(plainName(normalizeName(e.name)), e.name).not.toBe('');
    }
  });

  it('cites where every UNII came from: a real DSLD label row, or a recorded answer of FDA GSRS', () => {
    for (const e of ingredientCatalogue) {
      for (const u of e.uniis ?? []) {
        expect(u.unii, e.ingredient_id).toMatch(/^[0-9A-Z]{10}$/);
        expect(u.source, `${e.ingredient_id} ${u.unii}`).toMatch(/^(DSLD label \d+, ".+" uniiCode \(services\/monitor\/test\/fixtures\/dsld-real\/\d+\.json\)|FDA GSRS: .+ \(answer recorded in github\.com\/seancheick\/PharmaGuide_Pipeline reports\/\w+\/per_parent\/[\w-]+\.json @ [0-9a-f]{40}\))$/);
        expect(u.source.length).toBeLessThanOrEqual(400);
      }
    }
  });

  it('keeps every ingredient id the demo Record and its research and regulatory records use', () => {
    for (const id of ['ing_caffeine', 'ing_beta_alanine', 'ing_l_citrulline', 'ing_citrulline_malate', 'ing_creatine_monohydrate', 'ing_betaine_anhydrous', 'ing_l_theanine', 'ing_l_tyrosine',
      'ing_n_acetyl_l_tyrosine', 'ing_taurine', 'ing_l_arginine', 'ing_agmatine_sulfate', 'ing_l_carnitine_l_tartrate', 'ing_sodium_nitrate', 'ing_beetroot_extract', 'ing_alpha_gpc', 'ing_huperzine_a',
      'ing_black_pepper_extract', 'ing_glycerol', 'ing_sodium_bicarbonate', 'ing_niacin', 'ing_vitamin_b6', 'ing_vitamin_b12', 'ing_sodium', 'ing_potassium', 'ing_dmaa', 'ing_dmha', 'ing_bmpea', 'ing_phenibut']) {
      expect(ids, id).toContain(id);
    }
  });
});
