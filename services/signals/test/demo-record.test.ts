import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope } from '@evidence-record/contract';
import { demoDatabase, operatorOnlyValues, type TestDatabase } from '@evidence-record/test-support/db';
import { PUBLIC_BASE_URL, startSignals, type InProcessSignals } from './support/server';

/** The three signals capabilities over the demo Record: every answer valid, nothing internal on the wire. */
let db: TestDatabase;
let svc: InProcessSignals;
let releasedIds: string[];
let secrets: string[];

beforeAll(async () => {
  db = await demoDatabase();
  svc = await startSignals(db.url);
  const { rows } = await svc.pool.query<{ signal_id: string }>('SELECT signal_id FROM signals WHERE released_on IS NOT NULL ORDER BY released_on DESC, signal_id DESC');
  releasedIds = rows.map((r) => r.signal_id);
  // Everything that must never leave the operator side.
  secrets = await operatorOnlyValues(svc.pool);
});

afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

function leaks(text: string): string[] {
  return secrets.filter((s) => text.includes(s));
}

describe('signals over the demo Record', () => {
  it('the feed, read page by page, is exactly the released Signals in release order', async () => {
    expect(releasedIds.length).toBeGreaterThan(25);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await svc.get(`/api/v1/signals?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      const a = AnswerEnvelope.parse(res.body);
      expect(leaks(JSON.stringify(res.body))).toEqual([]);
      seen.push(...a.signals!.map((s) => s.signal_id));
      cursor = a.next_cursor ?? null;
    } while (cursor);
    expect(seen).toEqual(releasedIds);
  });

  it('explains every released Signal with a valid answer, and nothing unreleased', async () => {
    for (const id of releasedIds) {
      const res = await svc.get(`/api/v1/signals/${id}`);
      expect(res.status, id).toBe(200);
      const a = AnswerEnvelope.parse(res.body);
      const s = a.signals![0]!;
      expect(s.signal_url).toBe(`${PUBLIC_BASE_URL}/api/v1/signals/${id}`);
      expect(s.evidence!.length, id).toBeGreaterThan(0);
      if (s.dimension === 'price') {
        expect(s.before!.list_prices!.length + s.after!.list_prices!.length, id).toBe(2);
        expect(a.commercial_facts.every((f) => f.price_basis === 'list')).toBe(true);
      } else {
        expect(s.before!.state!.comparable && s.after!.state!.comparable, id).toBe(true);
      }
      if (s.status !== 'released') expect(s.corrections.length, id).toBeGreaterThan(0);
      expect(leaks(JSON.stringify(res.body)), id).toEqual([]);
    }
    const unreleased = await svc.pool.query<{ signal_id: string }>('SELECT signal_id FROM signals WHERE released_on IS NULL');
    for (const { signal_id } of unreleased.rows) expect((await svc.get(`/api/v1/signals/${signal_id}`)).status).toBe(404);
  });

  it('a withdrawn and a corrected Signal keep their release date and say what happened', async () => {
    const { rows } = await svc.pool.query<{ signal_id: string; status: string; released_on: string }>(`SELECT signal_id, status, released_on FROM signals WHERE status <> 'released'`);
    expect(rows.map((r) => r.status).sort()).toEqual(['corrected', 'withdrawn']);
    for (const r of rows) {
      const s = AnswerEnvelope.parse((await svc.get(`/api/v1/signals/${r.signal_id}`)).body).signals![0]!;
      expect(s.review.released_at).toBe(r.released_on);
      expect(s.corrections[0]!.kind).toBe(r.status === 'withdrawn' ? 'withdrawal' : 'correction');
    }
  });

  it('a since-poller resuming from the newest release date gets only later batches', async () => {
    const newest = await svc.pool.query<{ d: string }>('SELECT max(released_on)::text AS d FROM signals');
    const none = AnswerEnvelope.parse((await svc.get(`/api/v1/signals?since=${newest.rows[0]!.d}`)).body);
    expect(none.signals).toEqual([]);
    const last = AnswerEnvelope.parse((await svc.get('/api/v1/signals?since=2026-11-03')).body);
    expect(last.signals!.every((s) => s.review.released_at > '2026-11-03')).toBe(true);
  });

  it('the category snapshot over the demo Record agrees with the Record', async () => {
    svc.setNow('2026-11-21T12:00:00Z');
    const res = await svc.get('/api/v1/category/snapshot?from=2026-09-01&to=2026-11-30');
    const a = AnswerEnvelope.parse(res.body);
    const { rows } = await svc.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM signals WHERE released_on BETWEEN '2026-09-01' AND '2026-11-30'`);
    const coverage = a.coverage as { signals: { released_in_window: number; by_dimension: Array<{ numerator: number; denominator: number }> } };
    expect(coverage.signals.released_in_window).toBe(rows[0]!.n);
    expect(coverage.signals.by_dimension.reduce((n, d) => n + d.numerator, 0)).toBe(rows[0]!.n);
    expect(coverage.signals.by_dimension.every((d) => d.denominator === rows[0]!.n)).toBe(true);
    expect(leaks(JSON.stringify(res.body))).toEqual([]);
    const refused = await svc.get('/api/v1/category/snapshot?from=2026-01-01&to=2026-11-30');
    expect(ErrorEnvelope.parse(refused.body).error.code).toBe('invalid_request');
  });
});
