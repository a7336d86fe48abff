import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { addSource, policyOf, runOnce, type MonitorSettings } from '@evidence-record/sources';
import { DEMO_LABEL_ID, DEMO_RETAILERS, changed, demoLabel, demoOffer, initialDemoState, recordedDemoState, startSourceServer, type DemoState, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { product, testMonitor, testSettings } from './support';

/**
 * The Record outlives the local stack's demo source server: a second `npm run up` keeps the database and starts
 * the server afresh. `npm run -s demo-sources -- change` steps from what the Record
 * last read (recordedDemoState), so a change after a restart is a change, not the reading the Record already holds.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
let settings: MonitorSettings;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 6 });
  src = await startSourceServer();
  settings = testSettings({ DSLD_BASE_URL: `${src.origin}/dsld/v9` });
});

afterAll(async () => {
  await src?.close();
  await pool?.end();
  await db?.drop();
});

const shelfwise = DEMO_RETAILERS[0];
const offerPath = `${shelfwise.slug}/updraft-pre-workout`;

/** What the demo server does with a state: the label and Shelfwise's page. */
function serve(state: DemoState): void {
  src.labels.set(DEMO_LABEL_ID, demoLabel(state));
  src.offers.set(offerPath, demoOffer(state, shelfwise.slug));
}

async function candidates(productId: string): Promise<Array<{ dimension: string }>> {
  return (await pool.query('SELECT dimension FROM candidates WHERE product_id = $1 ORDER BY candidate_id', [productId])).rows;
}

describe('the demo state the Record last read', () => {
  it('is the starting state before any reading, then follows what the monitor placed; a change after a restart opens a candidate', async () => {
    const p = await product(pool, 'Updraft Pre-Workout');
    await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(DEMO_LABEL_ID) }, policyOf(settings));
    await addSource(pool, { product_id: p, kind: 'offer_page', url: `${src.origin}/shop/${offerPath}`, retailer: shelfwise.retailer }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);
    expect(await recordedDemoState(pool, p)).toEqual(initialDemoState());

    serve(initialDemoState());
    day('2026-03-02');
    await runOnce(deps, { productId: p });
    expect(await recordedDemoState(pool, p)).toEqual({ caffeineMg: 200, listPrice: 44.99 });

    serve(changed(initialDemoState(), 'label'));
    day('2026-03-03');
    await runOnce(deps, { productId: p });
    expect(await candidates(p)).toEqual([{ dimension: 'formula' }]);
    expect(await recordedDemoState(pool, p)).toEqual({ caffeineMg: 225, listPrice: 44.99 });

    // The demo server restarted: stepping from its own start would serve 225 mg again, which the Record holds.
    // Stepping from what the Record last read serves 250 mg and $47.99: both are changes.
    const next = changed(changed(await recordedDemoState(pool, p), 'label'), 'price');
    expect(next).toEqual({ caffeineMg: 250, listPrice: 47.99 });
    serve(next);
    day('2026-03-04');
    await runOnce(deps, { productId: p });
    expect(await candidates(p)).toEqual([{ dimension: 'formula' }, { dimension: 'formula' }, { dimension: 'price' }]);
    expect(await recordedDemoState(pool, p)).toEqual(next);
  });
});
