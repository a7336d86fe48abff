import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@evidence-record/platform';
import {
  CurationRefused,
  approveCandidate,
  correctSignal,
  importCaptures,
  openCandidate,
  refuseCandidate,
  releaseSignals,
  withdrawSignal,
} from '@evidence-record/curation';
import { approvedFormulaChanges, catalogueDatabase, labelCapture, priceCapture, type CatalogueDatabase, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';

/**
 * The curation workflow against a real, empty Record: every step is one
 * Record change (one new record_version), and every refusal writes nothing.
 */
let fixture: CatalogueDatabase;
let pool: Pool;
let products: FixtureProduct[];
const publicBaseUrl = 'https://evidence-record.test';
const clockAt = (iso: string) => () => new Date(iso);

async function head(): Promise<{ count: number; version: string }> {
  const { rows } = await pool.query<{ count: number; version: string }>(
    'SELECT (SELECT count(*)::int FROM record_versions) AS count, (SELECT version FROM record_versions ORDER BY id DESC LIMIT 1) AS version',
  );
  return rows[0]!;
}

/** Runs a curation step and checks it added exactly one record version, the one it reports. */
async function oneVersion<T extends { record_version: string | null }>(step: () => Promise<T>): Promise<T> {
  const before = await head();
  const out = await step();
  const after = await head();
  expect(after.count).toBe(before.count + 1);
  expect(out.record_version).toBe(after.version);
  return out;
}

async function refusedWithoutWrite(step: () => Promise<unknown>, message: RegExp): Promise<void> {
  const before = await head();
  await expect(step()).rejects.toThrow(message);
  expect(await head()).toEqual(before);
}

beforeAll(async () => {
  fixture = await catalogueDatabase({ brands: 1, productsPerBrand: 3 });
  ({ pool, products } = fixture);
});

afterAll(() => fixture?.close());

describe('capture import', () => {
  it('creates a history state per new label, extends it on a re-read, and records prices against it', async () => {
    const p = products[0]!;
    const out = await oneVersion(() =>
      importCaptures(pool, {
        captures: [
          labelCapture(p, '2026-02-01', { caffeineMg: 200 }, [{ retailer: 'shelfwise', price_cents: 3999, basis: 'list' }]),
          labelCapture(p, '2026-02-15', { caffeineMg: 200 }),
          labelCapture(p, '2026-03-01', { caffeineMg: 250 }),
        ],
      }),
    );
    expect(out.captures).toBe(3);
    expect(out.states_created).toHaveLength(2);
    expect(out.states_extended).toEqual([out.states_created[0]]);
    expect(out.price_observations).toBe(1);
    const { rows } = await pool.query('SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1 ORDER BY observed_from', [p.product_id]);
    expect(rows).toEqual([
      { state_id: out.states_created[0], observed_from: '2026-02-01', observed_to: '2026-02-15' },
      { state_id: out.states_created[1], observed_from: '2026-03-01', observed_to: '2026-03-01' },
    ]);
    const readings = await pool.query('SELECT count(*)::int AS n FROM state_readings WHERE state_id = $1', [out.states_created[0]]);
    expect(readings.rows[0].n).toBe(1);
    const price = await pool.query('SELECT state_id, price_basis FROM price_observations WHERE product_id = $1', [p.product_id]);
    expect(price.rows).toEqual([{ state_id: out.states_created[0], price_basis: 'list' }]);
  });

  it('refuses an invalid bundle, an unknown product and an out-of-order label without writing', async () => {
    const p = products[0]!;
    await refusedWithoutWrite(() => importCaptures(pool, { captures: [{ ...labelCapture(p, '2026-04-01', { caffeineMg: 1 }), extra: true }] }), /invalid bundle/);
    await refusedWithoutWrite(() => importCaptures(pool, { captures: [labelCapture({ ...p, product_id: 'prd_000000000000' }, '2026-04-01', { caffeineMg: 1 })] }), /unknown products/);
    // A declared 0 is an amount (decision 1007); a negative one is not.
    const negative = labelCapture(p, '2026-04-01', { caffeineMg: 1 });
    negative.label.ingredients[0]!.amount = -1;
    await refusedWithoutWrite(() => importCaptures(pool, { captures: [negative] }), /invalid bundle/);
    await refusedWithoutWrite(() => importCaptures(pool, { captures: [labelCapture(p, '2026-01-01', { caffeineMg: 300 })] }), /predates/);
  });
});

describe('candidates and review', () => {
  it('opens a candidate only between comparable states of the same product, in order, that differ', async () => {
    const [a, b] = products as [FixtureProduct, FixtureProduct];
    const imported = await importCaptures(pool, {
      captures: [labelCapture(b, '2026-02-02', { caffeineMg: 180 }), labelCapture(b, '2026-03-02', { caffeineMg: 180, servingsPerContainer: 20 })],
    });
    const [b1, b2] = imported.states_created as [string, string];
    const { rows } = await pool.query<{ state_id: string }>('SELECT state_id FROM history_states WHERE product_id = $1 ORDER BY observed_from', [a.product_id]);
    const [a1, a2] = rows.map((r) => r.state_id) as [string, string];

    await refusedWithoutWrite(() => openCandidate(pool, { product_id: a.product_id, dimension: 'formula', before_state_id: a1, after_state_id: b2, summary: 'Mixed products, never a change.' }), /not prd_/);
    await refusedWithoutWrite(() => openCandidate(pool, { product_id: a.product_id, dimension: 'formula', before_state_id: a2, after_state_id: a1, summary: 'Backwards in time is not a change.' }), /must precede/);
    await refusedWithoutWrite(() => openCandidate(pool, { product_id: b.product_id, dimension: 'formula', before_state_id: b1, after_state_id: b2, summary: 'Only the serving changed here.' }), /same formula/);
    await refusedWithoutWrite(
      () => openCandidate(pool, { product_id: a.product_id, dimension: 'formula', before_state_id: a1, after_state_id: a2, exact_change_date: '2026-01-01', summary: 'Caffeine 200 → 250 mg.' }),
      /outside the observation window/,
    );
    await pool.query(`UPDATE history_states SET classification = 'presence_only' WHERE state_id = $1`, [b1]);
    await refusedWithoutWrite(() => openCandidate(pool, { product_id: b.product_id, dimension: 'serving', before_state_id: b1, after_state_id: b2, summary: 'Serving 30 → 20 per container.' }), /not comparable/);
    await pool.query(`UPDATE history_states SET classification = 'comparable' WHERE state_id = $1`, [b1]);

    const opened = await oneVersion(() => openCandidate(pool, { product_id: a.product_id, dimension: 'formula', before_state_id: a1, after_state_id: a2, summary: 'Caffeine Anhydrous: 200 mg → 250 mg.' }));
    const c = await pool.query('SELECT window_start, window_end, exact_change_date, status FROM candidates WHERE candidate_id = $1', [opened.candidate_id]);
    // The default window runs from the last reading of the old label to the first reading of the new one.
    expect(c.rows[0]).toEqual({ window_start: '2026-02-15', window_end: '2026-03-01', exact_change_date: null, status: 'open' });
    await refusedWithoutWrite(() => openCandidate(pool, { product_id: a.product_id, dimension: 'formula', before_state_id: a1, after_state_id: a2, summary: 'The same change proposed twice.' }), /already proposes/);
  });

  it('compares list prices only: a promotional price is never one side of a price change', async () => {
    const p = products[2]!;
    await importCaptures(pool, {
      captures: [
        priceCapture(p, '2026-02-03', 'shelfwise', 4499, 'list'),
        priceCapture(p, '2026-02-10', 'shelfwise', 2999, 'promotional'),
        priceCapture(p, '2026-03-03', 'shelfwise', 4999, 'list'),
      ],
    });
    const { rows } = await pool.query<{ observation_id: number; price_basis: string }>('SELECT observation_id, price_basis FROM price_observations WHERE product_id = $1 ORDER BY observed_at', [p.product_id]);
    const [list1, promo, list2] = rows.map((r) => r.observation_id) as [number, number, number];
    await refusedWithoutWrite(() => openCandidate(pool, { product_id: p.product_id, dimension: 'price', before_price_id: list1, after_price_id: promo, summary: 'List $44.99 → promotional $29.99.' }), /promotional price/);
    const opened = await oneVersion(() => openCandidate(pool, { product_id: p.product_id, dimension: 'price', before_price_id: list1, after_price_id: list2, summary: 'List price $44.99 → $49.99 at Shelfwise.' }));
    const c = await pool.query('SELECT window_start, window_end FROM candidates WHERE candidate_id = $1', [opened.candidate_id]);
    expect(c.rows[0]).toEqual({ window_start: '2026-02-03', window_end: '2026-03-03' });
    // The schema refuses a promotional side even if a writer bypasses the curation function.
    await expect(pool.query('UPDATE candidates SET after_price_id = $1 WHERE candidate_id = $2', [promo, opened.candidate_id])).rejects.toThrow(/list prices/);
  });

  it('approving creates an unreleased Signal; refusing creates none; a reviewed candidate is final', async () => {
    const { rows } = await pool.query<{ candidate_id: number; dimension: string }>(`SELECT candidate_id, dimension FROM candidates WHERE status = 'open' ORDER BY candidate_id`);
    const [formula, price] = [rows[0]!, rows[1]!];
    const approved = await oneVersion(() => approveCandidate(pool, { candidate_id: formula.candidate_id, reviewer: 'reviewer-a', note: 'Both labels read.' }));
    expect(approved.signal_id).toMatch(/^sig_[0-9a-z]{12}$/);
    const s = await pool.query('SELECT released_on, batch_id FROM signals WHERE signal_id = $1', [approved.signal_id]);
    expect(s.rows[0]).toEqual({ released_on: null, batch_id: null });
    await oneVersion(() => refuseCandidate(pool, { candidate_id: price.candidate_id, reviewer: 'reviewer-b', note: 'Needs a second capture.' }));
    const none = await pool.query('SELECT count(*)::int AS n FROM signals WHERE candidate_id = $1', [price.candidate_id]);
    expect(none.rows[0].n).toBe(0);
    await refusedWithoutWrite(() => approveCandidate(pool, { candidate_id: price.candidate_id, reviewer: 'reviewer-a', note: 'Changed my mind.' }), /already refused/);
    await refusedWithoutWrite(() => refuseCandidate(pool, { candidate_id: formula.candidate_id, reviewer: 'reviewer-a', note: 'Changed my mind.' }), /already approved/);
    await refusedWithoutWrite(() => approveCandidate(pool, { candidate_id: 999_999, reviewer: 'r', note: 'n' }), /does not exist/);
  });
});

describe('release batches', () => {
  it('releases every approved Signal as one dated batch with one outbox event each, and never two batches on a date', async () => {
    const fresh = await approvedFormulaChanges(pool, [products[1]!], 2, '2026-04-06');
    const approved = await pool.query<{ signal_id: string }>('SELECT signal_id FROM signals WHERE released_on IS NULL ORDER BY signal_id');
    expect(approved.rows.map((r) => r.signal_id)).toEqual(expect.arrayContaining(fresh.signal_ids));

    await refusedWithoutWrite(() => releaseSignals(pool, { date: '2031-03-09', releasedBy: 'op', publicBaseUrl, clock: clockAt('2031-03-10T09:00:00Z') }), /before today/);
    await refusedWithoutWrite(() => releaseSignals(pool, { date: '2031-02-30', releasedBy: 'op', publicBaseUrl }), /not a calendar date/);

    const released = await oneVersion(() => releaseSignals(pool, { releasedBy: 'op', publicBaseUrl, clock: clockAt('2031-03-10T09:00:00Z') }));
    expect(released.release_date).toBe('2031-03-10');
    expect(released.signal_ids.sort()).toEqual(approved.rows.map((r) => r.signal_id));
    const outbox = await pool.query(`SELECT event_id, subject_kind, payload FROM event_outbox ORDER BY event_id`);
    expect(outbox.rows).toHaveLength(released.signal_ids.length);
    for (const row of outbox.rows) {
      expect(row.subject_kind).toBe('signal.released');
      expect(row.payload.released_at).toBe('2031-03-10');
      expect(row.payload.signal_url).toBe(`${publicBaseUrl}/api/v1/signals/${row.payload.signal_id}`);
      expect(row.event_id).toBe(`evt_released_${row.payload.signal_id}`);
    }

    // Later the same day: a new approval waits for the next date; the day's batch is final.
    await approvedFormulaChanges(pool, [products[2]!], 1, '2026-05-04');
    await refusedWithoutWrite(() => releaseSignals(pool, { releasedBy: 'op', publicBaseUrl, clock: clockAt('2031-03-10T17:00:00Z') }), /already has a release batch/);
    await refusedWithoutWrite(() => releaseSignals(pool, { date: '2031-03-10', releasedBy: 'op', publicBaseUrl, clock: clockAt('2031-03-10T17:00:00Z') }), /already has a release batch/);
    const next = await oneVersion(() => releaseSignals(pool, { releasedBy: 'op', publicBaseUrl, clock: clockAt('2031-03-11T08:00:00Z') }));
    expect(next.release_date).toBe('2031-03-11');
    expect(next.signal_ids).toHaveLength(1);
    await refusedWithoutWrite(() => releaseSignals(pool, { releasedBy: 'op', publicBaseUrl, clock: clockAt('2031-03-12T08:00:00Z') }), /no approved Signals/);

    // The schema holds the same rules if someone bypasses the release function.
    await expect(pool.query(`INSERT INTO release_batches (release_date, released_by) VALUES ('2031-03-11', 'x')`)).rejects.toThrow(/not after the newest/);
    await expect(pool.query(`UPDATE signals SET released_on = '2031-04-01' WHERE signal_id = $1`, [next.signal_ids[0]])).rejects.toThrow(/keeps its release date/);
    await expect(pool.query(`DELETE FROM release_batches`)).rejects.toThrow(/permanent/);
  });
});

describe('corrections and withdrawals', () => {
  it('keep id, address and release date, record a public note, and never re-release', async () => {
    const { rows } = await pool.query<{ signal_id: string; released_on: string; batch_id: number }>(
      'SELECT signal_id, released_on, batch_id FROM signals WHERE released_on IS NOT NULL ORDER BY signal_id LIMIT 2',
    );
    const [first, second] = rows as [(typeof rows)[number], (typeof rows)[number]];
    const outboxBefore = (await pool.query('SELECT count(*)::int AS n FROM event_outbox')).rows[0].n;

    const corrected = await oneVersion(() =>
      correctSignal(pool, { signal_id: first.signal_id, note: 'The new amount is 260 mg, not 250 mg.', summary: 'Caffeine Anhydrous: 200 mg → 260 mg.', operatorNote: 'typo in review' }),
    );
    expect(corrected.kind).toBe('correction');
    await oneVersion(() => withdrawSignal(pool, { signal_id: second.signal_id, note: 'Duplicate of an earlier Signal.' }));
    await refusedWithoutWrite(() => correctSignal(pool, { signal_id: second.signal_id, note: 'too late to correct this one' }), /withdrawn/);
    await refusedWithoutWrite(() => withdrawSignal(pool, { signal_id: 'sig_000000000000', note: 'no such Signal anywhere' }), /no Signal/);

    const after = await pool.query('SELECT signal_id, released_on, batch_id, status, summary FROM signals WHERE signal_id = ANY($1::text[]) ORDER BY signal_id', [[first.signal_id, second.signal_id]]);
    expect(after.rows.map((r) => [r.signal_id, r.released_on, r.batch_id, r.status])).toEqual([
      [first.signal_id, first.released_on, first.batch_id, 'corrected'],
      [second.signal_id, second.released_on, second.batch_id, 'withdrawn'],
    ]);
    expect((await pool.query('SELECT count(*)::int AS n FROM event_outbox')).rows[0].n).toBe(outboxBefore);
  });

  it('refuses a correction of an approved but unreleased Signal', async () => {
    const fresh = await approvedFormulaChanges(pool, [products[0]!], 1, '2026-06-01');
    await refusedWithoutWrite(() => correctSignal(pool, { signal_id: fresh.signal_ids[0]!, note: 'not yet public at all' }), /not released/);
    expect(CurationRefused).toBeDefined();
  });
});
