import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope } from '@evidence-record/contract';
import { addProduct } from '@evidence-record/curation';
import { addSource, createMonitor, defaultSettings, policyOf, runOnce, type MonitorSettings } from '@evidence-record/sources';
import { dsldLabel, startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { callerHeaders, insertCustomer, insertWatch, type CustomerFixture } from '@evidence-record/test-support/watch-fixtures';
import { startWatchHarness, type WatchHarness } from '@evidence-record/test-support/watch-harness';

/**
 * Watch items and receipts come from the source monitor's checks: what the
 * monitor records (valid, unreadable, recovered, the next scheduled check) is
 * what a watcher reads, with no seeded check in between.
 */
let db: TestDatabase;
let h: WatchHarness;
let src: SourceServer;
let customer: CustomerFixture;
let productId: string;
let sourceId: number;
let settings: MonitorSettings;

beforeAll(async () => {
  db = await emptyDatabase();
  h = await startWatchHarness(db.url, () => new Date());
  src = await startSourceServer();
  settings = { ...defaultSettings(), DSLD_BASE_URL: `${src.origin}/dsld/v9`, MONITOR_ALLOW_LOCALHOST: true, MONITOR_HOST_INTERVAL_MS: 0, MONITOR_ROBOTS_TTL_MS: 0, MONITOR_READ_TIMEOUT_MS: 1_000 };
  src.labels.set(7001, dsldLabel({ id: 7001, brand: 'Watchful Labs', name: 'Sentinel Pre', caffeineMg: 150 }));
  productId = (await addProduct(h.pool, { brand: 'Watchful Labs', name: 'Sentinel Pre' })).product_id;
  sourceId = (await addSource(h.pool, { product_id: productId, kind: 'dsld_label', url: src.labelUrl(7001), every: '1d' }, policyOf(settings))).source_id;
  customer = await insertCustomer(h.pool);
  await insertWatch(h.pool, customer.accountId, productId);
}, 60_000);

afterAll(async () => {
  await src?.close();
  await h?.close();
  await db?.drop();
});

async function check(): Promise<void> {
  await h.pool.query('UPDATE sources SET next_check_due = now() WHERE source_id = $1', [sourceId]);
  const monitor = createMonitor(h.pool, settings, { owner: 'watch-test' });
  await runOnce(monitor, { productId });
  await monitor.close();
}

async function item(): Promise<Record<string, unknown>> {
  const res = await h.call('GET', '/api/v1/watch', callerHeaders(customer, 50));
  expect(res.status).toBe(200);
  const answer = AnswerEnvelope.parse(res.body);
  return (answer.watch as { items: Array<Record<string, unknown>> }).items[0]!;
}

async function receipt(): Promise<Record<string, unknown>> {
  const res = await h.call('GET', '/api/v1/watch/receipt', callerHeaders(customer, 50));
  expect(res.status).toBe(200);
  const answer = AnswerEnvelope.parse(res.body);
  return (answer.watch as { receipt: { items: Array<Record<string, unknown>> } }).receipt.items[0]!;
}

describe('watch items and receipts from monitor checks', () => {
  it('show the last read, the next scheduled check, an unreadable source and its recovery', async () => {
    await check();
    const { rows } = await h.pool.query<{ next_check_due: Date; last_checked_at: Date }>('SELECT next_check_due, last_checked_at FROM sources WHERE source_id = $1', [sourceId]);
    const healthy = await item();
    expect(healthy).toMatchObject({ monitoring_state: 'monitored', currently_unreadable: false, check_overdue: false, next_check_due: rows[0]!.next_check_due.toISOString(), last_checked_at: rows[0]!.last_checked_at.toISOString() });

    src.behaviours.set('/dsld/v9/label/7001', { status: 503, body: 'down', times: 1 });
    await check();
    const down = await item();
    expect(down).toMatchObject({ monitoring_state: 'source_unreadable', currently_unreadable: true });
    expect(down.unreadable_since).not.toBeNull();

    await h.pool.query('DELETE FROM host_slots');
    await check();
    expect(await item()).toMatchObject({ monitoring_state: 'monitored', currently_unreadable: false });
    expect(await receipt()).toMatchObject({ checks: { valid: 2, empty: 0, unreadable: 1, recoveries: 1 } });
  });
});
