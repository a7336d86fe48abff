import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, MAX_SNAPSHOT_WINDOW_DAYS, daysInclusive } from '@evidence-record/contract';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { startSignals, type InProcessSignals } from './support/server';

/**
 * Every calendar date a request may carry (years 0001 to 9999; the schemas
 * refuse 0000) is answered, never a 5xx: the feed's `since`/`until` and the
 * snapshot's `from`/`to`, alone and together, fuzzed over the whole space
 * with the edges pinned. Issue 18: `from=0001-01-01` once made the service
 * ask Postgres for 0000-12-31 and answer 500.
 */
let db: TestDatabase;
let svc: InProcessSignals;
const TODAY = '2026-11-24';

const FIRST = Date.parse('0001-01-01T00:00:00Z');
const LAST = Date.parse('9999-12-31T00:00:00Z');
const DAY = 86_400_000;
const dateAt = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Any date 0001-01-01..9999-12-31, with the edges and the days next to them weighted in. */
const anyDate = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: (LAST - FIRST) / DAY }).map((d) => dateAt(FIRST + d * DAY)) },
  { weight: 1, arbitrary: fc.constantFrom('0001-01-01', '0001-01-02', '0001-01-31', '0001-03-01', '9999-12-31', '9999-12-30', '9999-01-01') },
);
const RUNS = 120;

beforeAll(async () => {
  db = await demoDatabase();
  svc = await startSignals(db.url);
  svc.setNow(`${TODAY}T12:00:00Z`);
});

afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

async function answered(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await svc.get(path);
  expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(500);
  if (res.status === 200) expect(AnswerEnvelope.safeParse(res.body).success, path).toBe(true);
  else expect(ErrorEnvelope.safeParse(res.body).success, path).toBe(true);
  return res;
}

describe('the audit finding, pinned', () => {
  it.each([
    '/api/v1/category/snapshot?from=0001-01-01&to=0001-01-31',
    '/api/v1/category/snapshot?from=0001-01-01&to=0001-01-01',
    '/api/v1/category/snapshot?to=0001-01-01',
    '/api/v1/category/snapshot?to=0001-01-15',
    '/api/v1/category/snapshot?from=9999-10-01&to=9999-12-31',
    '/api/v1/signals?since=0001-01-01&until=0001-01-01',
    '/api/v1/signals?since=9999-12-31',
  ])('%s answers 200', async (path) => {
    const res = await answered(path);
    expect(res.status).toBe(200);
  });

  it('a default window that would start before 0001-01-01 starts on it', async () => {
    const res = await answered('/api/v1/category/snapshot?to=0001-01-10');
    expect((res.body.coverage as { window: unknown }).window).toMatchObject({ from: '0001-01-01', to: '0001-01-10', days: 10 });
  });
});

describe('fuzzed over 0001-01-01..9999-12-31', () => {
  it('feed since / until / both: always a 200 answer', async () => {
    await fc.assert(
      fc.asyncProperty(anyDate, anyDate, fc.constantFrom('since', 'until', 'both'), async (a, b, shape) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const q = shape === 'since' ? `since=${a}` : shape === 'until' ? `until=${a}` : `since=${lo}&until=${hi}`;
        expect((await answered(`/api/v1/signals?${q}&limit=3`)).status).toBe(200);
      }),
      { numRuns: RUNS },
    );
  });

  it('snapshot from and to: 200 within the cap, 400 naming the field beyond it', async () => {
    await fc.assert(
      fc.asyncProperty(anyDate, fc.integer({ min: 0, max: MAX_SNAPSHOT_WINDOW_DAYS + 40 }), async (from, span) => {
        const toMs = Date.parse(`${from}T00:00:00Z`) + span * DAY;
        const to = toMs > LAST ? '9999-12-31' : dateAt(toMs);
        const res = await answered(`/api/v1/category/snapshot?from=${from}&to=${to}&limit=2`);
        if (daysInclusive(from, to) <= MAX_SNAPSHOT_WINDOW_DAYS) expect(res.status).toBe(200);
        else expect([res.status, (res.body.error as { details: { field: string } }).details.field]).toEqual([400, 'from']);
      }),
      { numRuns: RUNS },
    );
  });

  it('snapshot from alone (to = today) and to alone (30 days back, never before 0001-01-01)', async () => {
    await fc.assert(
      fc.asyncProperty(anyDate, fc.boolean(), async (date, alone) => {
        if (alone) {
          const res = await answered(`/api/v1/category/snapshot?to=${date}&limit=2`);
          expect(res.status).toBe(200);
          const w = (res.body.coverage as { window: { from: string; to: string } }).window;
          expect(w.to).toBe(date);
          expect(w.from >= '0001-01-01' && w.from <= date).toBe(true);
        } else {
          const res = await answered(`/api/v1/category/snapshot?from=${date}&limit=2`);
          const fits = date <= TODAY && daysInclusive(date, TODAY) <= MAX_SNAPSHOT_WINDOW_DAYS;
          expect(res.status).toBe(fits ? 200 : 400);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
