import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { createRecordApp } from '@evidence-record/record';
import { importCaptures, reidentifyLines } from '@evidence-record/curation';
import { startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startInProcess, type InProcessService } from '@evidence-record/test-support/in-process';
import { UsageError, inProcessAdmin } from '@evidence-record/admin';
import { cliEnv } from '@evidence-record/admin/config';

/**
 * Ingredient identity curation (decision 1500, docs/curation.md), run
 * in-process exactly as `npm run -s admin` runs the verbs, against a real
 * Record (the demo Record, which holds the catalogue) and the record service
 * answering as a client reads it: a new identity reaches the lines already
 * read at a new record version, declared facts unchanged, and is never a
 * candidate or a Signal; every refusal writes nothing.
 */
let db: TestDatabase;
let pool: Pool;
let record: InProcessService;
let src: SourceServer;
let env: NodeJS.ProcessEnv;

const admin = inProcessAdmin(() => pool, () => env);

interface Fact {
  kind: string;
  value: { declared_name: string; amount: number | null; unit: string | null; ingredient_id: string | null };
}
async function productRecord(productId: string): Promise<{ record_version: string; facts: Fact[] }> {
  const res = await record.get(`/api/v1/products/${productId}`);
  expect(res.status).toBe(200);
  const body = res.body as unknown as { record_version: string; verified_facts: Fact[] };
  return { record_version: body.record_version, facts: body.verified_facts.filter((f) => f.kind === 'declared_ingredient') };
}

const counts = async () =>
  (
    await pool.query<{ v: string; candidates: number; signals: number; states: number; changes: number }>(
      `SELECT (SELECT max(version) FROM record_versions) AS v, (SELECT count(*)::int FROM candidates) AS candidates, (SELECT count(*)::int FROM signals) AS signals,
              (SELECT count(*)::int FROM history_states) AS states, (SELECT count(*)::int FROM ingredient_identity_changes) AS changes`,
    )
  ).rows[0]!;

/** A composed label (not a real one): two names the catalogue knows and two it does not. */
function capture(productId: string, day: string, extra: Record<string, unknown> = {}) {
  return {
    captures: [
      {
        product_id: productId,
        source: { kind: 'manufacturer', url: 'https://identity-test.example/pre', retailer: null },
        observed_at: day,
        preserved: { path: `captures/identity-${day}.json`, sha256: 'c'.repeat(64) },
        label: {
          classification: 'comparable',
          serving: { size: 10, unit: 'g', servings_per_container: 30, description: null },
          ingredients: [
            { declared_name: 'Caffeine Anhydrous', amount: 200, unit: 'mg' },
            { declared_name: 'Maral Root Extract', amount: 25, unit: 'mg', ...extra },
            { declared_name: 'Pikatropin', amount: 50, unit: 'mg' },
            { declared_name: 'L-Citrulline Malate', amount: 6, unit: 'g' },
          ],
        },
        prices: [],
      },
    ],
  };
}

beforeAll(async () => {
  db = await demoDatabase();
  pool = createPool(db.url, { max: 4 });
  src = await startSourceServer();
  // What a verb gets from the CLI's plumbing: the declared settings only (reading another fails the test).
  env = cliEnv({ DATABASE_URL: db.url, USER: 'dana', MONITOR_ALLOW_LOCALHOST: '1', MONITOR_HOST_INTERVAL_MS: '0', DSLD_BASE_URL: `${src.origin}/dsld/v9` });
  record = await startInProcess('record', db.url, (deps) => createRecordApp({ ...deps, publicBaseUrl: 'https://er.test' }));
});

afterAll(async () => {
  await record?.close();
  await src?.close();
  await pool?.end();
  await db?.drop();
});

