import { Metrics, configOrExit, createLogger, createPool, initTracing, startService } from '@evidence-record/platform';
import { createLedgerApp } from './app';
import { loadLedgerConfig } from './config';

const config = configOrExit('ledger', () => loadLedgerConfig());
const log = createLogger('ledger', config.LOG_LEVEL);
initTracing({ service: 'ledger', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, exportDelayMs: config.OTEL_BSP_SCHEDULE_DELAY, log });
const metrics = new Metrics('ledger').dependsOn('postgres');
const pool = createPool(config.DATABASE_URL, { applicationName: 'ledger', max: config.DB_POOL_MAX, statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS, metrics });

const app = createLedgerApp({ pool, log, metrics, publicBaseUrl: config.PUBLIC_BASE_URL, internalAuth: { keys: config.INTERNAL_SIGNING_KEYS } });

await startService(app, {
  port: config.PORT,
  host: config.LISTEN_HOST,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: () => pool.end(),
});
