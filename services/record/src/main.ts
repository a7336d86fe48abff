import { ConfigError, Metrics, createLogger, createPool, startService } from '@evidence-record/platform';
import { createRecordApp } from './app';
import { loadRecordConfig, type RecordConfig } from './config';

/** Entrypoint: configuration from the environment, one Postgres pool, graceful shutdown on SIGTERM/SIGINT. */
let config: RecordConfig;
try {
  config = loadRecordConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`record: ${err.message}`);
  process.exit(1);
}

const log = createLogger('record', config.LOG_LEVEL);
const pool = createPool(config.DATABASE_URL, {
  max: config.DB_POOL_MAX,
  statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  applicationName: 'er-record',
});
const metrics = new Metrics('record');
const app = createRecordApp({ pool, publicBaseUrl: config.PUBLIC_BASE_URL, log, metrics });

await startService(app, {
  port: config.PORT,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: () => pool.end(),
});
