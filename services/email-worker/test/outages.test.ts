import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { insertBrand, insertCustomer, insertProduct, insertWatch, relayOutbox, releaseSignal, waitFor, type CustomerFixture } from '@evidence-record/test-support/watch-fixtures';
import { privateNats, type PrivateServer } from '@evidence-record/test-support/private-servers';
import { SmtpSink } from './support/smtp-sink';
import { alertsBacklog, startFanout, startWorker, type Running } from '@evidence-record/test-support/email-worker';

/**
 * NATS or SMTP away while Signals are released: alerts wait, none is lost,
 * none is sent twice. NATS here is a private `nats-server` child process
 * (never the machine's main NATS), stopped and started on the same port and
 * storage directory.
 */
let db: TestDatabase;
let nats: PrivateServer & { url: string };
let sink: SmtpSink;
let fanout: Awaited<ReturnType<typeof startFanout>>;
let worker: Running | null = null;
let brand: string;
const prefix = 'OUTAGE';

beforeAll(async () => {
  db = await emptyDatabase();
  nats = await privateNats();
  sink = new SmtpSink();
  await sink.start();
  fanout = await startFanout(db.url, nats.url, prefix);
  worker = await startWorker(db.url, nats.url, prefix, sink.port);
  brand = await insertBrand(fanout.pool, 'brd_outage_test', 'Outage Labs');
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await fanout?.stop();
  await sink?.stop();
  await nats?.dispose();
  await db?.drop();
});

async function watchers(productId: string, n: number): Promise<CustomerFixture[]> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const c = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, c.accountId, productId);
    out.push(c);
  }
  return out;
}

const mailsTo = (cs: CustomerFixture[]) => sink.received.filter((m) => cs.some((c) => c.email === m.to[0]));

async function expectExactlyOneEach(cs: CustomerFixture[]) {
  await waitFor('one email per watcher', async () => mailsTo(cs).length >= cs.length, 30_000);
  await waitFor('the ALERTS backlog to drain', async () => (await alertsBacklog(fanout.nc, prefix).catch(() => 1)) === 0, 20_000);
  await new Promise((r) => setTimeout(r, 1_000)); // a duplicate, if any, would arrive now (an absence has no state to wait for)
  expect(mailsTo(cs).map((m) => m.to[0]).sort()).toEqual(cs.map((c) => c.email).sort());
}

describe('outages during a release', () => {
  it('NATS down when the Signal is released: the event waits in the outbox, the alerts follow when NATS is back', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const cs = await watchers(product.productId, 3);
    await nats.stop();

    const event = await releaseSignal(fanout.pool, product);
    expect(await relayOutbox(fanout.pool, fanout.nc, prefix)).toBe(0);
    const { rows } = await fanout.pool.query('SELECT published_at, attempts, last_error FROM event_outbox WHERE event_id = $1', [event.event_id]);
    expect(rows[0]).toMatchObject({ published_at: null, attempts: 1 });
    expect(rows[0].last_error).toBeTruthy();
    await new Promise((r) => setTimeout(r, 1_000)); // time passes with NATS down: nothing may be sent meanwhile
    expect(mailsTo(cs)).toHaveLength(0);

    await nats.start();
    await waitFor('the relay to publish', async () => (await relayOutbox(fanout.pool, fanout.nc, prefix)) === 1, 20_000, 500);
    await expectExactlyOneEach(cs);
  });

  it('NATS restarting with alerts still queued: they are delivered after the restart, once', async () => {
    await worker!.stop();
    worker = null;
    const product = await insertProduct(fanout.pool, brand);
    const cs = await watchers(product.productId, 3);
    const event = await releaseSignal(fanout.pool, product);
    await relayOutbox(fanout.pool, fanout.nc, prefix);
    await waitFor('alerts queued', async () => (await alertsBacklog(fanout.nc, prefix)) === 3);

    await nats.stop();
    await new Promise((r) => setTimeout(r, 500)); // the restart's downtime: time passes
    await nats.start();
    worker = await startWorker(db.url, nats.url, prefix, sink.port);
    await expectExactlyOneEach(cs);
    const { rows } = await fanout.pool.query<{ status: string }>('SELECT status FROM alerts WHERE signal_id = $1', [event.signal_id]);
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('SMTP down: alerts retry until the server is back (never dead letters), then arrive once', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const cs = await watchers(product.productId, 2);
    const port = sink.port;
    await sink.stop();

    const event = await releaseSignal(fanout.pool, product);
    await relayOutbox(fanout.pool, fanout.nc, prefix);
    // Longer than the three attempts a message-level refusal would get (EMAIL_MAX_ATTEMPTS=3 in tests).
    await waitFor('failed attempts to be recorded', async () => {
      const { rows } = await fanout.pool.query<{ last_error: string | null }>('SELECT last_error FROM alerts WHERE signal_id = $1', [event.signal_id]);
      return rows.length === 2 && rows.every((r) => r.last_error?.includes('ECONNREFUSED'));
    });
    // Time passes with SMTP down: the worker keeps waiting and does not spend attempts (an absence, no state to wait for).
    await new Promise((r) => setTimeout(r, 3_000));
    const { rows: waiting } = await fanout.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM alerts WHERE signal_id = $1', [event.signal_id]);
    for (const r of waiting) {
      expect(['pending', 'sending']).toContain(r.status);
      expect(r.attempts).toBeLessThanOrEqual(1);
    }

    await sink.start(port);
    await expectExactlyOneEach(cs);
    const { rows } = await fanout.pool.query<{ status: string; attempts: number }>('SELECT status, attempts FROM alerts WHERE signal_id = $1', [event.signal_id]);
    expect(rows).toEqual([
      { status: 'sent', attempts: 1 },
      { status: 'sent', attempts: 1 },
    ]);
  }, 60_000);
});
