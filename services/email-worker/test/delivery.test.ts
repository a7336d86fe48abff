import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSONCodec } from 'nats';
import { DISCLAIMER, streamNames, verifyUnsubscribeToken } from '@evidence-record/contract';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { NATS_URL } from '@evidence-record/test-support/infra';
import {
  callerHeaders,
  insertBrand,
  insertCustomer,
  insertProduct,
  insertWatch,
  relayOutbox,
  releaseSignal,
  waitFor,
  type ProductFixture,
} from '@evidence-record/test-support/watch-fixtures';
import { startWatchHarness, type WatchHarness } from '@evidence-record/test-support/watch-harness';
import { SmtpSink } from './support/smtp-sink';
import { REPO_ROOT, TEST_UNSUBSCRIBE_KEY, alertsBacklog, deleteStreams, startFanout, startWorker, type Running } from '@evidence-record/test-support/email-worker';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

let db: TestDatabase;
let prefix: string;
let sink: SmtpSink;
let fanout: Awaited<ReturnType<typeof startFanout>>;
let worker: Running | null = null;
let watchApi: WatchHarness;
let brand: string;

const alertStatuses = async (signalId: string) =>
  (await fanout.pool.query<{ account_id: string; status: string; attempts: number; last_error: string | null; alert_id: string }>(
    'SELECT alert_id, account_id, status, attempts, last_error FROM alerts WHERE signal_id = $1 ORDER BY account_id',
    [signalId],
  )).rows;

async function release(product: ProductFixture, opts: Parameters<typeof releaseSignal>[2] = {}) {
  const event = await releaseSignal(fanout.pool, product, { publicBaseUrl: 'https://api.evidence.test', ...opts });
  expect(await relayOutbox(fanout.pool, fanout.nc, prefix)).toBe(1);
  return event;
}

async function settled() {
  await waitFor('the ALERTS backlog to drain', async () => (await alertsBacklog(fanout.nc, prefix)) === 0, 20_000);
}

function cli(args: string[]): Promise<{ code: number | null; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the CLI prints one JSON object
  return new Promise((resolve) => {
    const child = spawn(process.execPath, operatorCliArgs([...args, '--json']), {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      try {
        resolve({ code, json: JSON.parse(out.trim().split('\n').pop() ?? '') });
      } catch {
        resolve({ code, json: { unparsable: out, stderr: err } });
      }
    });
  });
}

beforeAll(async () => {
  db = await emptyDatabase();
  prefix = isolationPrefix('alerts').natsPrefix;
  sink = new SmtpSink();
  await sink.start();
  fanout = await startFanout(db.url, NATS_URL, prefix);
  worker = await startWorker(db.url, NATS_URL, prefix, sink.port);
  watchApi = await startWatchHarness(db.url, () => new Date());
  brand = await insertBrand(fanout.pool, 'brd_alert_test', 'Alert Labs');
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await fanout?.stop();
  await watchApi?.close();
  await sink?.stop();
  await deleteStreams(NATS_URL, prefix);
  await db?.drop();
});

