import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, ErrorEnvelope, headers } from '@evidence-record/contract';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import {
  callerHeaders,
  insertBrand,
  insertCheck,
  insertCustomer,
  insertProduct,
  insertSource,
  insertSpan,
  releaseSignal,
  type CustomerFixture,
  type ProductFixture,
} from '@evidence-record/test-support/watch-fixtures';
import { startWatchHarness, type WatchHarness } from '@evidence-record/test-support/watch-harness';

const NOW = new Date('2026-03-15T12:00:00Z');

let db: TestDatabase;
let h: WatchHarness;
let monitored: ProductFixture;
let unreadable: ProductFixture;
let unmonitored: ProductFixture;
let retired: ProductFixture;
let spare: ProductFixture[];

beforeAll(async () => {
  db = await emptyDatabase();
  h = await startWatchHarness(db.url, () => NOW);
  const brand = await insertBrand(h.pool, 'brd_watch_test', 'Watch Test Nutrition');
  monitored = await insertProduct(h.pool, brand, { name: 'Pump Alpha' });
  unreadable = await insertProduct(h.pool, brand, { name: 'Pump Bravo' });
  unmonitored = await insertProduct(h.pool, brand, { name: 'Pump Charlie' });
  retired = await insertProduct(h.pool, brand, { name: 'Pump Retired', retiredOn: '2025-12-31' });
  spare = [];
  for (let i = 0; i < 4; i++) spare.push(await insertProduct(h.pool, brand, { name: `Spare ${i}` }));

  await insertSpan(h.pool, monitored.productId, '2026-02-10');
  const src = await insertSource(h.pool, monitored.productId, { lastReadAt: '2026-03-15T06:00:00Z' });
  await insertCheck(h.pool, monitored.productId, '2026-03-14T06:00:00Z', 'valid', false, src);
  await insertCheck(h.pool, monitored.productId, '2026-03-15T06:00:00Z', 'valid', false, src);

  await insertSpan(h.pool, unreadable.productId, '2026-01-01');
  await insertSource(h.pool, unreadable.productId, { health: 'unreadable', healthSince: '2026-03-12T08:00:00Z', lastReadAt: '2026-03-11T08:00:00Z' });
  await insertCheck(h.pool, unreadable.productId, '2026-03-05T08:00:00Z', 'unreadable');

  await insertSpan(h.pool, unmonitored.productId, '2025-06-01', '2025-12-31');
}, 60_000);

afterAll(async () => {
  await h?.close();
  await db?.drop();
});

const watch = (c: CustomerFixture | null, productId: string, limit?: number) => h.call('POST', '/api/v1/watch', callerHeaders(c, limit), { product_id: productId });
const unwatch = (c: CustomerFixture | null, productId: string) => h.call('DELETE', `/api/v1/watch/${productId}`, callerHeaders(c, 50));
const list = (c: CustomerFixture | null) => h.call('GET', '/api/v1/watch', callerHeaders(c, 50));

function expectRefusal(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status);
  const parsed = ErrorEnvelope.parse(res.body);
  expect(parsed.error.code).toBe(code);
  return parsed;
}

