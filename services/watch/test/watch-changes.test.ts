import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headers } from '@evidence-record/contract';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { callerHeaders, insertBrand, insertCustomer, insertProduct, insertWatch, releaseSignal, type ProductFixture } from '@evidence-record/test-support/watch-fixtures';
import { startWatchHarness, type WatchHarness } from '@evidence-record/test-support/watch-harness';

/**
 * Every watchlist change is recorded with who made it and through which
 * door (watch_changes), and the internal unsubscribe the gateway calls for an
 * alert email's link removes through the same implementation as
 * unwatch_product: pending alerts cancelled, the change recorded as
 * `email_unsubscribe` with no key, and only a watch older than the email
 * that carried the link (decision 1901).
 */
let db: TestDatabase;
let h: WatchHarness;
let products: ProductFixture[];

const changes = async (accountId: string) =>
  (await h.pool.query<{ product_id: string; change: string; via: string; key_id: string | null; request_id: string | null }>(
    'SELECT product_id, change, via, key_id, request_id FROM watch_changes WHERE account_id = $1 ORDER BY change_id',
    [accountId],
  )).rows;

/** The database's clock in ms: what the email worker dates a link by (the alert's claim). */
const dbNow = async () => Number((await h.pool.query<{ ms: string }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms')).rows[0]!.ms);

/** The gateway's call for a verified link; `issued`: its issue time (ms), null for a link minted before links carried one; default: now. */
const unsubscribe = async (productId: string, accountId: string | null, issued?: number | string | null) => {
  const issuedAt = issued === undefined ? await dbNow() : issued;
  const res = await fetch(`${h.url}/internal/unsubscribe/${productId}`, {
    method: 'POST',
    headers: {
      [headers.requestId]: 'req_0123456789abcdef01234567',
      ...(accountId ? { [headers.accountId]: accountId } : {}),
      ...(issuedAt === null ? {} : { [headers.unsubscribeIssuedAt]: String(issuedAt) }),
    },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  db = await emptyDatabase();
  h = await startWatchHarness(db.url, () => new Date());
  const brand = await insertBrand(h.pool, 'brd_changes_test', 'Changes Labs');
  products = [await insertProduct(h.pool, brand, { name: 'Change One' }), await insertProduct(h.pool, brand, { name: 'Change Two' })];
}, 60_000);

afterAll(async () => {
  await h?.close();
  await db?.drop();
});

describe('watch changes', () => {
  it('records adds and removals with the key and the door, and nothing for a call that changed nothing', async () => {
    const c = await insertCustomer(h.pool);
    const api = callerHeaders(c, 50);
    expect((await h.call('POST', '/api/v1/watch', api, { product_id: products[0]!.productId })).status).toBe(200);
    expect((await h.call('POST', '/api/v1/watch', api, { product_id: products[0]!.productId })).status).toBe(200);
    const mcp: Record<string, string> = { ...callerHeaders(c, 50), [headers.serviceOrigin]: 'mcp' };
    expect((await h.call('DELETE', `/api/v1/watch/${products[0]!.productId}`, mcp)).status).toBe(200);
    expect((await h.call('DELETE', `/api/v1/watch/${products[0]!.productId}`, mcp)).status).toBe(200);
    expect(await changes(c.accountId)).toEqual([
      { product_id: products[0]!.productId, change: 'added', via: 'api', key_id: api[headers.keyId], request_id: api[headers.requestId] },
      { product_id: products[0]!.productId, change: 'removed', via: 'mcp', key_id: mcp[headers.keyId], request_id: mcp[headers.requestId] },
    ]);
  });
});

describe('the internal unsubscribe of an alert email', () => {
  it('removes the watch, cancels its pending alerts, records an email unsubscribe, and repeats without change', async () => {
    const c = await insertCustomer(h.pool);
    const [p, kept] = products as [ProductFixture, ProductFixture];
    await insertWatch(h.pool, c.accountId, p.productId);
    await insertWatch(h.pool, c.accountId, kept.productId);
    const signal = await releaseSignal(h.pool, p);
    await h.pool.query(`INSERT INTO alerts (alert_id, signal_id, account_id, product_id, email) VALUES ('alr_unsub_test_0001', $1, $2, $3, $4)`, [signal.signal_id, c.accountId, p.productId, c.email]);

    const first = await unsubscribe(p.productId, c.accountId);
    expect(first).toEqual({ status: 200, body: { changed: true, alerts_cancelled: 1, product: { product_id: p.productId, name: 'Change One', brand_name: 'Changes Labs' } } });
    const again = await unsubscribe(p.productId, c.accountId);
    expect(again.body).toMatchObject({ changed: false, alerts_cancelled: 0 });

    const { rows: watches } = await h.pool.query('SELECT product_id FROM watches WHERE account_id = $1', [c.accountId]);
    expect(watches.map((w) => w.product_id)).toEqual([kept.productId]);
    const { rows: alerts } = await h.pool.query('SELECT status FROM alerts WHERE alert_id = $1', ['alr_unsub_test_0001']);
    expect(alerts[0].status).toBe('cancelled');
    expect(await changes(c.accountId)).toEqual([
      { product_id: p.productId, change: 'removed', via: 'email_unsubscribe', key_id: null, request_id: 'req_0123456789abcdef01234567' },
    ]);
  });

  it('refuses a call without an account or with a malformed product id', async () => {
    const c = await insertCustomer(h.pool);
    expect((await unsubscribe(products[0]!.productId, null)).status).toBe(400);
    expect((await unsubscribe('prd_NOT-AN-ID', c.accountId)).status).toBe(400);
    expect((await unsubscribe(products[0]!.productId, 'acc_x.y')).status).toBe(400);
    expect((await unsubscribe(products[0]!.productId, c.accountId, '17e11')).status).toBe(400);
  });

  it('removes nothing with a link older than the watch (watched again after the email), nor with a link without an issue time for a watch younger than the cut-over', async () => {
    const c = await insertCustomer(h.pool);
    const p = products[0]!;
    const emailSent = await dbNow();
    await new Promise((r) => setTimeout(r, 5));
    await insertWatch(h.pool, c.accountId, p.productId);
    const older = await unsubscribe(p.productId, c.accountId, emailSent);
    expect(older.status).toBe(409);
    expect(older.body).toMatchObject({ error: 'link_older_than_watch', watched_since: expect.any(String) });
    // This database's migration recorded the cut-over before the watch was added.
    expect((await unsubscribe(p.productId, c.accountId, null)).status).toBe(409);
    const { rows } = await h.pool.query('SELECT 1 FROM watches WHERE account_id = $1 AND product_id = $2', [c.accountId, p.productId]);
    expect(rows).toHaveLength(1);
    expect(await changes(c.accountId)).toEqual([]);
    // A link from after the watch was added removes it.
    expect(await unsubscribe(p.productId, c.accountId)).toMatchObject({ status: 200, body: { changed: true } });
  });

  it('answers an account that does not exist without change', async () => {
    expect(await unsubscribe(products[1]!.productId, 'acc_nobodyatall1')).toMatchObject({ status: 200, body: { changed: false } });
  });
});