describe('alerts for a released Signal', () => {
  it('send exactly one email to every account watching the product at release time', async () => {
    const product = await insertProduct(fanout.pool, brand, { name: 'Volt Pre' });
    const other = await insertProduct(fanout.pool, brand, { name: 'Other Pre' });
    const watchers = [await insertCustomer(fanout.pool), await insertCustomer(fanout.pool), await insertCustomer(fanout.pool)];
    for (const w of watchers) await insertWatch(fanout.pool, w.accountId, product.productId);
    const bystander = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, bystander.accountId, other.productId);

    const event = await release(product, { summary: 'Caffeine anhydrous went from 200 mg to 300 mg per serving.', dimension: 'formula' });
    // Watching after the release does not bring this Signal's alert.
    const late = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, late.accountId, product.productId, new Date(Date.now() + 1_000).toISOString());

    await waitFor('three emails', async () => sink.received.filter((m) => m.text.includes(event.signal_id)).length >= 3);
    await settled();
    // A grace for what must not come (the late watcher's email): an absence has no state to wait for.
    await new Promise((r) => setTimeout(r, 500));
    const mails = sink.received.filter((m) => m.text.includes(event.signal_id));
    expect(mails.map((m) => m.to[0]).sort()).toEqual(watchers.map((w) => w.email).sort());

    const rows = await alertStatuses(event.signal_id);
    expect(rows.map((r) => r.account_id).sort()).toEqual(watchers.map((w) => w.accountId).sort());
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);

    const mail = mails.find((m) => m.to[0] === watchers[0]!.email)!;
    const alertId = rows.find((r) => r.account_id === watchers[0]!.accountId)!.alert_id;
    expect(mail.messageId).toBe(`<${alertId}@alerts.test>`);
    expect(mail.subject).toContain('Alert Labs Volt Pre: formula change confirmed');
    expect(mail.subject).toContain('Caffeine anhydrous went from 200 mg');
    for (const part of [mail.text.replace(/\r?\n/g, ' '), mail.html]) {
      expect(part).toContain('Alert Labs Volt Pre');
      expect(part).toContain('Caffeine anhydrous went from 200 mg to 300 mg per serving.');
      expect(part).toContain('formula');
      expect(part).toContain('2025-11-02 to 2025-12-14');
      expect(part).toContain('not an exact change date');
      expect(part).toContain(`https://api.evidence.test/api/v1/signals/${event.signal_id}`);
      expect(part).toContain(watchers[0]!.email);
      expect(part).toContain('https://api.evidence.test/unsubscribe?token=u2.');
      expect(part).toContain('watchlist.remove');
    }
    // The link is signed for this account and product only.
    const token = /unsubscribe\?token=([^\s"&<]+)/.exec(mail.text)![1]!;
    const verdict = verifyUnsubscribeToken([TEST_UNSUBSCRIBE_KEY], decodeURIComponent(token), Math.floor(Date.now() / 1000));
    expect(verdict).toMatchObject({ ok: true, claims: { accountId: watchers[0]!.accountId, productId: product.productId } });
    // Issued at the alert's claim, by the database's clock (the one a watch is dated by).
    const { rows: claimed } = await fanout.pool.query<{ claimed_at: Date }>('SELECT claimed_at FROM alerts WHERE alert_id = $1', [alertId]);
    expect(verdict.ok && verdict.claims.issuedAtMs).toBe(claimed[0]!.claimed_at.getTime());
    expect(mail.listUnsubscribe).toBe(`<https://api.evidence.test/unsubscribe?token=${token}>`);
    expect(mail.listUnsubscribePost).toBe('List-Unsubscribe=One-Click');
    expect(mail.text.replace(/\r?\n/g, ' ')).toContain(DISCLAIMER);
    expect(mail.html).toContain('no individualized medical advice');
    expect(sink.received.some((m) => m.to[0] === bystander.email || m.to[0] === late.email)).toBe(false);
    const { rows: stored } = await fanout.pool.query('SELECT smtp_message_id, sent_at FROM alerts WHERE alert_id = $1', [alertId]);
    expect(stored[0].smtp_message_id).toContain(alertId);
    expect(stored[0].sent_at).not.toBeNull();
  });

  it('dates the change exactly only when the Record has an exact change date', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const c = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, c.accountId, product.productId);
    const event = await release(product, { exactChangeDate: '2025-12-01' });
    const [mail] = await waitFor('the email', async () => (sink.received.filter((m) => m.text.includes(event.signal_id)).length === 1 ? sink.received.filter((m) => m.text.includes(event.signal_id)) : null));
    expect(mail!.text).toContain('Dated to 2025-12-01');
    expect(mail!.text).not.toContain('not an exact change date');
  });

  it('does not send again when the Signal event is delivered a second time', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const c = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, c.accountId, product.productId);
    const event = await release(product);
    await waitFor('the email', async () => sink.received.some((m) => m.text.includes(event.signal_id)));
    await settled();
    // As if the relay republished after the duplicate window: a new message id, the same event.
    await fanout.nc.jetstream().publish(streamNames(prefix).signals.released, JSONCodec().encode(event), { msgID: `${event.event_id}:again` });
    // A grace for the duplicate to be handled (and, were it sent again, to arrive) before the drain check below.
    await new Promise((r) => setTimeout(r, 1_500));
    await settled();
    expect(sink.received.filter((m) => m.text.includes(event.signal_id))).toHaveLength(1);
    expect(await alertStatuses(event.signal_id)).toHaveLength(1);
  });
});

