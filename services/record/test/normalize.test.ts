import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { normalizeName } from '@evidence-record/record-store';
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
    expect(normalizeName("Men's Pre")).toBe('men s pre');
    expect(normalizeName('β-Alanine')).toBe('β alanine');
    expect(normalizeName('ＦＵＬＬ')).toBe('full');
    expect(normalizeName('!!!')).toBe('');
  });

  it('is idempotent and leaves only lowercase letters, digits and single inner spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        const n = normalizeName(s);
        return normalizeName(n) === n && !/^ | $| {2}/.test(n) && /^[\p{L}\p{N} ]*$/u.test(n) && n === n.toLowerCase();
      }),
    );
  });
});

describe('the Record stores names normalised with the same rule', () => {
  let db: TestDatabase;
  let sql: pg.Client;
  beforeAll(async () => {
    db = await demoDatabase();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('every brand name, product name, alias and ingredient synonym of the demo Record', async () => {
    const { rows } = await sql.query<{ text: string; norm: string }>(`
      SELECT name AS text, name_norm AS norm FROM brands
      UNION ALL SELECT name, name_norm FROM products
      UNION ALL SELECT alias, alias_norm FROM product_aliases
      UNION ALL SELECT synonym, synonym_norm FROM ingredient_synonyms`);
    expect(rows.length).toBeGreaterThan(100);
    for (const r of rows) expect(normalizeName(r.text), r.text).toBe(r.norm);
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
