import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope } from '@evidence-record/contract';
import { demoDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { callerHeaders, insertCustomer, type CustomerFixture } from '@evidence-record/test-support/watch-fixtures';
import { startWatchHarness, type WatchHarness } from '@evidence-record/test-support/watch-harness';

/**
 * The watch capabilities over the demo Record: its weekly monitoring ledger,
 * its one manufacturer source that cannot be read, its retired product and
 * its spans that start late or end early.
 */
const NOW = new Date('2026-11-20T12:00:00Z');

let db: TestDatabase;
let h: WatchHarness;
let customer: CustomerFixture;
const ids: Record<string, string> = {};

async function one(sql: string): Promise<string> {
  const { rows } = await h.pool.query<{ id: string }>(sql);
  if (!rows[0]) throw new Error(`demo Record has no row for: ${sql}`);
  return rows[0].id;
}

beforeAll(async () => {
  db = await demoDatabase();
  h = await startWatchHarness(db.url, () => NOW);
  ids.unreadable = await one(`SELECT product_id AS id FROM sources WHERE health = 'unreadable' ORDER BY product_id LIMIT 1`);
  ids.retired = await one(`SELECT product_id AS id FROM products WHERE retired_on IS NOT NULL ORDER BY product_id LIMIT 1`);
  ids.unmonitored = await one(`SELECT p.product_id AS id FROM products p
                                WHERE p.retired_on IS NULL AND NOT EXISTS (SELECT 1 FROM monitoring_spans s WHERE s.product_id = p.product_id)
                                ORDER BY p.product_id LIMIT 1`);
  // Monitoring that stopped and resumed: the gap between two spans.
  ids.gap = await one(`SELECT a.product_id AS id FROM monitoring_spans a JOIN monitoring_spans b ON b.product_id = a.product_id AND b.started_on > a.ended_on
                        JOIN products p ON p.product_id = a.product_id WHERE p.retired_on IS NULL ORDER BY a.product_id LIMIT 1`);
  ids.lateStart = await one(`SELECT product_id AS id FROM monitoring_spans WHERE started_on > '2026-06-01' AND started_on < '2026-11-01' ORDER BY started_on DESC LIMIT 1`);
  ids.steady = await one(`SELECT s.product_id AS id FROM monitoring_spans s
                           WHERE s.started_on < '2026-02-01' AND s.ended_on IS NULL
                             AND NOT EXISTS (SELECT 1 FROM sources so WHERE so.product_id = s.product_id AND so.health = 'unreadable')
                           ORDER BY s.product_id LIMIT 1`);
  customer = await insertCustomer(h.pool);
  for (const key of ['unreadable', 'unmonitored', 'gap', 'lateStart', 'steady']) {
    const res = await h.call('POST', '/api/v1/watch', callerHeaders(customer, 50), { product_id: ids[key] });
    expect(res.status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
  await db?.drop();
});

describe('watching the demo Record', () => {
  it('shows the unreadable source, the unmonitored product and the weekly schedule', async () => {
    const res = await h.call('GET', '/api/v1/watch', callerHeaders(customer, 50));
    const answer = AnswerEnvelope.parse(res.body);
    const items = new Map((answer.watch as { items: Record<string, unknown>[] }).items.map((i) => [i.product_id as string, i]));
    expect(items.get(ids.unreadable!)).toMatchObject({ monitoring_state: 'source_unreadable', currently_unreadable: true });
    expect(items.get(ids.unmonitored!)).toMatchObject({ monitoring_state: 'not_monitored', currently_unreadable: null, next_check_due: null });
    const steady = items.get(ids.steady!)!;
    expect(steady).toMatchObject({ monitoring_state: 'monitored', currently_unreadable: false });
    expect(Date.parse(steady.next_check_due as string) - Date.parse(steady.last_checked_at as string)).toBe(7 * 86_400_000);
    expect(JSON.stringify(res.body)).not.toMatch(/https?:\/\/(?!.*\/api\/v1)/);
  });

  it('refuses the retired product', async () => {
    const res = await h.call('POST', '/api/v1/watch', callerHeaders(customer, 50), { product_id: ids.retired });
    expect(res.status).toBe(409);
    expect(ErrorEnvelope.parse(res.body).error.code).toBe('product_not_watchable');
  });

  it('reports months the ledger reaches in part, or not at all, as partly covered and never as zero', async () => {
    const period = (await h.pool.query<{ p: string }>(`SELECT to_char(started_on, 'YYYY-MM') AS p FROM monitoring_spans WHERE product_id = $1`, [ids.lateStart])).rows[0]!.p;
    const before = `${period.slice(0, 5)}${String(Number(period.slice(5)) - 1).padStart(2, '0')}`;
    for (const [p, expectNull] of [[period, false], [before, true]] as const) {
      const res = await h.call('GET', `/api/v1/watch/receipt?period=${p}`, callerHeaders(customer, 50));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('partial');
      const item = res.body.watch.receipt.items.find((i: { product_id: string }) => i.product_id === ids.lateStart);
      expect(item.coverage.state).toBe('partly_covered');
      expect(item.coverage.covered_days).toBeLessThan(item.coverage.days_in_period);
      if (expectNull) expect(item.checks).toBeNull();
      else expect(item.checks.valid).toBeGreaterThan(0);
    }
  });

  it('counts only the days either side of a gap in monitoring', async () => {
    const spans = (await h.pool.query<{ ended_on: string; next_start: string }>(
      `SELECT a.ended_on::text AS ended_on, b.started_on::text AS next_start FROM monitoring_spans a JOIN monitoring_spans b ON b.product_id = a.product_id AND b.started_on > a.ended_on WHERE a.product_id = $1`,
      [ids.gap],
    )).rows[0]!;
    const period = spans.next_start.slice(0, 7);
    const res = await h.call('GET', `/api/v1/watch/receipt?period=${period}`, callerHeaders(customer, 50));
    const item = res.body.watch.receipt.items.find((i: { product_id: string }) => i.product_id === ids.gap);
    const daysInPeriod = new Date(Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5)), 0)).getUTCDate();
    const coveredBefore = spans.ended_on.slice(0, 7) === period ? Number(spans.ended_on.slice(8)) : 0;
    const coveredAfter = daysInPeriod - Number(spans.next_start.slice(8)) + 1;
    expect(item.coverage).toEqual({ state: 'partly_covered', covered_days: coveredBefore + coveredAfter, days_in_period: daysInPeriod, period_complete: true });
    expect(item.checks).not.toBeNull();
  });

  it('counts a fully monitored month with its checks and confirmed Signals', async () => {
    const res = await h.call('GET', '/api/v1/watch/receipt?period=2026-03', callerHeaders(customer, 50));
    const item = res.body.watch.receipt.items.find((i: { product_id: string }) => i.product_id === ids.steady);
    expect(item.coverage).toEqual({ state: 'covered', covered_days: 31, days_in_period: 31, period_complete: true });
    const { rows } = await h.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM monitoring_checks WHERE product_id = $1 AND outcome = 'valid' AND checked_at >= '2026-03-01T00:00:00Z' AND checked_at < '2026-04-01T00:00:00Z'`,
      [ids.steady],
    );
    expect(item.checks.valid).toBe(rows[0]!.n);
    expect(item.checks.valid).toBeGreaterThan(0);
    const signals = await h.pool.query<{ signal_id: string }>(
      `SELECT signal_id FROM signals WHERE product_id = $1 AND released_on BETWEEN '2026-03-01' AND '2026-03-31' AND status <> 'withdrawn' ORDER BY released_on, signal_id`,
      [ids.steady],
    );
    expect(item.confirmed_signals.signal_ids).toEqual(signals.rows.map((r) => r.signal_id));
  });
});
