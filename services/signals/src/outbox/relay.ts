import { Events, NatsError, connect, type NatsConnection } from 'nats';
import { ensureStreams, natsConnectOptions, type Logger, type Metrics, type Pool } from '@evidence-record/platform';
import type { StreamNames } from '@evidence-record/contract';
import { pendingCount } from '../queries/outbox';
import { publishPending } from './publisher';

export type NatsState = 'connecting' | 'connected' | 'disconnected' | 'stopped';

export interface RelayStatus {
  nats: NatsState;
  last_drain_at: string | null;
  last_error: string | null;
}

export interface OutboxRelayOptions {
  pool: Pool;
  log: Logger;
  metrics: Metrics;
  natsUrl: string;
  natsPrefix: string;
  /** NATS_STREAM_REPLICAS: replicas of the streams if the relay creates them; existing streams keep theirs (decision 2340). */
  streamReplicas?: number;
  intervalMs: number;
}

/**
 * Publishes Signal release events from the outbox to JetStream, on start and
 * then every `intervalMs`. NATS being down never stops the service: events
 * wait in Postgres and drain when NATS returns. Safe with several replicas:
 * rows are claimed with SKIP LOCKED and published with a stable message id.
 */
export class OutboxRelay {
  private nc: NatsConnection | null = null;
  private names: StreamNames | null = null;
  private state: NatsState = 'connecting';
  private streamsReady = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private lastDrainAt: string | null = null;
  private lastError: string | null = null;
  private readonly published;
  private readonly pending;
  private readonly connected;

  constructor(private readonly opts: OutboxRelayOptions) {
    this.published = opts.metrics.counter('er_outbox_published_total', 'Signal release events published to JetStream by the outbox relay');
    this.pending = opts.metrics.gauge('er_outbox_pending_events', 'Signal release events waiting in the outbox');
    this.connected = opts.metrics.gauge('er_nats_connected', '1 while the outbox relay is connected to NATS');
  }

  start(): void {
    void this.connect();
  }

  status(): RelayStatus {
    return { nats: this.state, last_drain_at: this.lastDrainAt, last_error: this.lastError };
  }

  private setState(state: NatsState): void {
    this.state = state;
    this.connected.set(state === 'connected' ? 1 : 0);
  }

  private async connect(): Promise<void> {
    try {
      // The first attempt fails fast so that start-up and stop() never wait on
      // NATS; once connected, the client reconnects on its own forever.
      const nc = await connect({
        // Every server of NATS_URL: on a cluster the client moves to another node when its own goes away.
        ...natsConnectOptions(this.opts.natsUrl),
        name: 'signals-outbox-relay',
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        timeout: 2_000,
      });
      if (this.stopped) {
        await nc.close();
        return;
      }
      this.nc = nc;
      this.setState('connected');
      this.opts.log.info('outbox relay connected to NATS');
      void this.watchStatus(nc);
      this.schedule(0);
    } catch (err) {
      this.opts.metrics.dependencyErrors.inc({ dependency: 'nats' });
      this.lastError = String(err);
      this.setState('disconnected');
      this.opts.log.warn({ err: String(err) }, 'outbox relay cannot reach NATS; events wait in the outbox; retrying');
      if (!this.stopped) setTimeout(() => void this.connect(), this.opts.intervalMs).unref();
    }
  }

  private async watchStatus(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect) {
        this.setState('disconnected');
        this.opts.log.warn('outbox relay lost NATS; events wait in the outbox');
      } else if (s.type === Events.Reconnect) {
        this.setState('connected');
        // A restarted server may have lost its streams; make sure they exist before publishing
        // (which never rewrites an existing stream's replicas: an R3 stream stays R3).
        this.streamsReady = false;
        this.opts.log.info('outbox relay reconnected to NATS');
        this.schedule(0);
      }
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running ??= this.tick().finally(() => {
        this.running = null;
        this.schedule(this.opts.intervalMs);
      });
    }, delayMs);
  }

  /** One drain: publish everything pending, if NATS is there. */
  async drainOnce(): Promise<{ published: number; failed: number }> {
    const nc = this.nc;
    if (!nc || this.state !== 'connected') return { published: 0, failed: 0 };
    if (!this.streamsReady) {
      this.names = await ensureStreams(nc, this.opts.natsPrefix, { replicas: this.opts.streamReplicas ?? 1, log: this.opts.log });
      this.streamsReady = true;
    }
    const result = await publishPending(this.opts.pool, nc.jetstream(), this.names!);
    this.published.inc(result.published);
    if (result.failed > 0) {
      this.opts.metrics.dependencyErrors.inc({ dependency: 'nats' });
      this.streamsReady = false;
      this.lastError = result.last_error;
      this.opts.log.warn({ err: result.last_error, published: result.published }, 'outbox relay publish failed; will retry');
    } else if (result.published > 0) {
      this.opts.log.info({ published: result.published, duplicates: result.duplicates }, 'outbox relay published Signal release events');
    }
    this.lastDrainAt = new Date().toISOString();
    return { published: result.published, failed: result.failed };
  }

  private async tick(): Promise<void> {
    try {
      await this.drainOnce();
      this.pending.set((await pendingCount(this.opts.pool)).pending);
    } catch (err) {
      this.streamsReady = false;
      this.lastError = err instanceof Error ? err.message : String(err);
      // Postgres failures are counted by the pool itself.
      if (err instanceof NatsError) this.opts.metrics.dependencyErrors.inc({ dependency: 'nats' });
      this.opts.log.warn({ err: this.lastError }, 'outbox relay tick failed; will retry');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.setState('stopped');
    if (this.nc) await this.nc.close().catch(() => undefined);
  }
}
