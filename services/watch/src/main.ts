import { Metrics, bootService, connectNats, createPool, databasePoolOptions, serveService } from '@evidence-record/platform';
import { createWatchApp } from './app';
import { loadWatchConfig } from './config';
import { startSignalFanout } from './fanout/start';

const { config, log } = bootService('watch', loadWatchConfig);
const metrics = new Metrics('watch').dependsOn('postgres', 'nats');
const pool = createPool(config.DATABASE_URL, { applicationName: 'watch', statementTimeoutMs: 15_000, metrics, ...databasePoolOptions(config) });
const nc = await connectNats(config.NATS_URL, 'watch');

const fanout = await startSignalFanout({
  nc,
  pool,
  natsPrefix: config.NATS_PREFIX,
  streamReplicas: config.NATS_STREAM_REPLICAS,
  durable: config.FANOUT_DURABLE,
  ackWaitMs: config.FANOUT_ACK_WAIT_MS,
  log,
  metrics,
});

const app = createWatchApp({ pool, log, metrics, now: () => new Date(), internalAuth: { service: 'watch', keys: config.WATCH_SIGNING_KEYS } });
await serveService(app, { config, log }, {
  // The Signal being fanned out is finished and acknowledged; one cut short by the grace period is redelivered (stable alert ids).
  onDrain: () => fanout.stop(),
  onShutdown: async () => {
    await nc.drain().catch(() => undefined);
    await pool.end();
  },
});
