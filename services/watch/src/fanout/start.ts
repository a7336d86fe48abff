import { streamNames } from '@evidence-record/contract';
import { consumerLagGauge, runDurableConsumer, setUpWorkerConsumer, type Logger, type Metrics, type NatsConnection, type Pool, type RunningConsumer } from '@evidence-record/platform';
import { fanoutMetrics } from './metrics';
import { signalReleasedHandler } from './signal-fanout';

export interface SignalFanoutOptions {
  nc: NatsConnection;
  pool: Pool;
  natsPrefix: string;
  /** NATS_STREAM_REPLICAS: replicas of the streams if this start creates them (existing ones keep theirs; the consumer follows its stream). */
  streamReplicas?: number;
  durable: string;
  ackWaitMs: number;
  log: Logger;
  metrics: Metrics;
}

/**
 * Starts the fan-out of released Signals into alerts: streams and the durable
 * consumer are created idempotently, then this replica pulls Signal events
 * one at a time (each one may fan out to thousands of accounts).
 */
export async function startSignalFanout(opts: SignalFanoutOptions): Promise<RunningConsumer> {
  const consumerSpec = await setUpWorkerConsumer({ ...opts, consumes: 'signals' });
  const log = opts.log.child({ component: 'signal-fanout' });
  const running = runDurableConsumer({
    ...consumerSpec,
    concurrency: 1,
    log,
    metrics: opts.metrics,
    handle: signalReleasedHandler({ pool: opts.pool, js: opts.nc.jetstream(), natsPrefix: opts.natsPrefix, log, metrics: fanoutMetrics(opts.metrics) }),
  });
  consumerLagGauge(opts.metrics, opts.durable, running.lag);
  log.info({ stream: consumerSpec.stream, durable: opts.durable, alerts_subject: streamNames(opts.natsPrefix).alerts.requested }, 'signal fan-out started');
  return running;
}
