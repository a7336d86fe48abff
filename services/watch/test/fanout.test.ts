import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSONCodec } from 'nats';
import { streamNames } from '@evidence-record/contract';
import { connectNats, createLogger, createPool, Metrics, type NatsConnection, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { NATS_URL } from '@evidence-record/test-support/infra';
import { alertIdFor } from '../src/fanout/alert-id';
import { startSignalFanout } from '../src/fanout/start';
import { insertBrand, insertCustomer, insertProduct, insertWatch, relayOutbox, releaseSignal, waitFor } from '@evidence-record/test-support/watch-fixtures';

let db: TestDatabase;
let pool: Pool;
let nc: NatsConnection;
let prefix: string;
let fanout: { stop: () => Promise<void> };
let brand: string;

const alertsInStream = async () => (await (await nc.jetstreamManager()).streams.info(streamNames(prefix).alerts.stream)).state.messages;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 6, statementTimeoutMs: 30_000 });
  prefix = isolationPrefix('fanout').natsPrefix;
  nc = await connectNats(NATS_URL, 'fanout-test');
  fanout = await startSignalFanout({ nc, pool, natsPrefix: prefix, durable: 'watch-fanout', ackWaitMs: 60_000, log: createLogger('watch-test', 'silent'), metrics: new Metrics('watch') });
  brand = await insertBrand(pool, 'brd_fanout_test', 'Fanout Labs');
}, 60_000);

afterAll(async () => {
  await fanout?.stop();
  if (nc) {
    const jsm = await nc.jetstreamManager();
    const names = streamNames(prefix);
    for (const s of [names.signals.stream, names.alerts.stream]) await jsm.streams.delete(s).catch(() => undefined);
    await nc.close();
  }
  await pool?.end();
  await db?.drop();
});

describe('Signal fan-out', () => {
  it('stores one alert per watcher in SQL with the same id the code derives', async () => {
    const product = await insertProduct(pool, brand);
    const c = await insertCustomer(pool);
    await insertWatch(pool, c.accountId, product.productId);
    const event = await releaseSignal(pool, product);
    await relayOutbox(pool, nc, prefix);
    const [row] = await waitFor('the alert', async () => {
      const { rows } = await pool.query('SELECT alert_id, email, status FROM alerts WHERE signal_id = $1', [event.signal_id]);
      return rows.length > 0 ? rows : null;
    });
    expect(row).toEqual({ alert_id: alertIdFor(event.signal_id, c.accountId), email: c.email, status: 'pending' });
  });

  it('alerts nobody about a Signal withdrawn before the fan-out ran', async () => {
    const product = await insertProduct(pool, brand);
    const c = await insertCustomer(pool);
    await insertWatch(pool, c.accountId, product.productId);
    const event = await releaseSignal(pool, product);
    await pool.query(`UPDATE signals SET status = 'withdrawn' WHERE signal_id = $1`, [event.signal_id]);
    const before = await alertsInStream();
    await relayOutbox(pool, nc, prefix);
    await waitFor('the event to be consumed', async () => {
      const info = await (await nc.jetstreamManager()).consumers.info(streamNames(prefix).signals.stream, 'watch-fanout');
      return info.num_pending + info.num_ack_pending === 0;
    });
    expect((await pool.query('SELECT 1 FROM alerts WHERE signal_id = $1', [event.signal_id])).rows).toHaveLength(0);
    expect(await alertsInStream()).toBe(before);
  });

  it('fans one Signal out to 10,000 watchers well under a minute, and a second delivery adds nothing', async () => {
    const product = await insertProduct(pool, brand, { name: 'Popular Pre' });
    await pool.query(`INSERT INTO organizations (org_id, name, plan_id) SELECT 'org_bulk' || i, 'Bulk ' || i, 'pro' FROM generate_series(1, 10000) i`);
    await pool.query(`INSERT INTO accounts (account_id, org_id, email) SELECT 'acc_bulk' || i, 'org_bulk' || i, 'bulk' || i || '@customers.example' FROM generate_series(1, 10000) i`);
    await pool.query(`INSERT INTO watches (account_id, product_id) SELECT 'acc_bulk' || i, $1 FROM generate_series(1, 10000) i`, [product.productId]);
    const before = await alertsInStream();

    const event = await releaseSignal(pool, product);
    const started = Date.now();
    await relayOutbox(pool, nc, prefix);
    await waitFor('10,000 alert messages', async () => (await alertsInStream()) - before >= 10_000, 60_000, 200);
    const seconds = (Date.now() - started) / 1000;
    console.log(`fan-out of 10,000 watchers: ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(30);
    const { rows } = await pool.query<{ n: number; distinct_emails: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT email)::int AS distinct_emails FROM alerts WHERE signal_id = $1 AND status = 'pending'`,
      [event.signal_id],
    );
    expect(rows[0]).toEqual({ n: 10_000, distinct_emails: 10_000 });

    // The same event again under a new message id (a relay republishing after the duplicate window).
    await nc.jetstream().publish(streamNames(prefix).signals.released, JSONCodec().encode(event), { msgID: `${event.event_id}:again` });
    await waitFor('the second delivery to be consumed', async () => {
      const info = await (await nc.jetstreamManager()).consumers.info(streamNames(prefix).signals.stream, 'watch-fanout');
      return info.num_pending + info.num_ack_pending === 0;
    }, 60_000);
    expect(await alertsInStream()).toBe(before + 10_000);
    expect((await pool.query('SELECT count(*)::int AS n FROM alerts WHERE signal_id = $1', [event.signal_id])).rows[0].n).toBe(10_000);
  }, 120_000);
});
