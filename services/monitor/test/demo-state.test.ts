import { describe, expect, it } from 'vitest';
import { addSource, policyOf, runOnce } from '@evidence-record/sources';
import { DEMO_LABEL_ID, DEMO_RETAILERS, changed, demoLabel, demoOffer, initialDemoState, recordedDemoState, type DemoState } from '@evidence-record/demo-sources';
import { product, sourceWorld, testMonitor } from './support';

/**
 * The Record outlives the local stack's demo source server: a second `npm run up` keeps the database and starts
 * the server afresh. `npm run -s demo-sources -- change` steps from what the Record
 * last read (recordedDemoState), so a change after a restart is a change, not the reading the Record already holds.
 */
const world = sourceWorld();

const shelfwise = DEMO_RETAILERS[0];
const offerPath = `${shelfwise.slug}/updraft-pre-workout`;

/** What the demo server does with a state: the label and Shelfwise's page. */
function serve(state: DemoState): void {
  world.src.labels.set(DEMO_LABEL_ID, demoLabel(state));
  world.src.offers.set(offerPath, demoOffer(state, shelfwise.slug));
}

async function candidates(productId: string): Promise<Array<{ dimension: string }>> {
  return (await world.pool.query('SELECT dimension FROM candidates WHERE product_id = $1 ORDER BY candidate_id', [productId])).rows;
}

describe('the demo state the Record last read', () => {
  it('is the starting state before any reading, then follows what the monitor placed; a change after a restart opens a candidate', async () => {
    const p = await product(world.pool, 'Updraft Pre-Workout');
    await addSource(world.pool, { product_id: p, kind: 'dsld_label', url: world.src.labelUrl(DEMO_LABEL_ID) }, policyOf(world.settings));
    await addSource(world.pool, { product_id: p, kind: 'offer_page', url: `${world.src.origin}/shop/${offerPath}`, retailer: shelfwise.retailer }, policyOf(world.settings));
    const { deps, day } = testMonitor(world.pool, world.settings);
    expect(await recordedDemoState(world.pool, p)).toEqual(initialDemoState());

    serve(initialDemoState());
    day('2026-03-02');
    await runOnce(deps, { productId: p });
    expect(await recordedDemoState(world.pool, p)).toEqual({ caffeineMg: 200, listPrice: 44.99 });

    serve(changed(initialDemoState(), 'label'));
    day('2026-03-03');
    await runOnce(deps, { productId: p });
    expect(await candidates(p)).toEqual([{ dimension: 'formula' }]);
    expect(await recordedDemoState(world.pool, p)).toEqual({ caffeineMg: 225, listPrice: 44.99 });

    // The demo server restarted: stepping from its own start would serve 225 mg again, which the Record holds.
    // Stepping from what the Record last read serves 250 mg and $47.99: both are changes.
    const next = changed(changed(await recordedDemoState(world.pool, p), 'label'), 'price');
    expect(next).toEqual({ caffeineMg: 250, listPrice: 47.99 });
    serve(next);
    day('2026-03-04');
    await runOnce(deps, { productId: p });
    expect(await candidates(p)).toEqual([{ dimension: 'formula' }, { dimension: 'formula' }, { dimension: 'price' }]);
    expect(await recordedDemoState(world.pool, p)).toEqual(next);
  });
});
