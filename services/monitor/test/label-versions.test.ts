import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool, type RunningService } from '@evidence-record/platform';
import { refuseCandidate } from '@evidence-record/curation';
import { attachDsldLabel, policyOf, runOnce, type AttachDeps } from '@evidence-record/sources';
import { startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { answerOf, localhostOnly, realLabel, startRecord, testMonitor, testSettings } from './support';

/**
 * Label versions placed in a product's history by their DSLD dates, against
 * a real Postgres and a local DSLD serving real label records byte for byte.
 * Where a case needs a label no gathered record shows (a second "same
 * product" label, a date inside a state, an older version off the market),
 * the label is composed from a real one and says so.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
let record: RunningService;
let deps: AttachDeps;
let monitor: ReturnType<typeof testMonitor>;
/** A composed label: a real record with the named fields changed. Not a real label. */
const composedFrom = (id: number, over: Record<string, unknown>) => JSON.stringify({ ...(JSON.parse(realLabel(id)) as Record<string, unknown>), ...over });
const attach = (label: number, product_id: string | null = null) => attachDsldLabel(deps, { label: String(label), product_id, by: 'test' });
const states = async (productId: string) =>
  (await pool.query<{ state_id: string; observed_from: string; observed_to: string }>(`SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1 ORDER BY observed_from`, [productId])).rows;
const candidates = async (productId: string) =>
  (await pool.query(`SELECT dimension, before_state_id, after_state_id, window_start, window_end, exact_change_date, status FROM candidates WHERE product_id = $1 ORDER BY candidate_id`, [productId])).rows;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  src = await startSourceServer();
  const settings = testSettings({ DSLD_BASE_URL: `${src.origin}/dsld/v9` });
  monitor = testMonitor(pool, settings, { resolve: localhostOnly });
  deps = { pool, fetcher: monitor.deps.fetcher, names: monitor.deps.names, settings, policy: policyOf(settings), resolve: localhostOnly, now: () => new Date('2026-03-02T09:00:00Z') };
  for (const id of [79324, 264116, 330088, 214224]) src.labelBodies.set(id, realLabel(id));
  record = await startRecord(pool);
});

afterAll(async () => {
  await record?.close();
  await monitor?.deps.close();
  await src?.close();
  await pool?.end();
  await db?.drop();
});