describe('unwatching before delivery', () => {
  it('cancels alerts not yet sent, through the API or when the worker finds the watch gone', async () => {
    await worker!.stop();
    worker = null;
    const product = await insertProduct(fanout.pool, brand, { name: 'Cancel Pre' });
    const [stays, leavesByApi, leavesQuietly] = [await insertCustomer(fanout.pool), await insertCustomer(fanout.pool), await insertCustomer(fanout.pool)];
    for (const c of [stays, leavesByApi, leavesQuietly]) await insertWatch(fanout.pool, c.accountId, product.productId);
    const event = await release(product);
    await waitFor('three pending alerts', async () => (await alertStatuses(event.signal_id)).filter((r) => r.status === 'pending').length === 3);

    const res = await watchApi.call('DELETE', `/api/v1/watch/${product.productId}`, callerHeaders(leavesByApi, 50));
    expect(res.status).toBe(200);
    expect(res.body.watch).toMatchObject({ changed: true, alerts_cancelled: 1 });
    // A watch removed without the API's cancellation (the race the worker guards against).
    await fanout.pool.query('DELETE FROM watches WHERE account_id = $1', [leavesQuietly.accountId]);

    worker = await startWorker(db.url, NATS_URL, prefix, sink.port);
    await waitFor('the one email', async () => sink.received.some((m) => m.text.includes(event.signal_id)));
    await settled();
    const mails = sink.received.filter((m) => m.text.includes(event.signal_id));
    expect(mails.map((m) => m.to[0])).toEqual([stays.email]);
    const byAccount = new Map((await alertStatuses(event.signal_id)).map((r) => [r.account_id, r]));
    expect(byAccount.get(stays.accountId)?.status).toBe('sent');
    expect(byAccount.get(leavesByApi.accountId)).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect(byAccount.get(leavesQuietly.accountId)).toMatchObject({ status: 'cancelled', attempts: 0 });
  });
});

describe('SMTP failures', () => {
  it('retry a temporary rejection with backoff and deliver once', async () => {
    const product = await insertProduct(fanout.pool, brand);
    const c = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, c.accountId, product.productId);
    sink.mode = 'tempfail';
    const before = sink.refusals;
    const event = await release(product);
    await waitFor('a temporary refusal', async () => sink.refusals > before);
    const [row] = await waitFor('the retry to be recorded', async () => {
      const rows = await alertStatuses(event.signal_id);
      return rows[0]?.status === 'pending' && rows[0].last_error ? rows : null;
    });
    expect(row!.last_error).toContain('451');
    sink.mode = 'accept';
    await waitFor('the email', async () => sink.received.some((m) => m.text.includes(event.signal_id)));
    await settled();
    expect(sink.received.filter((m) => m.text.includes(event.signal_id))).toHaveLength(1);
    const [sent] = await alertStatuses(event.signal_id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });

  it('end in a dead letter (5xx at once, 4xx after the last attempt) that the operator lists and replays', async () => {
    const product = await insertProduct(fanout.pool, brand, { name: 'Dead Letter Pre' });
    const rejected = await insertCustomer(fanout.pool);
    await insertWatch(fanout.pool, rejected.accountId, product.productId);
    sink.mode = 'reject';
    const first = await release(product);
    const [dead] = await waitFor('a dead letter', async () => {
      const rows = await alertStatuses(first.signal_id);
      return rows[0]?.status === 'dead' ? rows : null;
    });
    expect(dead).toMatchObject({ attempts: 1 });
    expect(dead!.last_error).toContain('550');

    sink.mode = 'tempfail';
    const second = await release(product);
    const [exhausted] = await waitFor('attempts to run out', async () => {
      const rows = await alertStatuses(second.signal_id);
      return rows[0]?.status === 'dead' ? rows : null;
    }, 20_000);
    expect(exhausted).toMatchObject({ attempts: 3 });
    expect(exhausted!.last_error).toContain('451');
    sink.mode = 'accept';
    await settled();
    expect(sink.received.some((m) => m.to[0] === rejected.email)).toBe(false);

    const listed = await cli(['alert', 'dead-letters']);
    expect(listed.code).toBe(0);
    expect(listed.json.dead_letters.map((d: { alert_id: string }) => d.alert_id).sort()).toEqual([dead!.alert_id, exhausted!.alert_id].sort());
    expect(listed.json.dead_letters[0]).toMatchObject({ status: 'dead', product_id: product.productId });

    const replayed = await cli(['alert', 'replay', dead!.alert_id]);
    expect(replayed.code).toBe(0);
    expect(replayed.json).toMatchObject({ alert_id: dead!.alert_id, status: 'pending', previous_status: 'dead' });
    await waitFor('the replayed email', async () => sink.received.some((m) => m.text.includes(first.signal_id)));
    await settled();
    expect(sink.received.filter((m) => m.to[0] === rejected.email)).toHaveLength(1);

    const shown = await cli(['alert', 'show', dead!.alert_id]);
    expect(shown.json.alert).toMatchObject({ alert_id: dead!.alert_id, status: 'sent', attempts: 1, still_watching: true });
    // A sent alert is never replayed.
    const again = await cli(['alert', 'replay', dead!.alert_id]);
    expect(again.code).toBe(1);
    expect(again.json.message).toMatch(/is sent/);
    expect((await cli(['alert', 'dead-letters'])).json.dead_letters.map((d: { alert_id: string }) => d.alert_id)).toEqual([exhausted!.alert_id]);
  }, 90_000); // five operator CLI runs, each a fresh process
});
