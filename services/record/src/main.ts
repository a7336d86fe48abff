import { Metrics, configOrExit, createLogger, createPool, initTracing, startService } from '@evidence-record/platform';
import { createRecordApp } from './app';
import { loadRecordConfig } from './config';

/** Entrypoint: configuration from the environment, one Postgres pool, graceful shutdown on SIGTERM/SIGINT. */
const config = configOrExit('record', () => loadRecordConfig());
const log = createLogger('record', config.LOG_LEVEL);
initTracing({ service: 'record', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, exportDelayMs: config.OTEL_BSP_SCHEDULE_DELAY, log });
const metrics = new Metrics('record').dependsOn('postgres');
const pool = createPool(config.DATABASE_URL, {
  max: config.DB_POOL_MAX,
  statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  applicationName: 'er-record',
  metrics,
});
const app = createRecordApp({ pool, publicBaseUrl: config.PUBLIC_BASE_URL, log, metrics, internalAuth: { keys: config.INTERNAL_SIGNING_KEYS } });

await startService(app, {
  port: config.PORT,
  host: config.LISTEN_HOST,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: () => pool.end(),
});
