import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, headers } from '@evidence-record/contract';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { callerHeaders, insertBrand, insertCheck, insertCustomer, insertProduct, insertSpan, insertWatch, releaseSignal, type CustomerFixture, type ProductFixture } from '@evidence-record/test-support/watch-fixtures';
import { startWatchHarness, type WatchHarness } from '@evidence-record/test-support/watch-harness';

const NOW = new Date('2026-03-15T12:00:00Z');

let db: TestDatabase;
let h: WatchHarness;
/** Monitored since 10 February, still monitored. */
let recent: ProductFixture;
/** Monitored through January only. */
let january: ProductFixture;
let customer: CustomerFixture;
let januaryOnly: CustomerFixture;
let febSignals: string[];

interface ReceiptItem {
  product_id: string;
  coverage: { state: string; covered_days: number; days_in_period: number; period_complete: boolean };
  checks: { valid: number; empty: number; unreadable: number; recoveries: number } | null;
  confirmed_signals: { count: number; signal_ids: string[] };
}

beforeAll(async () => {
  db = await emptyDatabase();
  h = await startWatchHarness(db.url, () => NOW);
  const brand = await insertBrand(h.pool, 'brd_receipt_test', 'Receipt Labs');
  recent = await insertProduct(h.pool, brand, { name: 'Recent Pump' });
  january = await insertProduct(h.pool, brand, { name: 'January Pump' });
  await insertSpan(h.pool, recent.productId, '2026-02-10');
  await insertSpan(h.pool, january.productId, '2026-01-01', '2026-01-31');

  // February for `recent`: 3 valid, 1 empty, 2 unreadable, 1 recovery; the
  // boundary check at midnight on 1 March belongs to March.
  await insertCheck(h.pool, recent.productId, '2026-02-10T06:00:00Z', 'valid');
  await insertCheck(h.pool, recent.productId, '2026-02-11T06:00:00Z', 'empty');
  await insertCheck(h.pool, recent.productId, '2026-02-12T06:00:00Z', 'unreadable');
  await insertCheck(h.pool, recent.productId, '2026-02-13T06:00:00Z', 'unreadable');
  await insertCheck(h.pool, recent.productId, '2026-02-14T06:00:00Z', 'valid', true);
  await insertCheck(h.pool, recent.productId, '2026-02-28T23:59:59Z', 'valid');
  await insertCheck(h.pool, recent.productId, '2026-03-01T00:00:00Z', 'valid');
  await insertCheck(h.pool, january.productId, '2026-01-05T06:00:00Z', 'valid');
  await insertCheck(h.pool, january.productId, '2026-01-06T06:00:00Z', 'empty');

  febSignals = [];
  febSignals.push((await releaseSignal(h.pool, recent, { releaseDate: '2026-02-20' })).signal_id);
  febSignals.push((await releaseSignal(h.pool, recent, { releaseDate: '2026-02-27' })).signal_id);
  await releaseSignal(h.pool, recent, { releaseDate: '2026-03-02' });

  customer = await insertCustomer(h.pool);
  await insertWatch(h.pool, customer.accountId, recent.productId);
  await insertWatch(h.pool, customer.accountId, january.productId);
  januaryOnly = await insertCustomer(h.pool);
  await insertWatch(h.pool, januaryOnly.accountId, january.productId);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await db?.drop();
});

async function receipt(c: CustomerFixture, period?: string) {
  const res = await h.call('GET', `/api/v1/watch/receipt${period ? `?period=${period}` : ''}`, callerHeaders(c, 50));
  return res;
}

function items(body: unknown): Map<string, ReceiptItem> {
  const answer = AnswerEnvelope.parse(body);
  const r = (answer.watch as { receipt: { items: ReceiptItem[] } }).receipt;
  return new Map(r.items.map((i) => [i.product_id, i]));
}

describe('get_watch_receipt', () => {
  it('reports a period the ledger reaches only in part as partly covered, counting the covered days', async () => {
    const res = await receipt(customer, '2026-02');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('partial');
    expect(res.headers.get(headers.budgetEntities)?.split(',').sort()).toEqual([recent.productId, january.productId].sort());
    const byId = items(res.body);
    expect(byId.get(recent.productId)).toEqual({
      product_id: recent.productId,
      name: 'Recent Pump',
      brand_name: 'Receipt Labs',
      coverage: { state: 'partly_covered', covered_days: 19, days_in_period: 28, period_complete: true },
      checks: { valid: 3, empty: 1, unreadable: 2, recoveries: 1 },
      confirmed_signals: { count: 2, signal_ids: febSignals },
    });
    expect(res.body.limitations.join(' ')).toContain('19 of 28 days');
  });

  it('never reports a period the ledger does not reach as zero', async () => {
    const feb = items((await receipt(customer, '2026-02')).body).get(january.productId)!;
    expect(feb.coverage).toEqual({ state: 'partly_covered', covered_days: 0, days_in_period: 28, period_complete: true });
    expect(feb.checks).toBeNull();
    const dec = await receipt(customer, '2025-12');
    expect(dec.body.status).toBe('partial');
    for (const item of items(dec.body).values()) {
      expect(item.coverage.state).toBe('partly_covered');
      expect(item.coverage.covered_days).toBe(0);
      expect(item.checks).toBeNull();
    }
    expect(dec.body.limitations.join(' ')).toMatch(/unknown, not zero/);
  });

  it('reports a period the ledger reaches fully as covered', async () => {
    const res = await receipt(januaryOnly, '2026-01');
    expect(res.body.status).toBe('supported');
    const jan = items(res.body).get(january.productId)!;
    expect(jan.coverage).toEqual({ state: 'covered', covered_days: 31, days_in_period: 31, period_complete: true });
    expect(jan.checks).toEqual({ valid: 1, empty: 1, unreadable: 0, recoveries: 0 });
    expect(res.body.coverage).toEqual({ period: '2026-01', products_total: 1, products_covered: 1, products_partly_covered: 0 });
  });

  it('defaults to the current month, which is partial up to today', async () => {
    const res = await receipt(customer);
    expect(res.status).toBe(200);
    const answer = AnswerEnvelope.parse(res.body);
    expect(answer.status).toBe('partial');
    expect((answer.watch as { receipt: { period: string; period_complete: boolean } }).receipt).toMatchObject({ period: '2026-03', period_complete: false });
    const march = items(res.body).get(recent.productId)!;
    expect(march.coverage).toEqual({ state: 'partly_covered', covered_days: 15, days_in_period: 31, period_complete: false });
    expect(march.checks).toEqual({ valid: 1, empty: 0, unreadable: 0, recoveries: 0 });
    expect(march.confirmed_signals.count).toBe(1);
    expect(answer.limitations.join(' ')).toMatch(/still running/);
  });

  it('refuses a month that has not started and a malformed period', async () => {
    for (const period of ['2026-04', '2030-01', '2026-13', '26-03', '2026-3']) {
      const res = await receipt(customer, period);
      expect(res.status).toBe(400);
      const refusal = ErrorEnvelope.parse(res.body);
      expect(refusal.error.code).toBe('invalid_request');
      expect(refusal.error.details).toMatchObject({ field: 'period' });
    }
  });

  it('answers an empty watchlist with no products and spends nothing', async () => {
    const empty = await insertCustomer(h.pool);
    const res = await receipt(empty, '2026-02');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('supported');
    expect(res.headers.get(headers.budgetEntities)).toBe('');
    expect(res.body.watch.receipt.items).toEqual([]);
  });
});
