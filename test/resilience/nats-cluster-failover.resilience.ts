import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamNames } from '@evidence-record/contract';
import { startNatsCluster, type NatsCluster, type NatsClusterNode } from '@evidence-record/test-support/nats-cluster';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';
import { recordFigures, round } from './support/figures';
import { MailSink } from './support/mail-sink';
import { addWatchers, alertsFor, comparableProducts, query, releaseNewSignals } from './support/operator';

/**
 * The leader of the Signals stream killed while Signals are released
 * (issue 24, item 6): on a three-node NATS JetStream cluster with the
 * streams at three replicas, the relay, the watch service's fan-out and the
 * email worker follow the new leader, and every watcher gets each alert
 * exactly once. The cluster is private to this test.
 */
let nats: NatsCluster;
let sink: MailSink;
let stack: RunningStack;
let products: string[];
const watchersOf = new Map<string, string[]>();

beforeAll(async () => {
  nats = await startNatsCluster({ nodes: 3 });
  sink = new MailSink();
  await sink.start();
  stack = await startStack('res-ncluster', {
    natsUrl: nats.url,
    engineEnv: { NATS_STREAM_REPLICAS: '3' },
    services: ['signals', 'watch', 'email-worker', 'gateway'],
    extraEnv: { 'email-worker': { SMTP_URL: sink.url, EMAIL_BACKOFF_BASE_MS: '200', EMAIL_BACKOFF_MAX_MS: '2000' } },
  });
  products = (await comparableProducts(stack)).slice(0, 4);
  for (const [i, p] of products.entries()) {
    watchersOf.set(p, await addWatchers(stack, p, Array.from({ length: 3 + i }, (_, j) => `ncluster-${i}-${j}@example.test`)));
  }
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await nats?.stop();
  await sink?.stop();
});

describe('the NATS stream leader killed while Signals are released', () => {
  it('emails every alert exactly once', async () => {
    const names = streamNames(stack.env.NATS_PREFIX!);
    // Before the fault: the pipeline works, and both streams are replicated on all three servers.
    const [warm] = await releaseNewSignals(stack, [products[0]!], 'ncluster-warm');
    await waitFor('the warm-up alerts', async () => (await alertsFor(stack, [warm!])).filter((a) => a.status === 'sent').length === watchersOf.get(products[0]!)!.length, 60_000);

    // Releases go on, one product at a time, while the leader dies after the first.
    const released: string[] = [];
    let killedAt = 0;
    let victim: NatsClusterNode | null = null;
    let alertsLeader = '';
    let electing: Promise<{ leader: NatsClusterNode; at: number }> | null = null;
    for (const [i, p] of products.entries()) {
      const releasing = releaseNewSignals(stack, [p], `ncluster-${i}`, { natsDown: true });
      if (i === 1) {
        alertsLeader = (await nats.streamLeader(names.alerts.stream)).name;
        victim = await nats.killStreamLeader(names.signals.stream);
        killedAt = Date.now();
        // Watched from the moment of the kill: when the remaining two elect a new leader.
        electing = nats.streamLeader(names.signals.stream, 30_000).then((leader) => ({ leader, at: Date.now() }));
      }
      released.push(...(await releasing));
    }
    const { leader: newLeader, at: electedAt } = await electing!;
    expect(newLeader.name).not.toBe(victim!.name);

    const expected = products.reduce((n, p) => n + watchersOf.get(p)!.length, 0);
    await waitFor(`${expected} alerts sent`, async () => (await alertsFor(stack, released)).filter((a) => a.status === 'sent').length === expected, 120_000, 250);
    const lastDelivery = Math.max(...sink.delivered.filter((d) => released.some((id) => d.raw.includes(id))).map((d) => d.at));
    // Anything sent twice would arrive in the next moments; wait for it before counting.
    await new Promise((r) => setTimeout(r, 3000));

    const alerts = await alertsFor(stack, released);
    expect(alerts).toHaveLength(expected);
    const counts = sink.countsByAlert();
    for (const a of alerts) {
      expect(a.status).toBe('sent');
      expect(counts.get(a.alert_id), a.alert_id).toBe(1);
    }
    for (const [i, p] of products.entries()) {
      expect(alerts.filter((a) => a.signal_id === released[i]).map((a) => a.account_id).sort()).toEqual([...watchersOf.get(p)!].sort());
    }
    const delivered = sink.delivered.filter((d) => d.alertId !== null && alerts.some((a) => a.alert_id === d.alertId));
    expect(delivered).toHaveLength(expected);
    const pending = await query<{ pending: number }>(stack, 'SELECT count(*)::int AS pending FROM event_outbox WHERE published_at IS NULL');
    expect(pending[0]!.pending).toBe(0);

    await recordFigures('nats-cluster-failover', {
      nodes: nats.nodes.length,
      stream_replicas: 3,
      alerts_stream_leader_killed_too: alertsLeader === victim!.name,
      seconds_leader_killed_to_new_leader_seen: round((electedAt - killedAt) / 1000, 2),
      new_leader: newLeader.name,
      signals_released: released.length,
      alerts_expected: expected,
      alerts_delivered: delivered.length,
      duplicates: delivered.length - new Set(delivered.map((d) => d.alertId)).size,
      lost: expected - new Set(delivered.map((d) => d.alertId)).size,
      seconds_leader_killed_to_last_alert: round((lastDelivery - killedAt) / 1000, 2),
    });
  });
});