describe('label versions', () => {
  it('an older version attached after the newer one goes before it in the history, and only the newer one is monitored and read', async () => {
    const newer = await attach(264116);
    expect(newer).toMatchObject({ found_by: 'created', monitored: true, dsld_date: '2022-05-19' });
    const older = await attach(79324);
    expect(older).toMatchObject({ product_id: newer.product_id, found_by: 'brand_and_name', monitored: false, next_check_due: null, state_created: true, candidates_opened: 2 });
    const [a, b] = await states(newer.product_id);
    expect([a, b].map((s) => [s!.observed_from, s!.observed_to])).toEqual([
      ['2017-10-21', '2017-10-21'],
      ['2022-05-19', '2022-05-19'],
    ]);
    expect(await candidates(newer.product_id)).toEqual([
      { dimension: 'formula', before_state_id: a!.state_id, after_state_id: b!.state_id, window_start: '2017-10-21', window_end: '2022-05-19', exact_change_date: null, status: 'open' },
      { dimension: 'serving', before_state_id: a!.state_id, after_state_id: b!.state_id, window_start: '2017-10-21', window_end: '2022-05-19', exact_change_date: null, status: 'open' },
    ]);
    // The monitor reads the newest version only: the same bytes extend its state to today, and nothing opens.
    monitor.day('2026-03-02');
    expect(await runOnce(monitor.deps, { productId: newer.product_id })).toMatchObject({ checked: 1, valid: 1, states_created: 0, candidates_opened: 0 });
    expect((await states(newer.product_id)).at(-1)).toMatchObject({ state_id: b!.state_id, observed_from: '2022-05-19', observed_to: '2026-03-02' });
  });

  it('a label DSLD marks as the same product, with the same facts, is a reading of the same state', async () => {
    const first = await attach(330088);
    // Composed from real label 330088: DSLD's "Package size difference, same product" partner (330089), entered later, brand spelled differently.
    src.labelBodies.set(
      330089,
      composedFrom(330088, {
        id: 330089,
        brandName: 'Bulk Supplements Inc.',
        entryDate: '2025-06-01',
        events: [{ date: '2025-06-01', type: 'Date entered into DSLD' }],
        labelRelationships: [{ type: 'Package size difference, same product', labelId: 330088 }],
      }),
    );
    const partner = await attach(330089);
    expect(partner).toMatchObject({ product_id: first.product_id, found_by: 'related', state_created: false, state_id: first.state_id, candidates_opened: 0 });
    expect(await states(first.product_id)).toEqual([{ state_id: first.state_id, observed_from: '2025-05-21', observed_to: '2025-06-01' }]);

    // A label dated inside that state, declaring something else, has no place in it.
    src.labelBodies.set(
      330090,
      composedFrom(330088, { id: 330090, entryDate: '2025-05-25', events: [], ingredientRows: [{ order: 1, name: 'Turmeric Root Extract', quantity: [{ servingSizeOrder: 1, operator: '=', quantity: 600, unit: 'mg' }] }] }),
    );
    await expect(attach(330090, first.product_id)).rejects.toMatchObject({ code: 'out_of_order' });
    await expect(attach(330089)).rejects.toMatchObject({ code: 'already_exists' });
  });

  it('a version dated between two states whose change a candidate proposes is refused until that candidate is refused', async () => {
    const a = await attach(214224);
    // Composed from real label 214224: a later label of the same product declaring more EPA.
    const more = JSON.parse(realLabel(214224)) as { ingredientRows: Array<{ nestedRows: Array<{ name: string; quantity: Array<{ quantity: number }> }> }> };
    more.ingredientRows[3]!.nestedRows[0]!.quantity[0]!.quantity = 400;
    src.labelBodies.set(214300, composedFrom(214224, { id: 214300, entryDate: '2023-01-10', events: [], labelRelationships: [], ingredientRows: more.ingredientRows }));
    const b = await attach(214300);
    expect(b).toMatchObject({ product_id: a.product_id, found_by: 'brand_and_name', candidates_opened: 1 });
    // Composed: a label dated between them, declaring 350 mg EPA.
    more.ingredientRows[3]!.nestedRows[0]!.quantity[0]!.quantity = 350;
    src.labelBodies.set(214250, composedFrom(214224, { id: 214250, entryDate: '2021-08-01', events: [], labelRelationships: [], ingredientRows: more.ingredientRows }));
    await expect(attach(214250)).rejects.toMatchObject({ code: 'history_reviewed' });
    const [open] = (await pool.query<{ candidate_id: number }>(`SELECT candidate_id FROM candidates WHERE product_id = $1`, [a.product_id])).rows;
    await refuseCandidate(pool, { candidate_id: open!.candidate_id, reviewer: 'test', note: 'a label version lies between' });
    const between = await attach(214250);
    expect(between).toMatchObject({ state_created: true, candidates_opened: 2, monitored: false });
    expect((await states(a.product_id)).map((s) => s.observed_from)).toEqual(['2020-03-24', '2021-08-01', '2023-01-10']);
    expect((await candidates(a.product_id)).filter((c) => c.status === 'open').map((c) => [c.window_start, c.window_end])).toEqual([
      ['2020-03-24', '2021-08-01'],
      ['2021-08-01', '2023-01-10'],
    ]);
  });

  it('an older version DSLD marks off the market is recorded, not a change; a newest label off the market is reported', async () => {
    // Composed from real label 264116: a later version with the same facts, marked off the market.
    src.labelBodies.set(264200, composedFrom(264116, { id: 264200, entryDate: '2024-02-01', offMarket: 1, events: [{ date: '2024-02-01', type: 'Date entered into DSLD' }, { date: '2025-09-30', type: 'Off Market' }] }));
    const product = (await pool.query<{ product_id: string }>(`SELECT product_id FROM products WHERE name = 'Advanced Multi-Billion Dophilus'`)).rows[0]!.product_id;
    const offMarket = await attach(264200);
    expect(offMarket).toMatchObject({ product_id: product, off_market: true, monitored: true, state_created: true, candidates_opened: 0 });
    // The monitor had read 264116 up to 2026-03-02: that state now ends at its last reading before 2024-02-01.
    expect((await states(product)).map((s) => [s.observed_from, s.observed_to])).toEqual([
      ['2017-10-21', '2017-10-21'],
      ['2022-05-19', '2022-05-19'],
      ['2024-02-01', '2024-02-01'],
    ]);
    const answer = await answerOf<{ coverage: { label_versions: Array<Record<string, unknown>> }; limitations: string[] }>(record, `/products/${product}`);
    expect(answer.coverage.label_versions.map((v) => [v.dsld_label_id, v.off_market, v.off_market_since, v.monitored])).toEqual([
      [79324, false, null, false],
      [264116, false, null, false],
      [264200, true, '2025-09-30', true],
    ]);
    expect(answer.limitations).toContain("DSLD marks this product's newest label (DSLD label 264200) off the market since 2025-09-30; the Record keeps the product and its history.");
  });
});
