import { createHash } from 'node:crypto';
import { randomId } from '@evidence-record/contract';
import { createPool, withRecordChange, type Pool } from '@evidence-record/platform';
import { approveCandidate, importCaptures, openCandidate } from '@evidence-record/curation';
import { emptyDatabase } from './db';

/**
 * Fixtures made the way an operator makes them: catalogue rows (brands,
 * products, ingredients are outside curation) and then captures, candidates
 * and reviews through the curation functions themselves.
 */
export interface FixtureProduct {
  product_id: string;
  brand_id: string;
  name: string;
}

export async function createCatalogue(pool: Pool, opts: { brands?: number; productsPerBrand?: number } = {}): Promise<FixtureProduct[]> {
  const products: FixtureProduct[] = [];
  await withRecordChange(pool, 'test catalogue', async (client) => {
    await client.query(
      `INSERT INTO ingredients (ingredient_id, name) VALUES ('ing_caffeine', 'Caffeine'), ('ing_beta_alanine', 'Beta-Alanine'), ('ing_l_citrulline', 'L-Citrulline')
       ON CONFLICT DO NOTHING`,
    );
    for (let b = 0; b < (opts.brands ?? 2); b++) {
      const brandId = `brd_fixture_${b}_${randomId(4)}`;
      await client.query('INSERT INTO brands (brand_id, name, name_norm) VALUES ($1, $2, $3)', [brandId, `Fixture Brand ${b}`, `fixture brand ${b}`]);
      for (let p = 0; p < (opts.productsPerBrand ?? 2); p++) {
        const productId = `prd_${randomId()}`;
        const name = `Fixture Pre ${b}.${p}`;
        await client.query(
          `INSERT INTO products (product_id, brand_id, name, name_norm, form, depth_class) VALUES ($1, $2, $3, $4, 'powder', 'TRACKED')`,
          [productId, brandId, name, name.toLowerCase()],
        );
        products.push({ product_id: productId, brand_id: brandId, name });
      }
    }
  });
  return products;
}

/** An empty database of one test file's own, a small pool on it and a fixture catalogue in it. */
export interface CatalogueDatabase {
  pool: Pool;
  products: FixtureProduct[];
  /** Ends the pool and drops the database. */
  close: () => Promise<void>;
}

/** What the curation tests start from: a private, migrated, empty database holding only a fixture catalogue. */
export async function catalogueDatabase(catalogue: { brands?: number; productsPerBrand?: number }): Promise<CatalogueDatabase> {
  const db = await emptyDatabase();
  const pool = createPool(db.url, { max: 4 });
  const close = async () => {
    await pool.end();
    await db.drop();
  };
  const products = await createCatalogue(pool, catalogue).catch(async (err: unknown) => {
    await close();
    throw err;
  });
  return { pool, products, close };
}

export const preservedPath = (productId: string, date: string) => `s3://preserved-sources/${productId}/${date}.html`;
export const preservedHash = (productId: string, date: string) => createHash('sha256').update(`${productId}@${date}`).digest('hex');

export interface LabelSpec {
  caffeineMg: number;
  betaAlanineG?: number;
  servingsPerContainer?: number;
  blend?: boolean;
}

export function labelCapture(product: FixtureProduct, date: string, spec: LabelSpec, prices: Array<{ retailer: string; price_cents: number; basis: 'list' | 'promotional' }> = []) {
  return {
    product_id: product.product_id,
    source: { kind: 'manufacturer' as const, url: `https://fixture.example/${product.product_id}`, retailer: null },
    observed_at: `${date}T10:00:00Z`,
    preserved: { path: preservedPath(product.product_id, date), sha256: preservedHash(product.product_id, date) },
    label: {
      classification: 'comparable' as const,
      serving: { size: 10, unit: 'g', servings_per_container: spec.servingsPerContainer ?? 30, description: '1 scoop' },
      blends: spec.blend ? [{ name: 'Energy Matrix', total_amount: 1, total_unit: 'g' }] : [],
      ingredients: [
        { declared_name: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine', amount: spec.caffeineMg, unit: 'mg' },
        { declared_name: 'Beta-Alanine', ingredient_id: 'ing_beta_alanine', amount: spec.betaAlanineG ?? 3.2, unit: 'g' },
        ...(spec.blend ? [{ declared_name: 'L-Citrulline', ingredient_id: 'ing_l_citrulline', amount: null, unit: null, blend: 'Energy Matrix' }] : []),
      ],
    },
    prices,
  };
}

export function priceCapture(product: FixtureProduct, date: string, retailer: string, price_cents: number, basis: 'list' | 'promotional', servings = 30) {
  return {
    product_id: product.product_id,
    source: { kind: 'retailer' as const, url: `https://${retailer}.example/p/${product.product_id}`, retailer },
    observed_at: date,
    preserved: { path: preservedPath(product.product_id, `${date}-${retailer}`), sha256: preservedHash(product.product_id, `${date}-${retailer}`) },
    prices: [{ retailer, price_cents, basis, servings_per_container: servings }],
  };
}

const day = (start: string, offset: number) => {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

/**
 * For each product, `changes` formula changes: labels captured every 7 days
 * from `start` with a new caffeine amount each time, each consecutive pair
 * opened as a candidate and approved. Returns the approved (unreleased)
 * Signal ids and the candidate ids.
 */
export async function approvedFormulaChanges(
  pool: Pool,
  products: FixtureProduct[],
  changes: number,
  start = '2026-01-05',
): Promise<{ signal_ids: string[]; candidate_ids: number[]; states: Map<string, string[]> }> {
  const captures = products.flatMap((p, pi) => Array.from({ length: changes + 1 }, (_, k) => labelCapture(p, day(start, k * 7 + pi), { caffeineMg: 150 + 10 * k })));
  const imported = await importCaptures(pool, { captures });
  const states = new Map<string, string[]>();
  const { rows } = await pool.query<{ product_id: string; state_id: string }>(
    'SELECT product_id, state_id FROM history_states WHERE state_id = ANY($1::text[]) ORDER BY observed_from',
    [imported.states_created],
  );
  for (const r of rows) states.set(r.product_id, [...(states.get(r.product_id) ?? []), r.state_id]);
  const signal_ids: string[] = [];
  const candidate_ids: number[] = [];
  for (const p of products) {
    const s = states.get(p.product_id)!;
    for (let k = 1; k < s.length; k++) {
      const { candidate_id } = await openCandidate(pool, {
        product_id: p.product_id,
        dimension: 'formula',
        before_state_id: s[k - 1],
        after_state_id: s[k],
        summary: `Caffeine Anhydrous: ${150 + 10 * (k - 1)} mg → ${150 + 10 * k} mg.`,
      });
      const { signal_id } = await approveCandidate(pool, { candidate_id, reviewer: 'fixture-reviewer', note: 'read both labels line by line (review note)' });
      candidate_ids.push(candidate_id);
      signal_ids.push(signal_id);
    }
  }
  return { signal_ids, candidate_ids, states };
}
