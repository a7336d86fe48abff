import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, MAX_SNAPSHOT_WINDOW_DAYS } from '@evidence-record/contract';
import { withRecordChange } from '@evidence-record/platform';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { releaseSignals, withdrawSignal } from '@evidence-record/curation';
import { approvedFormulaChanges, createCatalogue, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';
import { PUBLIC_BASE_URL, startSignals, type InProcessSignals } from './support/server';

let db: TestDatabase;
let svc: InProcessSignals;
let products: FixtureProduct[];
const released: Record<string, string[]> = {};
const release = async (date: string) => {
  const r = await releaseSignals(svc.pool, { releasedBy: 'snapshot-test', publicBaseUrl: PUBLIC_BASE_URL, clock: () => new Date(`${date}T09:00:00Z`) });
  released[date] = r.signal_ids;
};

type Proportion = { share: number | null; numerator: number; denominator: number; cohort: string };
type Coverage = {
  window: { from: string; to: string; days: number; max_days: number };
  signals: { released_in_window: number; by_dimension: Array<{ dimension: string } & Proportion>; by_status: Array<{ status: string } & Proportion> };
  products: { covered: number; by_depth_class: Array<{ depth_class: string } & Proportion>; with_signals_in_window: Proportion };
  sources: { total: number; unreadable: Proportion };
};

async function snapshot(query: string) {
  const res = await svc.get(`/api/v1/category/snapshot${query ? `?${query}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const a = AnswerEnvelope.parse(res.body);
  expect(res.headers.get('x-budget-entities')).toBe(a.signals!.map((s) => s.signal_id).join(','));
  return { a, coverage: a.coverage as unknown as Coverage };
}

beforeAll(async () => {
  db = await emptyDatabase();
  svc = await startSignals(db.url);
  products = await createCatalogue(svc.pool, { brands: 2, productsPerBrand: 2 });
  // Four products; releases on three dates: 3 Signals on 2031-03-02, 4 on 2031-04-20, 2 on 2031-05-10.
  await approvedFormulaChanges(svc.pool, [products[0]!], 3, '2026-01-05');
  await release('2031-03-02');
  await approvedFormulaChanges(svc.pool, [products[1]!, products[2]!], 2, '2026-01-05');
  await release('2031-04-20');
  await approvedFormulaChanges(svc.pool, [products[1]!], 2, '2026-03-02');
  await release('2031-05-10');
  await withdrawSignal(svc.pool, { signal_id: released['2031-04-20']![0]!, note: 'Withdrawn: duplicate.' });
  // One REGISTERED product and one unreadable source change the coverage, not the Signals.
  await withRecordChange(svc.pool, 'test coverage', async (client) => {
    await client.query(`UPDATE products SET depth_class = 'REGISTERED' WHERE product_id = $1`, [products[3]!.product_id]);
    await client.query(`UPDATE sources SET health = 'unreadable' WHERE product_id = $1`, [products[2]!.product_id]);
  });
});

afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

describe('get_category_snapshot', () => {
  it('defaults to the last 30 days ending today and counts released Signals in the window with their cohort', async () => {
    svc.setNow('2031-05-15T12:00:00Z');
    const { a, coverage } = await snapshot('');
    expect(coverage.window).toEqual({ from: '2031-04-16', to: '2031-05-15', days: 30, max_days: MAX_SNAPSHOT_WINDOW_DAYS });
    expect(coverage.signals.released_in_window).toBe(6);
    const formula = coverage.signals.by_dimension.find((d) => d.dimension === 'formula')!;
    expect(formula).toEqual({ dimension: 'formula', share: 1, numerator: 6, denominator: 6, cohort: 'released Signals in window' });
    expect(coverage.signals.by_dimension.find((d) => d.dimension === 'price')).toMatchObject({ numerator: 0, denominator: 6, share: 0 });
    expect(coverage.signals.by_status.find((s) => s.status === 'withdrawn')).toMatchObject({ numerator: 1, denominator: 6 });
    expect(a.signals!.map((s) => s.review.released_at).every((d) => d >= '2031-04-16' && d <= '2031-05-15')).toBe(true);
  });

  it('states coverage with denominators: products by depth class, products with Signals, unreadable sources', async () => {
    const { a, coverage } = await snapshot('from=2031-03-01&to=2031-05-31');
    expect(coverage.signals.released_in_window).toBe(9);
    expect(coverage.products.covered).toBe(4);
    expect(coverage.products.by_depth_class.find((d) => d.depth_class === 'REGISTERED')).toMatchObject({ numerator: 1, denominator: 4, share: 0.25 });
    expect(coverage.products.with_signals_in_window).toMatchObject({ numerator: 3, denominator: 4, share: 0.75 });
    expect(coverage.sources.unreadable).toMatchObject({ numerator: 1, denominator: 3 });
    for (const p of [...coverage.signals.by_dimension, ...coverage.products.by_depth_class, coverage.products.with_signals_in_window, coverage.sources.unreadable]) {
      expect(typeof p.cohort).toBe('string');
      expect(p.cohort.length).toBeGreaterThan(0);
      expect(typeof p.denominator).toBe('number');
    }
    expect(a.limitations.some((l) => l.includes('unreadable'))).toBe(true);
  });

  it('pages the window with a cursor that keeps the first page\'s window even when the default window moves', async () => {
    svc.setNow('2031-05-15T12:00:00Z');
    const seen: string[] = [];
    let { a } = await snapshot('limit=4');
    seen.push(...a.signals!.map((s) => s.signal_id));
    // A day later the default window would start a day later; the cursor still reads the original one.
    svc.setNow('2031-06-20T12:00:00Z');
    while (a.next_cursor) {
      ({ a } = await snapshot(`limit=4&cursor=${encodeURIComponent(a.next_cursor)}`));
      expect((a.coverage as unknown as Coverage).window.from).toBe('2031-04-16');
      seen.push(...a.signals!.map((s) => s.signal_id));
    }
    expect(seen.sort()).toEqual([...released['2031-04-20']!, ...released['2031-05-10']!].sort());
  });

  it(`refuses a window longer than ${MAX_SNAPSHOT_WINDOW_DAYS} days, an inverted window, and a cursor from the feed`, async () => {
    svc.setNow('2031-05-15T12:00:00Z');
    const long = await svc.get('/api/v1/category/snapshot?from=2031-01-01&to=2031-04-03');
    expect(long.status).toBe(400);
    expect(ErrorEnvelope.parse(long.body).error.details.field).toBe('from');
    const ok = await svc.get('/api/v1/category/snapshot?from=2031-01-02&to=2031-04-03');
    expect(ok.status).toBe(200);
    expect((await svc.get('/api/v1/category/snapshot?from=2031-05-01&to=2031-04-01')).status).toBe(400);
    expect((await svc.get('/api/v1/category/snapshot?limit=26')).status).toBe(400);
    const feed = await svc.get('/api/v1/signals?limit=1');
    const cursor = (feed.body as { next_cursor: string }).next_cursor;
    const wrong = await svc.get(`/api/v1/category/snapshot?cursor=${encodeURIComponent(cursor)}`);
    expect(wrong.status).toBe(400);
    expect(ErrorEnvelope.parse(wrong.body).error.details.field).toBe('cursor');
  });
});
