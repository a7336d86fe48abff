import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures, round } from './support/figures';
import { send, steadyStream } from './support/http';
import { MailSink } from './support/mail-sink';
import { addWatchers, alertsFor, cli, comparableProducts, customer, releaseNewSignals, type Customer } from './support/operator';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * The mail relay goes away while alerts are due: they are retried (never
 * given up on for an outage) and arrive, once each, when it is back. An
 * address the relay refuses for good (550) ends in the dead-letter list the
 * operator reads with `npm run -s admin -- alert dead-letters --json`.
 */
let sink: MailSink;
let stack: RunningStack;
let caller: Customer;
let products: string[];
let watchers: string[];
const DEAD_ADDRESS = 'no-such-mailbox@example.test';

beforeAll(async () => {
  sink = new MailSink();
  sink.refuse.add(DEAD_ADDRESS);
  await sink.start();
  stack = await startStack('res-smtp', {
    services: ['signals', 'watch', 'email-worker', 'gateway'],
    extraEnv: { 'email-worker': { SMTP_URL: sink.url, SMTP_TIMEOUT_MS: '2000', EMAIL_BACKOFF_BASE_MS: '200', EMAIL_BACKOFF_MAX_MS: '2000' } },
  });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  products = (await comparableProducts(stack)).slice(0, 2);
  watchers = await addWatchers(stack, products[0]!, Array.from({ length: 5 }, (_, i) => `smtp-${i}@example.test`));
  await addWatchers(stack, products[1]!, [DEAD_ADDRESS, 'smtp-other@example.test']);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await sink?.stop();
});

describe('SMTP down, and an address refused for good', () => {
  it('retries through the outage, delivers every alert once when SMTP returns, and leaves the refused address in the dead-letter list', async () => {
    const stream = steadyStream((i) => send(stack.baseUrl, 'GET', i % 2 ? '/api/v1/signals?limit=2' : '/api/v1/watch', { key: caller.key, timeoutMs: 30_000 }), { concurrency: 1, pauseMs: 100 });
    await sink.stop();
    const downAt = Date.now();
    const released = await releaseNewSignals(stack, products, 'smtp-outage');

    // While the relay is away the alerts are retried, not given up on.
    await waitFor('a failed attempt recorded', async () => (await alertsFor(stack, released)).some((a) => a.last_error !== null), 60_000);
    await new Promise((r) => setTimeout(r, Math.max(0, downAt + 8000 - Date.now()))); // an outage of at least 8 s: time passes
    const duringOutage = await alertsFor(stack, released);
    expect(duringOutage).toHaveLength(watchers.length + 2);
    expect(duringOutage.filter((a) => a.status === 'sent' || a.status === 'dead')).toEqual([]);
    expect(sink.delivered).toHaveLength(0);

    await sink.start();
    const upAt = Date.now();
    await waitFor('every alert settled', async () => (await alertsFor(stack, released)).every((a) => a.status === 'sent' || a.status === 'dead'), 90_000, 250);
    const lastDelivery = Math.max(...sink.delivered.map((d) => d.at));
    await new Promise((r) => setTimeout(r, 3000)); // let a duplicate, if any, arrive
    const samples = await stream.stop();

    const alerts = await alertsFor(stack, released);
    const counts = sink.countsByAlert();
    const dead = alerts.filter((a) => a.status === 'dead');
    expect(dead.map((a) => a.email)).toEqual([DEAD_ADDRESS]);
    for (const a of alerts.filter((x) => x.status !== 'dead')) {
      expect(a.status).toBe('sent');
      expect(counts.get(a.alert_id), a.email).toBe(1);
    }
    expect(counts.get(dead[0]!.alert_id)).toBeUndefined();
    expect(sink.delivered.every((d) => !d.to.includes(DEAD_ADDRESS))).toBe(true);

    // The operator sees the dead letter, and why, through the CLI.
    const listed = await cli(stack, 'alert', 'dead-letters');
    expect(listed.exitCode).toBe(0);
    const letters = listed.json.dead_letters as Array<{ alert_id: string; email: string; status: string; last_error: string }>;
    expect(letters.map((l) => l.alert_id)).toEqual([dead[0]!.alert_id]);
    expect(letters[0]!.email).toBe(DEAD_ADDRESS);
    expect(letters[0]!.last_error).toMatch(/550/);

    expect(samples.filter((s) => s.status !== 200).map((s) => s.text.slice(0, 120))).toEqual([]);
    await recordFigures('smtp-outage', {
      outage_seconds: round((upAt - downAt) / 1000, 1),
      alerts: alerts.length,
      delivered: sink.delivered.length,
      duplicates: sink.delivered.length - counts.size,
      dead_letters: dead.length,
      attempts_recorded_for_outage_alerts: Math.max(...alerts.filter((a) => a.status === 'sent').map((a) => a.attempts)),
      seconds_from_smtp_back_to_last_alert: round((lastDelivery - upAt) / 1000, 2),
    });
  });
});
