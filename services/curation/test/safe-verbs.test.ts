import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@evidence-record/platform';
import {
  approveCandidate,
  correctSignal,
  importCaptures,
  listStates,
  listUnreleasedSignals,
  openCandidate,
  releaseSignals,
  showCandidate,
  withdrawSignal,
} from '@evidence-record/curation';
import { catalogueDatabase, labelCapture, priceCapture, type CatalogueDatabase, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';

/**
 * The rules that keep wrong data out of the Record, one refusal each, against
 * a real Postgres. Every refusal carries its documented code and writes nothing.
 */
let fixture: CatalogueDatabase;
let pool: Pool;
let products: FixtureProduct[];
const publicBaseUrl = 'https://evidence-record.test';

async function versions(): Promise<number> {
  return (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM record_versions')).rows[0]!.n;
}

async function refused(step: () => Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const before = await versions();
  const err = await step().then(
    () => null,
    (e: unknown) => e as { code?: string; message: string },
  );
  expect(err, `expected a refusal ${code}`).not.toBeNull();
  expect(err!.code).toBe(code);
  if (message) expect(err!.message).toMatch(message);
  expect(await versions()).toBe(before);
}

beforeAll(async () => {
  fixture = await catalogueDatabase({ brands: 1, productsPerBrand: 4 });
  ({ pool, products } = fixture);
});

afterAll(() => fixture?.close());

describe('candidates compare neighbours, and the window lies between them', () => {
  let s: string[] = [];
  const p = () => products[0]!;

  beforeAll(async () => {
    // Three labels: A read Feb 1 – Feb 15, B read Mar 1 – Mar 10, C read Apr 1.
    const out = await importCaptures(pool, {
      captures: [
        labelCapture(p(), '2026-02-01', { caffeineMg: 200 }),
        labelCapture(p(), '2026-02-15', { caffeineMg: 200 }),
        labelCapture(p(), '2026-03-01', { caffeineMg: 250 }),
        labelCapture(p(), '2026-03-10', { caffeineMg: 250 }),
        labelCapture(p(), '2026-04-01', { caffeineMg: 300 }),
      ],
    });
    s = out.states_created;
    expect(s).toHaveLength(3);
  });

  it('state list shows the states oldest first with their first and last reading', async () => {
    expect(await listStates(pool, p().product_id)).toEqual([
      { state_id: s[0], classification: 'comparable', first_read: '2026-02-01', last_read: '2026-02-15' },
      { state_id: s[1], classification: 'comparable', first_read: '2026-03-01', last_read: '2026-03-10' },
      { state_id: s[2], classification: 'comparable', first_read: '2026-04-01', last_read: '2026-04-01' },
    ]);
    await expect(listStates(pool, 'prd_000000000000')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses two states with another comparable state between them', async () => {
    await refused(
      () => openCandidate(pool, { product_id: p().product_id, dimension: 'formula', before_state_id: s[0], after_state_id: s[2], summary: 'Caffeine 200 mg → 300 mg.' }),
      'not_adjacent',
      new RegExp(s[1]!),
    );
  });

  it('refuses a window reaching into the old label\'s readings, or into the new one\'s', async () => {
    const base = { product_id: p().product_id, dimension: 'formula' as const, before_state_id: s[0], after_state_id: s[1], summary: 'Caffeine 200 mg → 250 mg.' };
    // Entirely inside the period when the old label was still read.
    await refused(() => openCandidate(pool, { ...base, window_start: '2026-02-03', window_end: '2026-02-10' }), 'window_outside');
    await refused(() => openCandidate(pool, { ...base, window_start: '2026-02-14', window_end: '2026-02-20' }), 'window_outside');
    await refused(() => openCandidate(pool, { ...base, window_start: '2026-02-20', window_end: '2026-03-05' }), 'window_outside');
    await refused(() => openCandidate(pool, { ...base, exact_change_date: '2026-02-10' }), 'window_outside');
  });

  it('accepts the derived window or a narrower one, and shows the candidate with its diff and evidence', async () => {
    const narrowed = await openCandidate(pool, {
      product_id: p().product_id,
      dimension: 'formula',
      before_state_id: s[0],
      after_state_id: s[1],
      window_start: '2026-02-20',
      window_end: '2026-02-28',
      summary: '  Caffeine Anhydrous: 200 mg → 250 mg.  ',
    });
    const shown = await showCandidate(pool, narrowed.candidate_id);
    expect(shown).toMatchObject({
      status: 'open',
      summary: 'Caffeine Anhydrous: 200 mg → 250 mg.',
      derived_window: { start: '2026-02-15', end: '2026-03-01' },
      window: { start: '2026-02-20', end: '2026-02-28', exact_change_date: null },
      before: { state_id: s[0] },
      after: { state_id: s[1] },
    });
    expect(shown.diff.filter((d) => d.op !== 'same')).toEqual([
      { op: 'removed', line: 'Caffeine Anhydrous: 200 mg' },
      { op: 'added', line: 'Caffeine Anhydrous: 250 mg' },
    ]);
    // Four readings: two of each label, each with its preserved copy.
    expect(shown.evidence.map((e) => [e.state_id, e.observed_at.slice(0, 10)])).toEqual([
      [s[0], '2026-02-01'],
      [s[0], '2026-02-15'],
      [s[1], '2026-03-01'],
      [s[1], '2026-03-10'],
    ]);
    expect(shown.evidence.every((e) => /^[0-9a-f]{64}$/.test(e.content_sha256 ?? ''))).toBe(true);
    await expect(showCandidate(pool, 999_999)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses summaries that are too short, only whitespace, or carry control characters', async () => {
    const base = { product_id: p().product_id, dimension: 'formula' as const, before_state_id: s[1], after_state_id: s[2] };
    await refused(() => openCandidate(pool, { ...base, summary: 'ok' }), 'invalid_text', /at least 10/);
    await refused(() => openCandidate(pool, { ...base, summary: '      short      ' }), 'invalid_text');
    await refused(() => openCandidate(pool, { ...base, summary: 'Caffeine 250 mg\n→ 300 mg.' }), 'invalid_text', /control character/);
    await refused(() => openCandidate(pool, { ...base, summary: 'Caffeine 250 mg\u0007 → 300 mg.' }), 'invalid_text');
  });

  it('derives the summary when none is given, and approves it as proposed or as the reviewer rewords it under the same text rules', async () => {
    const base = { product_id: p().product_id, dimension: 'formula' as const, before_state_id: s[1], after_state_id: s[2] };
    const opened = await openCandidate(pool, base);
    expect((await showCandidate(pool, opened.candidate_id)).summary).toBe('Caffeine Anhydrous: 250 mg → 300 mg');
    const review = { candidate_id: opened.candidate_id, reviewer: 'Dana', note: 'Both labels read.' };
    await refused(() => approveCandidate(pool, { ...review, summary: 'too short' }), 'invalid_text');
    await refused(() => approveCandidate(pool, { ...review, summary: 'Caffeine rose\nto 300 mg a serving.' }), 'invalid_text');
    await refused(() => approveCandidate(pool, { ...review, summary: 'x'.repeat(401) }), 'invalid_text');
    expect((await showCandidate(pool, opened.candidate_id)).status).toBe('open');
    // The proposed summary sent back unchanged (as the console's prefilled field does) is not a rewording.
    const approved = await approveCandidate(pool, { ...review, summary: ' Caffeine Anhydrous: 250 mg → 300 mg ' });
    expect(approved).toMatchObject({ summary: 'Caffeine Anhydrous: 250 mg → 300 mg', reworded: false });
    expect((await showCandidate(pool, opened.candidate_id)).signal_summary).toBe('Caffeine Anhydrous: 250 mg → 300 mg');
  });
});

describe('price candidates compare one retailer\'s neighbouring list prices', () => {
  it('refuses a pair with a list price between them, or two retailers', async () => {
    const p = products[1]!;
    await importCaptures(pool, {
      captures: [
        priceCapture(p, '2026-02-03', 'shelfwise', 4499, 'list'),
        priceCapture(p, '2026-02-20', 'shelfwise', 4799, 'list'),
        priceCapture(p, '2026-03-03', 'shelfwise', 4999, 'list'),
        priceCapture(p, '2026-03-04', 'bulkbarn', 3999, 'list'),
      ],
    });
    const { rows } = await pool.query<{ observation_id: string }>('SELECT observation_id FROM price_observations WHERE product_id = $1 ORDER BY observed_at', [p.product_id]);
    const [a, b, c, other] = rows.map((r) => Number(r.observation_id)) as [number, number, number, number];
    await refused(() => openCandidate(pool, { product_id: p.product_id, dimension: 'price', before_price_id: a, after_price_id: c, summary: 'List price $44.99 → $49.99.' }), 'not_adjacent');
    await refused(() => openCandidate(pool, { product_id: p.product_id, dimension: 'price', before_price_id: c, after_price_id: other, summary: 'List price $49.99 → $39.99.' }), 'not_comparable');
    await refused(
      () => openCandidate(pool, { product_id: p.product_id, dimension: 'price', before_price_id: a, after_price_id: b, window_start: '2026-02-01', summary: 'List price $44.99 → $47.99.' }),
      'window_outside',
    );
    const ok = await openCandidate(pool, { product_id: p.product_id, dimension: 'price', before_price_id: a, after_price_id: b, summary: 'List price $44.99 → $47.99.' });
    expect((await showCandidate(pool, ok.candidate_id)).derived_window).toEqual({ start: '2026-02-03', end: '2026-02-20' });
  });
});

describe('releases are dated today, of chosen Signals or all', () => {
  it('refuses tomorrow, releases only the chosen Signals, leaves the others waiting', async () => {
    const [x, y] = [products[2]!, products[3]!];
    const signals: string[] = [];
    for (const p of [x, y]) {
      const out = await importCaptures(pool, { captures: [labelCapture(p, '2026-05-01', { caffeineMg: 100 }), labelCapture(p, '2026-05-08', { caffeineMg: 120 })] });
      const c = await openCandidate(pool, { product_id: p.product_id, dimension: 'formula', before_state_id: out.states_created[0], after_state_id: out.states_created[1], summary: 'Caffeine Anhydrous: 100 mg → 120 mg.' });
      signals.push((await approveCandidate(pool, { candidate_id: c.candidate_id, reviewer: 'tester', note: 'both labels read' })).signal_id);
    }
    const clock = () => new Date('2032-01-10T12:00:00Z');
    await refused(() => releaseSignals(pool, { date: '2032-01-11', releasedBy: 'op', publicBaseUrl, clock }), 'release_date', /after today/);
    await refused(() => releaseSignals(pool, { signalIds: ['sig_000000000000'], releasedBy: 'op', publicBaseUrl, clock }), 'not_found');
    expect((await listUnreleasedSignals(pool)).map((s) => s.signal_id)).toEqual(expect.arrayContaining(signals));
    const released = await releaseSignals(pool, { signalIds: [signals[0]!], releasedBy: 'op', publicBaseUrl, clock });
    expect(released).toMatchObject({ release_date: '2032-01-10', signal_ids: [signals[0]] });
    const waiting = (await listUnreleasedSignals(pool)).map((s) => s.signal_id);
    expect(waiting).toContain(signals[1]);
    expect(waiting).not.toContain(signals[0]);
    await refused(() => releaseSignals(pool, { signalIds: [signals[0]!], releasedBy: 'op', publicBaseUrl, clock: () => new Date('2032-01-11T08:00:00Z') }), 'already_released');

    // Corrections: public notes are checked like summaries; the released summary is kept beside the new one.
    await refused(() => correctSignal(pool, { signal_id: signals[0]!, note: 'typo' }), 'invalid_text');
    await refused(() => correctSignal(pool, { signal_id: signals[0]!, note: 'The amount\tis 125 mg.' }), 'invalid_text');
    const corrected = await correctSignal(pool, { signal_id: signals[0]!, note: 'The new amount is 125 mg, not 120 mg.', summary: 'Caffeine Anhydrous: 100 mg → 125 mg.', by: 'tester' });
    expect(corrected).toMatchObject({ summary_before: 'Caffeine Anhydrous: 100 mg → 120 mg.', summary_after: 'Caffeine Anhydrous: 100 mg → 125 mg.', notices: 0 });
    const row = await pool.query('SELECT summary_before, summary_after, recorded_by FROM signal_corrections WHERE correction_id = $1', [corrected.correction_id]);
    expect(row.rows[0]).toEqual({ summary_before: 'Caffeine Anhydrous: 100 mg → 120 mg.', summary_after: 'Caffeine Anhydrous: 100 mg → 125 mg.', recorded_by: 'tester' });

    // Notices go to accounts that were emailed (sent), never to one whose alert is still pending or was cancelled.
    await pool.query(`INSERT INTO organizations (org_id, name, plan_id) VALUES ('org_n1', 'N', 'pro')`);
    for (const [id, status] of [['acc_sent', 'sent'], ['acc_pending', 'pending'], ['acc_cancelled', 'cancelled']] as const) {
      await pool.query(`INSERT INTO accounts (account_id, org_id, email) VALUES ($1, NULL, $2)`, [id, `${id}@example.test`]).catch(async () => {
        await pool.query(`INSERT INTO accounts (account_id, org_id, email, unbound_at, unbound_from) VALUES ($1, NULL, $2, now(), 'org_n1')`, [id, `${id}@example.test`]);
      });
      await pool.query(`INSERT INTO alerts (alert_id, signal_id, account_id, product_id, email, status) VALUES ($1, $2, $3, $4, $5, $6)`, [`alr_${id}`, signals[0], id, x.product_id, `${id}@example.test`, status]);
    }
    const withdrawn = await withdrawSignal(pool, { signal_id: signals[0]!, note: 'Withdrawn: the label was a counterfeit.' });
    expect(withdrawn.notices).toBe(1);
    const notices = await pool.query(`SELECT account_id, kind, correction_id::int AS correction_id, status FROM alerts WHERE kind = 'correction'`);
    expect(notices.rows).toEqual([{ account_id: 'acc_sent', kind: 'correction', correction_id: withdrawn.correction_id, status: 'pending' }]);
    const outbox = await pool.query(`SELECT subject_kind, payload FROM event_outbox WHERE event_id = $1`, [withdrawn.event_ids[0]]);
    expect(outbox.rows[0]).toMatchObject({ subject_kind: 'alert.requested', payload: { alert_id: withdrawn.event_ids[0], account_id: 'acc_sent' } });
  });
});
