import type { ConsumerMessages, JsMsg, NatsConnection } from 'nats';
import { Gauge } from 'prom-client';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import { natsClient } from './nats-client';

export interface DurableConsumerOptions {
  nc: NatsConnection;
  stream: string;
  durable: string;
  filterSubject: string;
  ackWaitMs: number;
  /** Messages handled at once by this replica. */
  concurrency: number;
  log: Logger;
  /** Counts an interrupted consume loop as er_dependency_errors_total{dependency="nats"}. */
  metrics?: Metrics;
  /** Handles one message and settles it (ack, nak or term) itself. */
  handle: (msg: JsMsg) => Promise<void>;
}

/**
 * Creates the durable pull consumer, or brings an existing one to this
 * configuration. Every replica does this at start-up; they then share the
 * consumer, and JetStream gives each message to one of them at a time.
 */
export async function ensureDurableConsumer(opts: Pick<DurableConsumerOptions, 'nc' | 'stream' | 'durable' | 'filterSubject' | 'ackWaitMs'>): Promise<void> {
  const jsm = await opts.nc.jetstreamManager();
  const { AckPolicy, DeliverPolicy, nanos } = natsClient();
  const config = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: opts.filterSubject,
    ack_wait: nanos(opts.ackWaitMs),
    max_deliver: -1,
    max_ack_pending: 10_000,
  };
  try {
    await jsm.consumers.info(opts.stream, opts.durable);
    await jsm.consumers.update(opts.stream, opts.durable, { ack_wait: config.ack_wait, max_deliver: -1, max_ack_pending: config.max_ack_pending });
  } catch (err) {
    if (!String(err).includes('consumer not found')) throw err;
    try {
      await jsm.consumers.add(opts.stream, config);
    } catch (addErr) {
      // Another replica created it between our two calls.
      if (!String(addErr).includes('already')) throw addErr;
    }
  }
}

export interface RunningConsumer {
  /** Stops pulling, waits for messages in hand to be settled. */
  stop: () => Promise<void>;
  /** Messages not yet delivered plus delivered-but-unacknowledged ones (consumer lag). */
  lag: () => Promise<number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Pulls from the durable consumer until stopped, handling up to
 * `concurrency` messages at once. A lost connection or a consumer that
 * vanished is retried, never fatal: unsettled messages come back after
 * ack_wait, so nothing is lost while the loop recovers.
 */
export function runDurableConsumer(opts: DurableConsumerOptions): RunningConsumer {
  const js = opts.nc.jetstream();
  let stopping = false;
  let current: ConsumerMessages | null = null;
  const inFlight = new Set<Promise<void>>();

  const handleOne = (msg: JsMsg) => {
    const p = opts.handle(msg).catch((err: unknown) => {
      opts.log.error({ err: String(err), stream: opts.stream }, 'message handler failed; leaving it for redelivery');
    });
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  };

  const loop = (async () => {
    while (!stopping) {
      try {
        if (opts.nc.isClosed()) return;
        const consumer = await js.consumers.get(opts.stream, opts.durable);
        current = await consumer.consume({ max_messages: Math.max(1, opts.concurrency) });
        if (stopping) {
          current.stop();
          break;
        }
        for await (const msg of current) {
          // Pulled but not started when shutdown began: hand it back at once rather than after ack_wait.
          if (stopping) {
            msg.nak();
            continue;
          }
          handleOne(msg);
          while (inFlight.size >= opts.concurrency) await Promise.race(inFlight);
        }
      } catch (err) {
        if (stopping) break;
        opts.metrics?.dependencyErrors.inc({ dependency: 'nats' });
        opts.log.warn({ err: String(err), stream: opts.stream, durable: opts.durable }, 'consumer interrupted; retrying');
        try {
          await ensureDurableConsumer(opts);
        } catch {
          // NATS is still away; try again after the pause.
        }
      }
      if (!stopping) await sleep(500);
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      current?.stop();
      // Messages in hand are finished and settled (acked, nak-ed) before the connection is drained.
      await Promise.allSettled([...inFlight]);
      await Promise.race([loop, sleep(2_000)]);
    },
    lag: async () => {
      const jsm = await opts.nc.jetstreamManager();
      const info = await jsm.consumers.info(opts.stream, opts.durable);
      return info.num_pending + info.num_ack_pending;
    },
  };
}

/** Consumer lag read from JetStream when Prometheus scrapes, never on a message path. */
export function consumerLagGauge(metrics: Metrics, consumer: string, lag: () => Promise<number>): Gauge {
  return new Gauge({
    name: 'er_jetstream_consumer_pending',
    help: 'Messages the durable consumer has not finished (pending + unacknowledged)',
    labelNames: ['consumer'],
    registers: [metrics.registry],
    async collect() {
      try {
        this.set({ consumer }, await lag());
      } catch {
        // NATS unreachable: keep the last value rather than fail the scrape.
      }
    },
  });
}
