import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RunningService } from '@evidence-record/platform';
import { IngredientNames, addSource, parseDsldLabel, policyOf, rederiveStates, runOnce, type MonitorSettings } from '@evidence-record/sources';
import type { SourceServer } from '@evidence-record/demo-sources';
import { answerOf, localhostOnly, product, realLabel, recordWorld, testMonitor } from './support';

/**
 * What a label prints beside its Supplement Facts (decision 2420): its
 * statements (what it says it contains, does not contain, its precautions and
 * directions) and its other ingredients, kept with the capture that read them
 * and shown in the product record as declared facts, in the label's words. Real DSLD label 14168 (GNC Beyond Raw Rampant, which declares its
 * caffeine only as a member of a blend and states "Each serving supplies
 * 200 mg of caffeine.") is served byte for byte; the second test's later
 * label is that record with one statement's words changed here (so not
 * real). Real Postgres throughout.
 */
const world = recordWorld();
let pool: Pool;
let src: SourceServer;
let settings: MonitorSettings;
let record: RunningService;
const rampant = realLabel(14168);

beforeAll(() => {
  ({ pool, src, record, settings } = world);
  src.labelBodies.set(14168, rampant);
});

type Fact = { kind: string; value: { declared_name: string; amount: number | null; unit: string | null; statement?: string; forms?: string[]; amount_disclosed?: boolean }; state_id: string | null; observed_at: string };
type ProductRecord = { verified_facts: Fact[]; limitations: string[]; record_version: string };

/** The product's captures as a monitor before decision 2420 wrote them: no statements, no other ingredients. */
const asBeforeDecision2420 = (productId: string) =>
  pool.query(`UPDATE captures c SET source_facts = c.source_facts - 'statements' - 'other_ingredients' FROM sources s WHERE s.source_id = c.source_id AND s.product_id = $1`, [productId]);
const besideOf = async (productId: string) =>
  (await answerOf<ProductRecord>(record, `/products/${productId}`)).verified_facts.filter((f) => f.kind === 'label_statement' || f.kind === 'other_ingredient');
const statementsOf = async (productId: string) => (await besideOf(productId)).filter((f) => f.kind === 'label_statement');

