import { connectNats, createLogger, createPool, Metrics, startService } from '@evidence-record/platform';
import { createWatchApp } from './app';
import { loadWatchConfig } from './config';
import { startSignalFanout } from './fanout/start';

const config = loadWatchConfig();
const log = createLogger('watch', config.LOG_LEVEL);
const metrics = new Metrics('watch');
const pool = createPool(config.DATABASE_URL, { applicationName: 'watch', statementTimeoutMs: 15_000 });
const nc = await connectNats(config.NATS_URL, 'watch');

const fanout = await startSignalFanout({
  nc,
  pool,
  natsPrefix: config.NATS_PREFIX,
  durable: config.FANOUT_DURABLE,
  ackWaitMs: config.FANOUT_ACK_WAIT_MS,
  log,
  metrics,
});

const app = createWatchApp({ pool, log, metrics, now: () => new Date() });
await startService(app, {
  port: config.PORT,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: async () => {
    await fanout.stop();
    await nc.drain().catch(() => undefined);
    await pool.end();
  },
});