describe('ingredient identity curation', () => {
  it('the demo Record is identified by the same rules that re-derive identity: re-deriving changes no line', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      expect(await reidentifyLines(client)).toBe(0);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    // The catalogue is there, with its sources, and a second application adds nothing and makes no record version.
    const before = await counts();
    expect(await admin('ingredient', 'catalogue')).toMatchObject({ ingredients_added: 0, names_added: 0, uniis_added: 0, groups_added: 0, record_version: null });
    expect((await counts()).v).toBe(before.v);
    const { rows } = await pool.query<{ source: string }>("SELECT source FROM ingredient_uniis WHERE unii = '3G6A5W338E' AND ingredient_id = 'ing_caffeine'");
    expect(rows[0]!.source).toMatch(/GSRS: CAFFEINE .*PharmaGuide_Pipeline/);
  });

  it('adds an ingredient and an alias: the lines already read are identified at a new record version, facts unchanged, never a candidate or a Signal', async () => {
    const productId = (await admin('product', 'add', '--brand', 'Identity Test', '--name', 'Maral Pre')).product_id as string;
    await importCaptures(pool, capture(productId, '2026-05-01'));

    const listed = (await admin('ingredient', 'list', '--unidentified')).names as Array<Record<string, unknown>>;
    expect(listed.find((n) => n.declared_name === 'Maral Root Extract')).toEqual({ declared_name: 'Maral Root Extract', count: 1, products: [productId], suggestions: [] });
    expect(listed.find((n) => n.declared_name === 'Pikatropin')).toMatchObject({ count: 1, products: [productId] });
    // Caffeine and citrulline malate were identified when the capture was imported.
    expect(listed.some((n) => n.declared_name === 'Caffeine Anhydrous' || n.declared_name === 'L-Citrulline Malate')).toBe(false);

    const first = await productRecord(productId);
    expect(first.facts.map((f) => [f.value.declared_name, f.value.ingredient_id])).toEqual([
      ['Caffeine Anhydrous', 'ing_caffeine'],
      ['Maral Root Extract', null],
      ['Pikatropin', null],
      ['L-Citrulline Malate', 'ing_citrulline_malate'],
    ]);
    const before = await counts();

    const added = await admin('ingredient', 'add', '--name', 'Maral Root (Rhaponticum carthamoides)', '--kind', 'botanical', '--unii', 'TESTUNII01', '--group', 'Maral Root');
    expect(added).toMatchObject({ ingredient_id: 'ing_maral_root_rhaponticum_carthamoides', name: 'Maral Root (Rhaponticum carthamoides)', kind: 'botanical', uniis: ['TESTUNII01'], groups: ['Maral Root'], lines_reidentified: 0 });
    expect(added.record_version).not.toBe(before.v);
    const aliased = await admin('ingredient', 'alias', '--ingredient', 'ing_maral_root_rhaponticum_carthamoides', '--name', 'Maral Root Extract');
    expect(aliased).toMatchObject({ ingredient_id: 'ing_maral_root_rhaponticum_carthamoides', lines_reidentified: 1 });
    expect(aliased.names).toEqual(['Maral Root (Rhaponticum carthamoides)', 'Maral Root Extract']);

    const after = await productRecord(productId);
    expect(after.record_version).toBe(aliased.record_version);
    expect(after.record_version > first.record_version).toBe(true);
    // What the label declares is unchanged; what one line is identified as is new.
    expect(after.facts.map((f) => ({ ...f.value, ingredient_id: null }))).toEqual(first.facts.map((f) => ({ ...f.value, ingredient_id: null })));
    expect(after.facts.find((f) => f.value.declared_name === 'Maral Root Extract')!.value.ingredient_id).toBe('ing_maral_root_rhaponticum_carthamoides');
    const now = await counts();
    expect({ candidates: now.candidates, signals: now.signals, states: now.states }).toEqual({ candidates: before.candidates, signals: before.signals, states: before.states });
    expect(now.changes).toBe(before.changes + 2);
    expect(((await admin('ingredient', 'list', '--unidentified')).names as Array<{ declared_name: string }>).some((n) => n.declared_name === 'Maral Root Extract')).toBe(false);

    // The same label read the next day is the same state again: identity is not part of what a label declares.
    const again = await importCaptures(pool, capture(productId, '2026-05-02'));
    expect(again).toMatchObject({ states_created: [], states_extended: [expect.any(String)] });
    // Even when the reading names another ingredient for a line than the state holds (a bundle may): same label, same state.
    const otherwise = await importCaptures(pool, capture(productId, '2026-05-03', { ingredient_id: 'ing_l_theanine' }));
    expect(otherwise).toMatchObject({ states_created: [], states_extended: again.states_extended });
    const listedIngredients = (await admin('ingredient', 'list')).ingredients as Array<Record<string, unknown>>;
    expect(listedIngredients.find((i) => i.ingredient_id === 'ing_maral_root_rhaponticum_carthamoides')).toMatchObject({ lines: 1, uniis: ['TESTUNII01'], groups: ['Maral Root'] });
  });

  it('suggests from a line\'s UNII or DSLD group, and never applies a suggestion on its own', async () => {
    const productId = (await admin('product', 'add', '--brand', 'Identity Test', '--name', 'Creatine Pre')).product_id as string;
    // A creatine row DSLD files under "Creatine" with a form the catalogue does not claim: not identified, the creatine the group holds suggested.
    const bundle = capture(productId, '2026-05-01');
    bundle.captures[0]!.label.ingredients.push({ declared_name: 'Creatine Pyruvate', amount: 1, unit: 'g', ingredient_group: 'Creatine', forms: ['Creatine Pyruvate'] } as never);
    await importCaptures(pool, bundle);
    const listed = (await admin('ingredient', 'list', '--unidentified')).names as Array<{ declared_name: string; suggestions: unknown[] }>;
    expect(listed.find((n) => n.declared_name === 'Creatine Pyruvate')!.suggestions).toEqual([{ ingredient_id: 'ing_creatine_monohydrate', name: 'Creatine Monohydrate', by: 'group' }]);
    const { rows } = await pool.query("SELECT ingredient_id, identified_by, ingredient_group, forms FROM declared_ingredients WHERE declared_name = 'Creatine Pyruvate'");
    expect(rows).toEqual([{ ingredient_id: null, identified_by: null, ingredient_group: 'Creatine', forms: ['Creatine Pyruvate'] }]);
  });

  it('compares products line by line when one label declares an ingredient on two lines (caffeine anhydrous and citrate)', async () => {
    const two = (await admin('product', 'add', '--brand', 'Identity Test', '--name', 'Two Caffeines')).product_id as string;
    const one = (await admin('product', 'add', '--brand', 'Identity Test', '--name', 'One Caffeine')).product_id as string;
    const label = (productId: string, ingredients: Array<{ declared_name: string; amount: number; unit: string }>) => ({
      captures: [{ product_id: productId, source: { kind: 'manufacturer', url: `https://identity-test.example/${productId}`, retailer: null }, observed_at: '2026-05-01',
        preserved: { path: `captures/${productId}.json`, sha256: 'd'.repeat(64) }, label: { classification: 'comparable', serving: { size: 10, unit: 'g', servings_per_container: 30, description: null }, ingredients }, prices: [] }],
    });
    await importCaptures(pool, label(two, [{ declared_name: 'Caffeine Anhydrous', amount: 300, unit: 'mg' }, { declared_name: 'Caffeine Citrate', amount: 50, unit: 'mg' }]));
    await importCaptures(pool, label(one, [{ declared_name: 'Caffeine Anhydrous', amount: 150, unit: 'mg' }]));
    const res = await fetch(`${record.url}/api/v1/products/compare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product_ids: [two, one] }) });
    expect(res.status).toBe(200);
    const rows = ((await res.json()) as { comparison: { ingredients: Array<{ ingredient_id: string | null; name: string; declared: Array<{ declared: boolean; declared_name: string | null; amount: number | null }> }> } }).comparison.ingredients;
    expect(rows.map((r) => [r.ingredient_id, r.name, r.declared.map((c) => (c.declared ? `${c.declared_name} ${c.amount}` : null))])).toEqual([
      ['ing_caffeine', 'Caffeine', ['Caffeine Anhydrous 300', 'Caffeine Anhydrous 150']],
      ['ing_caffeine', 'Caffeine Citrate', ['Caffeine Citrate 50', null]],
    ]);
  });

  it('refuses an alias or an ingredient that would identify a name as two, and every malformed identifier, writing nothing', async () => {
    const before = await counts();
    const refused = async (argv: string[], code: string, message?: RegExp) => {
      await expect(admin(...argv)).rejects.toMatchObject({ code, ...(message ? { message: expect.stringMatching(message) } : {}) });
      expect(await counts()).toEqual(before);
    };
    await refused(['ingredient', 'alias', '--ingredient', 'ing_maral_root_rhaponticum_carthamoides', '--name', 'Caffeine Anhydrous'], 'identity_conflict');
    await refused(['ingredient', 'alias', '--ingredient', 'ing_maral_root_rhaponticum_carthamoides', '--unii', '3G6A5W338E'], 'identity_conflict');
    await refused(['ingredient', 'alias', '--ingredient', 'ing_maral_root_rhaponticum_carthamoides', '--group', 'caffeine'], 'identity_conflict');
    await refused(['ingredient', 'add', '--name', 'CAFFEINE'], 'identity_conflict');
    await refused(['ingredient', 'add', '--name', 'Maral Root Extract'], 'identity_conflict');
    // Read without its descriptors a name can name another ingredient too: "organic Beet powder" is Beetroot's "Beet".
    await refused(['ingredient', 'alias', '--ingredient', 'ing_maral_root_rhaponticum_carthamoides', '--name', 'organic Beet powder'], 'identity_conflict');
    await refused(['ingredient', 'add', '--name', 'Beet Extract'], 'identity_conflict', /"Beet Extract" reads, without words such as "organic" or "powder", as "beet", which already names ing_beetroot_extract/);
    await refused(['ingredient', 'add', '--name', 'Placeholder Test', '--unii', '0'], 'invalid_input');
    await refused(['ingredient', 'add', '--name', '!!!'], 'invalid_input');
    await refused(['ingredient', 'add', '--name', 'Kind Test', '--kind', 'Not A Kind'], 'invalid_input');
    await refused(['ingredient', 'alias', '--ingredient', 'ing_nothing_here', '--name', 'Whatever'], 'not_found');
    await expect(admin('ingredient', 'add')).rejects.toBeInstanceOf(UsageError);
    await expect(admin('ingredient', 'alias', '--ingredient', 'ing_caffeine')).rejects.toBeInstanceOf(UsageError);
    await expect(admin('ingredient', 'add', '--name', 'X Test', '--group')).rejects.toBeInstanceOf(UsageError);
    await expect(admin('ingredient', 'list', '--unidentified', '--limit', '0')).rejects.toBeInstanceOf(UsageError);
    // An alias the ingredient already has is no change: no record version, no logged change.
    expect(await admin('ingredient', 'alias', '--ingredient', 'ing_caffeine', '--name', 'caffeine anhydrous')).toMatchObject({ lines_reidentified: 0, record_version: null });
    expect(await counts()).toEqual(before);
  });

  it('the monitor reads a real DSLD label and identifies its lines; a curated identity reaches them and the next reading opens no candidate', async () => {
    // DSLD label 219842 (GNC Beyond Raw LIT AF), real and unedited, served as the DSLD API serves it.
    const real = JSON.parse(readFileSync(new URL('../../services/monitor/test/fixtures/dsld-real/219842.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    src.labels.set(219842, real);
    const productId = (await admin('product', 'add', '--brand', 'GNC Beyond Raw', '--name', 'LIT AF Gummy Worm')).product_id as string;
    await admin('source', 'add', '--product', productId, '--kind', 'dsld_label', '--url', `${src.origin}/dsld/v9/label/219842`, '--every', '1d');
    expect(await admin('monitor', 'run-once', '--product', productId)).toMatchObject({ valid: 1, states_created: 1 });
    const lines = async () =>
      new Map(
        (await pool.query<{ declared_name: string; ingredient_id: string | null }>(
          'SELECT d.declared_name, d.ingredient_id FROM declared_ingredients d JOIN history_states h USING (state_id) WHERE h.product_id = $1',
          [productId],
        )).rows.map((r) => [r.declared_name, r.ingredient_id]),
      );
    const read = await lines();
    // Each line keeps what DSLD identifies it by, and says which rule identified it.
    const kept = (await pool.query<{ declared_name: string; unii: string | null; ingredient_group: string | null; forms: string[]; ingredient_id: string | null; identified_by: string | null }>(
      `SELECT d.declared_name, d.unii, d.ingredient_group, d.forms, d.ingredient_id, d.identified_by FROM declared_ingredients d JOIN history_states h USING (state_id)
        WHERE h.product_id = $1 AND d.declared_name IN ('Calcium', 'CarnoSyn', 'micronized Creatine', 'ZumXR Caffeine') ORDER BY d.position`,
      [productId],
    )).rows;
    expect(kept).toEqual([
      { declared_name: 'Calcium', unii: 'SY7Q814VUP', ingredient_group: 'Calcium', forms: [], ingredient_id: 'ing_calcium', identified_by: 'unii' },
      // uniiCode "0" is DSLD's placeholder: no UNII.
      { declared_name: 'CarnoSyn', unii: null, ingredient_group: 'Beta-Alanine', forms: ['Beta-Alanine'], ingredient_id: 'ing_beta_alanine', identified_by: 'group' },
      { declared_name: 'micronized Creatine', unii: null, ingredient_group: 'Creatine', forms: ['Creatine Monohydrate'], ingredient_id: 'ing_creatine_monohydrate', identified_by: 'group' },
      { declared_name: 'ZumXR Caffeine', unii: null, ingredient_group: 'Caffeine', forms: [], ingredient_id: 'ing_caffeine', identified_by: 'group' },
    ]);
    expect(read.get('Calcium')).toBe('ing_calcium');
    expect(read.get('CarnoSyn')).toBe('ing_beta_alanine');
    expect(read.get('L-Citrulline Malate')).toBe('ing_citrulline_malate');
    expect(read.get('Nitrosigine')).toBe('ing_arginine_silicate_inositol');
    expect(read.get('Alpha-GPC')).toBe('ing_alpha_gpc');

    // A curator names what was left: the monitor, reading the same label the next day, stores the same state again, no candidate.
    const left = [...read.entries()].filter(([, id]) => id === null).map(([name]) => name);
    for (const name of left) await admin('ingredient', 'add', '--name', `${name} (curated in test)`);
    for (const name of left) {
      const id = (await pool.query<{ ingredient_id: string }>('SELECT ingredient_id FROM ingredients WHERE name = $1', [`${name} (curated in test)`])).rows[0]!.ingredient_id;
      expect(await admin('ingredient', 'alias', '--ingredient', id, '--name', name)).toMatchObject({ lines_reidentified: 1 });
    }
    expect([...(await lines()).values()].every((id) => id !== null)).toBe(true);
    await pool.query('UPDATE history_states SET observed_from = observed_from - 1, observed_to = observed_to - 1 WHERE product_id = $1', [productId]);
    await pool.query('UPDATE sources SET next_check_due = now() WHERE product_id = $1', [productId]);
    expect(await admin('monitor', 'run-once', '--product', productId)).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
  });
});
