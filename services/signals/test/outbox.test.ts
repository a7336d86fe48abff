import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from 'nats';
import { SignalReleasedEvent, streamNames } from '@evidence-record/contract';
import { Metrics, createLogger, ensureStreams, natsConnectOptions } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { releaseSignals } from '@evidence-record/curation';
import { OutboxRelay, publishNow } from '../src/index';
import { approvedFormulaChanges, createCatalogue, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';
import { privateNats, type PrivateServer } from '@evidence-record/test-support/private-servers';
import { waitFor } from '@evidence-record/test-support/wait';
import { PUBLIC_BASE_URL, startSignals, type InProcessSignals } from './support/server';

/**
 * Release events travel Postgres outbox → JetStream exactly once per Signal,
 * including across a NATS outage, with a private nats-server this test stops
 * and restarts (the machine's main NATS is never touched).
 */
let db: TestDatabase;
let nats: PrivateServer & { url: string };
let relay: OutboxRelay;
let svc: InProcessSignals;
let observer: NatsConnection | null = null;
let products: FixtureProduct[];
const { natsPrefix } = isolationPrefix('outbox');
const names = streamNames(natsPrefix);
const released: string[] = [];

const release = async (date: string) => {
  const r = await releaseSignals(svc.pool, { releasedBy: 'outbox-test', publicBaseUrl: PUBLIC_BASE_URL, clock: () => new Date(`${date}T09:00:00Z`) });
  released.push(...r.signal_ids);
  return r;
};

/** Every message in the SIGNALS stream, decoded and checked against the contract's event schema. */
async function streamEvents(): Promise<SignalReleasedEvent[]> {
  observer ??= await connect({ ...natsConnectOptions(nats.url), reconnect: true, maxReconnectAttempts: -1 });
  const jsm = await observer.jetstreamManager();
  const info = await jsm.streams.info(names.signals.stream);
  const out: SignalReleasedEvent[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const m = await jsm.streams.getMessage(names.signals.stream, { seq });
    expect(m.header.get('Nats-Msg-Id')).toMatch(/^evt_released_sig_/);
    out.push(SignalReleasedEvent.parse(m.json()));
  }
  return out;
}

async function pending(): Promise<number> {
  const { rows } = await svc.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_outbox WHERE published_at IS NULL`);
  return rows[0]!.n;
}

beforeAll(async () => {
  db = await emptyDatabase();
  nats = await privateNats();
  svc = await startSignals(db.url, { relayStatus: () => relay.status() });
  relay = new OutboxRelay({ pool: svc.pool, log: createLogger('relay-test', 'silent'), metrics: new Metrics('signals'), natsUrl: nats.url, natsPrefix, intervalMs: 200 });
  relay.start();
  products = await createCatalogue(svc.pool, { brands: 1, productsPerBrand: 3 });
});

afterAll(async () => {
  await relay?.stop();
  await observer?.close().catch(() => undefined);
  await svc?.close();
  await nats?.dispose();
  await db?.drop();
});

describe('Signal release events', () => {
  it('the relay publishes each release event once, with the Signal id as message id', async () => {
    await waitFor('relay connected', async () => relay.status().nats === 'connected');
    await approvedFormulaChanges(svc.pool, [products[0]!], 3, '2026-01-05');
    const r = await release('2031-07-01');
    const events = await waitFor('3 events in the stream', async () => {
      const e = await streamEvents().catch(() => null);
      return e?.length === 3 ? e : null;
    });
    expect(events.map((e) => e.signal_id).sort()).toEqual([...r.signal_ids].sort());
    expect(events.every((e) => e.released_at === '2031-07-01' && e.signal_url === `${PUBLIC_BASE_URL}/api/v1/signals/${e.signal_id}`)).toBe(true);
    await waitFor('outbox marked published', async () => (await pending()) === 0);
  });

  it('keeps events in the outbox while NATS is down, keeps answering, and drains exactly once when NATS returns', async () => {
    // A clean shutdown, as an operator's restart would be.
    await nats.stop('SIGTERM');
    await waitFor('relay sees the outage', async () => relay.status().nats === 'disconnected');

    await approvedFormulaChanges(svc.pool, [products[1]!], 2, '2026-01-05');
    const r = await release('2031-07-02');
    // The operator's immediate publish cannot reach NATS: the events wait for the relay.
    const attempt = await publishNow(svc.pool, nats.url, natsPrefix, r.event_ids);
    expect(attempt.nats).toBe('unreachable');
    expect(attempt.pending).toBe(2);

    // The API is unaffected: readiness is Postgres; NATS is reported as detail.
    expect((await fetch(`${svc.url}/readyz`)).status).toBe(200);
    const detail = (await (await fetch(`${svc.url}/readyz/detail`)).json()) as { nats: string; outbox: { pending: number } };
    expect(detail).toMatchObject({ nats: 'disconnected', outbox: { pending: 2 } });
    const feed = await svc.get('/api/v1/signals?since=2031-07-01');
    expect(feed.status).toBe(200);
    expect((feed.body.signals as unknown[]).length).toBe(2);

    // Time passes (several relay intervals) with NATS down: nothing may leave the outbox meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await pending()).toBe(2);

    await nats.start();
    await waitFor('outbox drained after the outage', async () => (await pending()) === 0);
    // The observer reconnects on its own schedule; read once it answers.
    const events = await waitFor('stream readable again', () => streamEvents().catch(() => null));
    expect(events).toHaveLength(released.length);
    expect(new Set(events.map((e) => e.signal_id))).toEqual(new Set(released));
  });

  it('a republished event is dropped by the stream (same message id): never twice in the stream', async () => {
    const before = (await streamEvents()).length;
    // The running relay would race publishNow for the rows: it is stopped for the republish and a fresh one started after.
    await relay.stop();
    try {
      // Simulate a crash between publish and mark: every event goes back to unpublished.
      await svc.pool.query('UPDATE event_outbox SET published_at = NULL');
      const drained = await publishNow(svc.pool, nats.url, natsPrefix);
      expect(drained).toMatchObject({ nats: 'published', published: before, duplicates: before, pending: 0 });
      expect(await pending()).toBe(0);
      expect(await streamEvents()).toHaveLength(before);
    } finally {
      relay = new OutboxRelay({ pool: svc.pool, log: createLogger('relay-test', 'silent'), metrics: new Metrics('signals'), natsUrl: nats.url, natsPrefix, intervalMs: 200 });
      relay.start();
    }
  });

  it('two relays on one outbox publish each event once (rows are claimed with SKIP LOCKED)', async () => {
    const second = new OutboxRelay({ pool: svc.pool, log: createLogger('relay-test-2', 'silent'), metrics: new Metrics('signals'), natsUrl: nats.url, natsPrefix, intervalMs: 50 });
    second.start();
    try {
      await approvedFormulaChanges(svc.pool, [products[2]!], 4, '2026-01-05');
      await release('2031-07-03');
      await waitFor('outbox drained by two relays', async () => (await pending()) === 0);
      const events = await streamEvents();
      expect(events).toHaveLength(released.length);
      expect(new Set(events.map((e) => e.event_id)).size).toBe(released.length);
      const { rows } = await svc.pool.query<{ attempts: number }>('SELECT attempts FROM event_outbox WHERE published_at IS NOT NULL ORDER BY created_at DESC LIMIT 4');
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('ensureStreams is idempotent on the relay stream set', async () => {
    const nc = await connect(natsConnectOptions(nats.url));
    try {
      const again = await ensureStreams(nc, natsPrefix);
      expect(again.signals.stream).toBe(names.signals.stream);
      const info = await (await nc.jetstreamManager()).streams.info(names.signals.stream);
      expect(info.state.messages).toBe(released.length);
    } finally {
      await nc.close();
    }
  });
});
