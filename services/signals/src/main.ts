import { Metrics, bootService, createPool, databasePoolOptions, serveService } from '@evidence-record/platform';
import { createSignalsApp } from './app';
import { loadSignalsConfig } from './config';
import { OutboxRelay } from './outbox/relay';

const { config, log } = bootService('signals', loadSignalsConfig);
const metrics = new Metrics('signals').dependsOn('postgres', 'nats');
const pool = createPool(config.DATABASE_URL, { applicationName: 'signals', max: config.DB_POOL_MAX, metrics, ...databasePoolOptions(config) });

// The API starts without waiting for NATS; the relay connects on its own and drains when it can.
const relay = new OutboxRelay({ pool, log, metrics, natsUrl: config.NATS_URL, natsPrefix: config.NATS_PREFIX, streamReplicas: config.NATS_STREAM_REPLICAS, intervalMs: config.OUTBOX_RELAY_INTERVAL_MS });
relay.start();

const app = createSignalsApp({
  pool,
  log,
  metrics,
  publicBaseUrl: config.PUBLIC_BASE_URL,
  cursorSecret: config.CURSOR_SECRET,
  relayStatus: () => relay.status(),
  internalAuth: { service: 'signals', keys: config.SIGNALS_SIGNING_KEYS },
});

await serveService(app, { config, log }, {
  // The relay finishes the batch it is publishing; what is left waits in the outbox for the next replica.
  onDrain: () => relay.stop(),
  onShutdown: () => pool.end(),
});