describe('watch_product and unwatch_product', () => {
  it('adds once and succeeds without change when the product is already watched', async () => {
    const c = await insertCustomer(h.pool);
    const first = await watch(c, monitored.productId, 50);
    expect(first.status).toBe(200);
    const a1 = AnswerEnvelope.parse(first.body);
    expect(a1.watch).toMatchObject({ changed: true, count: 1, limit: 50 });
    expect(a1.product?.product_id).toBe(monitored.productId);
    expect(first.headers.get(headers.budgetEntities)).toBe(monitored.productId);
    expect(first.headers.get('cache-control')).toContain('no-store');

    const again = await watch(c, monitored.productId, 50);
    expect(again.status).toBe(200);
    expect(AnswerEnvelope.parse(again.body).watch).toMatchObject({ changed: false, count: 1 });
    expect(again.body.summary).toMatch(/already/);

    const listed = AnswerEnvelope.parse((await list(c)).body);
    expect((listed.watch as { items: unknown[] }).items).toHaveLength(1);
  });

  it('removes once and succeeds without change when the product is not watched', async () => {
    const c = await insertCustomer(h.pool);
    await watch(c, monitored.productId, 50);
    const first = await unwatch(c, monitored.productId);
    expect(first.status).toBe(200);
    expect(AnswerEnvelope.parse(first.body).watch).toMatchObject({ changed: true, count: 0 });
    const again = await unwatch(c, monitored.productId);
    expect(again.status).toBe(200);
    expect(AnswerEnvelope.parse(again.body).watch).toMatchObject({ changed: false, count: 0 });
    expect(again.headers.get(headers.budgetEntities)).toBe(monitored.productId);
    const listed = AnswerEnvelope.parse((await list(c)).body);
    expect(listed.watch).toMatchObject({ items: [], count: 0 });
  });

  it('unwatching a well-formed id the Record does not hold succeeds: unsupported, nothing changed, no entity named', async () => {
    const c = await insertCustomer(h.pool);
    for (const id of ['prd_zzzzzzzzzzzz', 'prd_000000000000']) {
      const res = await unwatch(c, id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const a = AnswerEnvelope.parse(res.body);
      expect([a.status, a.product, a.watch]).toEqual(['unsupported', null, expect.objectContaining({ changed: false, alerts_cancelled: 0, count: 0 })]);
      expect(a.limitations.join(' ')).toContain(`${id} is not a product in the Record`);
      expect(res.headers.get(headers.budgetEntities)).toBe('');
    }
    expectRefusal(await unwatch(null, 'prd_zzzzzzzzzzzz'), 403, 'account_binding_required');
  });

  it('refuses a retired product, and an id the Record does not hold', async () => {
    const c = await insertCustomer(h.pool);
    const r = expectRefusal(await watch(c, retired.productId, 50), 409, 'product_not_watchable');
    expect(r.error.details).toMatchObject({ product_id: retired.productId });
    expectRefusal(await watch(c, 'prd_000000000000', 50), 404, 'not_found');
    expectRefusal(await watch(c, 'Pump Alpha', 50), 400, 'invalid_request');
    // Nothing was added by the refusals.
    expect(AnswerEnvelope.parse((await list(c)).body).watch).toMatchObject({ count: 0 });
  });

  it('refuses a new watch beyond the watch limit, but re-watching at the limit still succeeds', async () => {
    const c = await insertCustomer(h.pool);
    expect((await watch(c, spare[0]!.productId, 2)).status).toBe(200);
    expect((await watch(c, spare[1]!.productId, 2)).status).toBe(200);
    const refused = expectRefusal(await watch(c, spare[2]!.productId, 2), 409, 'watch_limit_reached');
    expect(refused.error.details).toMatchObject({ limit: 2, count: 2 });
    expect((await watch(c, spare[1]!.productId, 2)).body.watch).toMatchObject({ changed: false });
    // Without the gateway's header the plan's own limit (pro: 50) applies.
    const noHeader = await watch(c, spare[2]!.productId);
    expect(noHeader.status).toBe(200);
  });

  it('lets concurrent adds at the limit through only up to the limit', async () => {
    const c = await insertCustomer(h.pool);
    const results = await Promise.all(spare.map((p) => watch(c, p.productId, 2)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'watch_limit_reached')).toHaveLength(2);
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM watches WHERE account_id = $1', [c.accountId]);
    expect(rows[0].n).toBe(2);
  });

  it('refuses without a bound account, with several accounts, on a plan without watch, and on a mismatched organisation', async () => {
    expectRefusal(await watch(null, monitored.productId, 50), 403, 'account_binding_required');
    expectRefusal(await list(null), 403, 'account_binding_required');
    expectRefusal(await h.call('GET', '/api/v1/watch/receipt', callerHeaders(null)), 403, 'account_binding_required');
    expectRefusal(await unwatch(null, monitored.productId), 403, 'account_binding_required');

    const multi = await insertCustomer(h.pool);
    await h.pool.query('INSERT INTO accounts (account_id, org_id, email) VALUES ($1, $2, $3)', [`acc_second_${multi.accountId.slice(4)}`, multi.orgId, 'second@customers.example']);
    expectRefusal(await watch(multi, monitored.productId, 50), 403, 'account_binding_required');

    const free = await insertCustomer(h.pool, 'free');
    expectRefusal(await watch(free, monitored.productId, 50), 403, 'plan_entitlement_required');
    expectRefusal(await list(free), 403, 'plan_entitlement_required');

    const a = await insertCustomer(h.pool);
    const b = await insertCustomer(h.pool);
    expectRefusal(await watch({ ...a, orgId: b.orgId }, monitored.productId, 50), 403, 'account_binding_required');
    expectRefusal(await watch({ ...a, accountId: 'acc_doesnotexist' }, monitored.productId, 50), 403, 'account_binding_required');
  });

  it('never takes an account from the payload', async () => {
    const a = await insertCustomer(h.pool);
    const b = await insertCustomer(h.pool);
    const res = await h.call('POST', '/api/v1/watch', callerHeaders(a, 50), { product_id: monitored.productId, account_id: b.accountId });
    const r = expectRefusal(res, 400, 'invalid_request');
    expect(JSON.stringify(r.error.details)).toContain('account_id');
    const { rows } = await h.pool.query('SELECT count(*)::int AS n FROM watches WHERE account_id = ANY($1)', [[a.accountId, b.accountId]]);
    expect(rows[0].n).toBe(0);
  });
});

describe('account isolation', () => {
  it('one account never sees or changes the list of another', async () => {
    const a = await insertCustomer(h.pool);
    const b = await insertCustomer(h.pool);
    await watch(a, monitored.productId, 50);
    await watch(a, unreadable.productId, 50);
    await watch(b, unmonitored.productId, 50);

    const listA = AnswerEnvelope.parse((await list(a)).body);
    const listB = AnswerEnvelope.parse((await list(b)).body);
    expect((listA.watch as { items: { product_id: string }[] }).items.map((i) => i.product_id).sort()).toEqual([monitored.productId, unreadable.productId].sort());
    expect((listB.watch as { items: { product_id: string }[] }).items.map((i) => i.product_id)).toEqual([unmonitored.productId]);

    // B removing A's product changes nothing for A.
    expect((await unwatch(b, monitored.productId)).body.watch).toMatchObject({ changed: false });
    expect(AnswerEnvelope.parse((await list(a)).body).watch).toMatchObject({ count: 2 });
    // B's receipt names only B's product.
    const receiptB = await h.call('GET', '/api/v1/watch/receipt?period=2026-02', callerHeaders(b, 50));
    expect(receiptB.headers.get(headers.budgetEntities)).toBe(unmonitored.productId);
  });
});

describe('watch items', () => {
  it('show monitoring state, last read, next check due and unreadability, and no internal detail', async () => {
    const c = await insertCustomer(h.pool);
    for (const p of [monitored, unreadable, unmonitored]) await watch(c, p.productId, 50);
    // A released Signal on a watched product must not put candidate detail into the list.
    await releaseSignal(h.pool, monitored, { summary: 'Citrulline changed.' });

    const res = await list(c);
    expect(res.status).toBe(200);
    const answer = AnswerEnvelope.parse(res.body);
    expect(answer.status).toBe('supported');
    expect(res.headers.get(headers.budgetEntities)?.split(',').sort()).toEqual([monitored.productId, unreadable.productId, unmonitored.productId].sort());
    const items = (answer.watch as { items: Record<string, unknown>[] }).items;
    const byId = new Map(items.map((i) => [i.product_id, i]));

    expect(byId.get(monitored.productId)).toMatchObject({
      name: 'Pump Alpha',
      brand_name: 'Watch Test Nutrition',
      monitoring_state: 'monitored',
      currently_unreadable: false,
      last_read_at: '2026-03-15T06:00:00.000Z',
      last_checked_at: '2026-03-15T06:00:00.000Z',
      next_check_due: '2026-03-22T06:00:00.000Z',
      check_overdue: false,
      check_interval_hours: 168,
    });
    expect(byId.get(unreadable.productId)).toMatchObject({
      monitoring_state: 'source_unreadable',
      currently_unreadable: true,
      unreadable_since: '2026-03-12T08:00:00.000Z',
      last_read_at: '2026-03-11T08:00:00.000Z',
      next_check_due: '2026-03-12T08:00:00.000Z',
      check_overdue: true,
    });
    expect(byId.get(unmonitored.productId)).toMatchObject({ monitoring_state: 'not_monitored', currently_unreadable: null, next_check_due: null });
    expect(answer.limitations.join(' ')).toMatch(/cannot be read/);
    expect(answer.products?.map((p) => p.product_id).sort()).toEqual([monitored.productId, unreadable.productId, unmonitored.productId].sort());

    const text = JSON.stringify(res.body);
    for (const forbidden of ['secret-source.example', 'source_id', 'capture', 'check_id', 'candidate', 'Citrulline', 'reviewer', 'storage_path', c.accountId, c.orgId]) {
      expect(text).not.toContain(forbidden);
    }
  });
});

describe('unwatching stops future alerts', () => {
  it('cancels pending alerts of that product and leaves delivered ones alone', async () => {
    const c = await insertCustomer(h.pool);
    await watch(c, monitored.productId, 50);
    const delivered = await releaseSignal(h.pool, monitored);
    const waiting = await releaseSignal(h.pool, monitored);
    await h.pool.query(
      `INSERT INTO alerts (alert_id, signal_id, account_id, product_id, email, status, sent_at) VALUES
         ('alr_delivered_' || $1, $2, $1, $4, $5, 'sent', now()),
         ('alr_waiting_' || $1, $3, $1, $4, $5, 'pending', NULL)`,
      [c.accountId, delivered.signal_id, waiting.signal_id, monitored.productId, c.email],
    );
    const res = await unwatch(c, monitored.productId);
    expect(AnswerEnvelope.parse(res.body).watch).toMatchObject({ changed: true, alerts_cancelled: 1 });
    const { rows } = await h.pool.query<{ alert_id: string; status: string }>('SELECT alert_id, status FROM alerts WHERE account_id = $1 ORDER BY alert_id', [c.accountId]);
    expect(rows).toEqual([
      { alert_id: `alr_delivered_${c.accountId}`, status: 'sent' },
      { alert_id: `alr_waiting_${c.accountId}`, status: 'cancelled' },
    ]);
  });
});