describe("what a label prints beside its Supplement Facts", () => {
  it("are shown as the label's words beside the line they speak of, and old captures gain them from their kept bytes", async () => {
    const p = await product(pool, 'Rampant Real 14168');
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(14168) }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 1 });

    const answer = await answerOf<ProductRecord>(record, `/products/${p}`);
    // The caffeine line: named inside its blend, no amount of its own (undisclosed, never zero) ...
    expect(answer.verified_facts).toContainEqual(expect.objectContaining({
      kind: 'declared_ingredient',
      value: expect.objectContaining({ declared_name: 'Caffeine Anhydrous', amount: null, amount_disclosed: false, blend: 'Thermo Energy Matrix' }),
    }));
    // ... and what the label says of it, as a sentence, dated like the lines and never read as an amount.
    const statements = answer.verified_facts.filter((f) => f.kind === 'label_statement');
    const state = answer.verified_facts.find((f) => f.kind === 'declared_ingredient')!;
    expect(statements).toContainEqual({
      kind: 'label_statement',
      value: { declared_name: 'Formula re: Contains', amount: null, unit: null, statement: 'Each serving supplies 200 mg of caffeine.' },
      state_id: state.state_id,
      observed_at: state.observed_at,
      source_url: src.labelUrl(14168),
    });
    // Every statement the label's reading keeps (dsld-real.test.ts checks which those are), word for word, in order.
    const read = parseDsldLabel(rampant);
    expect(read.ok).toBe(true);
    expect(statements.map((f) => ({ type: f.value.declared_name, text: f.value.statement }))).toEqual(read.ok ? read.reading.facts.statements : []);
    expect(statements).toHaveLength(6);
    expect(statements.some((f) => /AMPLIFIER|trademark/i.test(f.value.statement ?? ''))).toBe(false);
    // Its other ingredients, as printed, after its lines and before its statements; no amounts, not lines.
    const kinds = answer.verified_facts.map((f) => f.kind);
    expect(kinds.lastIndexOf('declared_ingredient')).toBeLessThan(kinds.indexOf('other_ingredient'));
    expect(kinds.lastIndexOf('other_ingredient')).toBeLessThan(kinds.indexOf('label_statement'));
    expect(answer.verified_facts.filter((f) => f.kind === 'other_ingredient')).toEqual([
      { kind: 'other_ingredient', value: { declared_name: 'Cellulose', amount: null, unit: null }, state_id: state.state_id, observed_at: state.observed_at, source_url: src.labelUrl(14168) },
      { kind: 'other_ingredient', value: { declared_name: 'Dicalcium Phosphate', amount: null, unit: null }, state_id: state.state_id, observed_at: state.observed_at, source_url: src.labelUrl(14168) },
    ]);
    const beside = await besideOf(p);
    // A statement is not a line named without an amount: the count the limitation gives is the label's lines only.
    const undisclosed = answer.verified_facts.filter((f) => f.kind === 'declared_ingredient' && f.value.amount === null).length;
    expect(answer.limitations).toContainEqual(expect.stringContaining(`${undisclosed} declared ingredient`));
    // And the answer says what those quotations are, and are not.
    expect(answer.limitations).toContainEqual(expect.stringMatching(/^Other ingredients and label statements quote what the label prints .* no amount is read out of a statement's words/));

    // Two readings of the same bytes, and both captures as a monitor before decision 2420 wrote them: no statements.
    day('2026-08-04');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 0 });
    // The answer shows none rather than guess ...
    await asBeforeDecision2420(p);
    expect(await besideOf(p)).toEqual([]);
    // ... and re-derivation reads them from the kept bytes: a dry run writes nothing, the run adds them, once.
    const names = new IngredientNames(pool);
    expect(await rederiveStates(pool, names, { by: 'test', productId: p, dryRun: true })).toMatchObject({ examined: 1, rederived: [], source_facts_read: 2, record_version: null });
    expect(await besideOf(p)).toEqual([]);
    expect((await answerOf<ProductRecord>(record, `/products/${p}`)).limitations.some((l) => l.startsWith('Other ingredients and label statements'))).toBe(false);
    const done = await rederiveStates(pool, names, { by: 'test', productId: p });
    expect(done).toMatchObject({ examined: 1, rederived: [], unchanged: 1, source_facts_read: 2, record_version: expect.stringMatching(/^rv_/) });
    expect((await besideOf(p)).map((f) => f.value)).toEqual(beside.map((f) => f.value));
    const kept = await pool.query(
      `SELECT jsonb_array_length(c.source_facts->'statements') AS statements, jsonb_array_length(c.source_facts->'other_ingredients') AS other FROM captures c JOIN sources s ON s.source_id = c.source_id WHERE s.product_id = $1`,
      [p],
    );
    expect(kept.rows).toEqual([{ statements: 6, other: 2 }, { statements: 6, other: 2 }]);
    expect((await answerOf<ProductRecord>(record, `/products/${p}`)).record_version).toBe(done.record_version);
    expect(await rederiveStates(pool, names, { by: 'test', productId: p })).toMatchObject({ source_facts_read: 0, record_version: null });

    // Without the operator step, the monitor's next reading of the label brings them too: its capture is written
    // under the current rule (a 304 re-reads the kept bytes), and is the newest capture of the state.
    await asBeforeDecision2420(p);
    day('2026-08-05');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    const again = await besideOf(p);
    expect(again.map((f) => f.value)).toEqual(beside.map((f) => f.value));
    expect(new Set(again.map((f) => f.observed_at))).toEqual(new Set(['2026-08-05']));
  });

  it('a later label whose lines are the same but whose statements and other ingredients differ makes no new state and no candidate; the record shows the newer words', async () => {
    const p = await product(pool, 'Rampant Restated');
    src.labelBodies.set(14169, rampant.replace('"id":14168', '"id":14169'));
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(14169) }, policyOf(settings), localhostOnly);
    const { deps, day } = testMonitor(pool, settings, { resolve: localhostOnly });
    day('2026-08-03');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 1 });

    // Changed here, not real: the same record with its caffeine statement reworded and an other ingredient renamed.
    src.labelBodies.set(14169, rampant.replace('"id":14168', '"id":14169').replace('Each serving supplies 200 mg of caffeine.', 'Each serving supplies 250 mg of caffeine.').replace('"Dicalcium Phosphate"', '"Sucralose"'));
    day('2026-08-05');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 0, candidates_opened: 0 });
    const statements = await statementsOf(p);
    expect(statements).toContainEqual(expect.objectContaining({ value: expect.objectContaining({ statement: 'Each serving supplies 250 mg of caffeine.' }), observed_at: '2026-08-05' }));
    expect(statements.some((f) => f.value.statement === 'Each serving supplies 200 mg of caffeine.')).toBe(false);
    expect((await besideOf(p)).filter((f) => f.kind === 'other_ingredient').map((f) => f.value.declared_name)).toEqual(['Cellulose', 'Sucralose']);
  });
});
