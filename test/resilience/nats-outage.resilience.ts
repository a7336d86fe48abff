import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures, round } from './support/figures';
import { send, steadyStream } from './support/http';
import { MailSink } from './support/mail-sink';
import { addWatchers, alertsFor, comparableProducts, customer, query, releaseNewSignals, type Customer } from './support/operator';
import { privateNats, type PrivateServer } from './support/processes';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * NATS goes away while Signals are released: the release commits with its
 * events in the outbox, the API keeps answering, and once NATS is back the
 * relay publishes, the watch service fans out and the email worker sends:
 * every watcher gets each alert, once. The nats-server is private to this
 * test (its JetStream store survives the restart, as a volume would).
 */
let nats: PrivateServer & { url: string };
let sink: MailSink;
let stack: RunningStack;
let caller: Customer;
let products: string[];
const watchersOf = new Map<string, string[]>();

beforeAll(async () => {
  nats = await privateNats();
  sink = new MailSink();
  await sink.start();
  stack = await startStack('res-nats', {
    natsUrl: nats.url,
    services: ['signals', 'watch', 'email-worker', 'gateway'],
    extraEnv: { 'email-worker': { SMTP_URL: sink.url, EMAIL_BACKOFF_BASE_MS: '200', EMAIL_BACKOFF_MAX_MS: '2000' } },
  });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  products = (await comparableProducts(stack)).slice(0, 3);
  for (const [i, p] of products.entries()) {
    watchersOf.set(p, await addWatchers(stack, p, Array.from({ length: 3 + i }, (_, j) => `nats-${i}-${j}@example.test`)));
  }
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await nats?.dispose();
  await sink?.stop();
});

function deliveredFor(alertIds: Set<string>) {
  return sink.delivered.filter((d) => d.alertId !== null && alertIds.has(d.alertId));
}

describe('NATS down while Signals are released', () => {
  it('delays the alerts, and once NATS is back delivers every one exactly once', async () => {
    // The pipeline works before the fault: a Signal on the first product reaches its watchers.
    const [warm] = await releaseNewSignals(stack, [products[0]!], 'nats-warm');
    await waitFor('the warm-up alerts', async () => (await alertsFor(stack, [warm!])).filter((a) => a.status === 'sent').length === watchersOf.get(products[0]!)!.length, 60_000);

    const stream = steadyStream((i) => send(stack.baseUrl, 'GET', i % 2 ? '/api/v1/signals?limit=2' : '/api/v1/watch', { key: caller.key, timeoutMs: 30_000 }), { concurrency: 2, pauseMs: 50 });
    await nats.stop();
    const downAt = Date.now();
    const released = await releaseNewSignals(stack, products, 'nats-outage', { natsDown: true });
    const outbox = await query<{ pending: number }>(stack, `SELECT count(*)::int AS pending FROM event_outbox WHERE published_at IS NULL AND payload->>'signal_id' = ANY($1)`, [released]);
    expect(outbox[0]!.pending).toBe(released.length);
    // The Signals are in the feed at once; the alerts wait for NATS.
    const feed = await send(stack.baseUrl, 'GET', `/api/v1/signals?limit=25`, { key: caller.key });
    expect(feed.status).toBe(200);
    for (const id of released) expect((feed.body.signals as Array<{ signal_id: string }>).map((s) => s.signal_id)).toContain(id);
    // An outage of several reconnect cycles, not a blip.
    await new Promise((r) => setTimeout(r, Math.max(0, downAt + 10_000 - Date.now())));
    expect(sink.delivered.filter((d) => released.some((id) => d.raw.includes(id)))).toHaveLength(0);

    await nats.start();
    const upAt = Date.now();
    const expected = products.reduce((n, p) => n + watchersOf.get(p)!.length, 0);
    await waitFor(`${expected} alerts sent`, async () => (await alertsFor(stack, released)).filter((a) => a.status === 'sent').length === expected, 90_000, 250);
    const lastDelivery = Math.max(...sink.delivered.filter((d) => released.some((id) => d.raw.includes(id))).map((d) => d.at));
    // Anything sent twice would arrive in the next moments; wait for it before counting.
    await new Promise((r) => setTimeout(r, 3000));
    const samples = await stream.stop();

    const alerts = await alertsFor(stack, released);
    expect(alerts).toHaveLength(expected);
    const counts = sink.countsByAlert();
    for (const a of alerts) {
      expect(a.status).toBe('sent');
      expect(counts.get(a.alert_id), a.alert_id).toBe(1);
    }
    for (const [i, p] of products.entries()) {
      const watchers = watchersOf.get(p)!;
      const signalAlerts = alerts.filter((a) => a.signal_id === released[i]);
      expect(signalAlerts.map((a) => a.account_id).sort()).toEqual([...watchers].sort());
    }
    const delivered = deliveredFor(new Set(alerts.map((a) => a.alert_id)));
    expect(delivered).toHaveLength(expected);
    const published = await query<{ pending: number }>(stack, 'SELECT count(*)::int AS pending FROM event_outbox WHERE published_at IS NULL');
    expect(published[0]!.pending).toBe(0);
    // The API never depended on NATS.
    expect(samples.filter((s) => s.status !== 200).map((s) => s.text.slice(0, 120))).toEqual([]);

    await recordFigures('nats-outage', {
      outage_seconds: round((upAt - downAt) / 1000, 1),
      signals_released_during_outage: released.length,
      alerts_expected: expected,
      alerts_delivered: delivered.length,
      duplicates: delivered.length - new Set(delivered.map((d) => d.alertId)).size,
      lost: expected - new Set(delivered.map((d) => d.alertId)).size,
      seconds_from_nats_ready_to_last_alert: round((lastDelivery - upAt) / 1000, 2),
      api_requests_during_outage: samples.length,
      api_requests_failed: samples.filter((s) => s.status !== 200).length,
    });
  });
});
