import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { NATS_URL } from '@evidence-record/test-support/infra';
import { insertBrand, insertCustomer, insertProduct, insertWatch, relayOutbox, releaseSignal, waitFor } from '@evidence-record/test-support/watch-fixtures';
import { SmtpSink } from './support/smtp-sink';
import { alertsBacklog, deleteStreams, spawnWorker, startFanout, type WorkerProcess } from '@evidence-record/test-support/email-worker';

/**
 * The real worker entrypoint as separate processes: killed between the SMTP
 * acceptance and the acknowledgement, and two replicas sharing one consumer.
 */
let db: TestDatabase;
let prefix: string;
let sink: SmtpSink;
let fanout: Awaited<ReturnType<typeof startFanout>>;
let brand: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await emptyDatabase();
  prefix = isolationPrefix('replicas').natsPrefix;
  sink = new SmtpSink();
  await sink.start();
  fanout = await startFanout(db.url, NATS_URL, prefix);
  brand = await insertBrand(fanout.pool, 'brd_replica_test', 'Replica Labs');
}, 60_000);

afterAll(async () => {
  for (const w of workers) await w.stop();
  await fanout?.stop();
  await sink?.stop();
  await deleteStreams(NATS_URL, prefix);
  await db?.drop();
});

async function worker(extra: Record<string, string> = {}): Promise<WorkerProcess> {
  const w = await spawnWorker({ DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix, SMTP_URL: `smtp://127.0.0.1:${sink.port}`, ...extra });
  workers.push(w);
  return w;
}

describe('email worker replicas', () => {
  it('a worker killed between send and acknowledgement still yields exactly one email', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const c = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, c.accountId, product.productId);

    const doomed = await worker({ EMAIL_WORKER_CRASH_AFTER_SEND: '1', EMAIL_CONCURRENCY: '1' });
    const event = await releaseSignal(fanout.pool, product);
    await relayOutbox(fanout.pool, fanout.nc, prefix);

    const death = await doomed.exited;
    expect(death.signal).toBe('SIGKILL');
    expect(sink.received.filter((m) => m.to[0] === c.email)).toHaveLength(1);
    const { rows } = await fanout.pool.query('SELECT status FROM alerts WHERE signal_id = $1', [event.signal_id]);
    expect(rows).toEqual([{ status: 'sent' }]);
    // The message was never acknowledged: it is still owed to the consumer.
    expect(await alertsBacklog(fanout.nc, prefix)).toBe(1);

    const survivor = await worker();
    await waitFor('the redelivered message to be acknowledged', async () => (await alertsBacklog(fanout.nc, prefix)) === 0, 20_000);
    expect(await survivor.metric('er_alert_messages_skipped_total')).toBe(1);
    expect(await survivor.metric('er_emails_sent_total')).toBe(0);
    expect(sink.received.filter((m) => m.to[0] === c.email)).toHaveLength(1);
    await survivor.stop();
  });

  it('two workers at once deliver every alert exactly once', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const watchers = [];
    for (let i = 0; i < 60; i++) {
      const c = await insertCustomer(fanout.pool);
      await insertWatch(fanout.pool, c.accountId, product.productId);
      watchers.push(c);
    }
    sink.delayMs = 20;
    const before = sink.received.length;
    const [a, b] = [await worker({ EMAIL_CONCURRENCY: '3' }), await worker({ EMAIL_CONCURRENCY: '3' })];

    const event = await releaseSignal(fanout.pool, product);
    await relayOutbox(fanout.pool, fanout.nc, prefix);
    await waitFor('60 emails', async () => sink.received.length - before >= 60, 30_000);
    await waitFor('the backlog to drain', async () => (await alertsBacklog(fanout.nc, prefix)) === 0, 20_000);
    await new Promise((r) => setTimeout(r, 1_000)); // a duplicate, if any, would arrive now (an absence has no state to wait for)

    const mails = sink.received.slice(before);
    expect(mails).toHaveLength(60);
    expect(new Set(mails.map((m) => m.alertId)).size).toBe(60);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(watchers.map((w) => w.email).sort());
    const sentByA = await a.metric('er_emails_sent_total');
    const sentByB = await b.metric('er_emails_sent_total');
    expect(sentByA + sentByB).toBe(60);
    expect(sentByA).toBeGreaterThan(0);
    expect(sentByB).toBeGreaterThan(0);
    const { rows } = await fanout.pool.query<{ status: string; attempts: number; n: number }>(
      'SELECT status, attempts, count(*)::int AS n FROM alerts WHERE signal_id = $1 GROUP BY 1, 2',
      [event.signal_id],
    );
    expect(rows).toEqual([{ status: 'sent', attempts: 1, n: 60 }]);
    sink.delayMs = 0;
  }, 60_000);
});
