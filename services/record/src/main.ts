import { Metrics, bootService, createPool, databasePoolOptions, serveService } from '@evidence-record/platform';
import { createRecordApp } from './app';
import { loadRecordConfig } from './config';

/** Entrypoint: configuration from the environment, one Postgres pool (its snapshot reads on the read replica when one is set), graceful shutdown on SIGTERM/SIGINT. */
const { config, log } = bootService('record', loadRecordConfig);
const metrics = new Metrics('record').dependsOn('postgres');
const pool = createPool(config.DATABASE_URL, {
  max: config.DB_POOL_MAX,
  statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  applicationName: 'er-record',
  metrics,
  ...databasePoolOptions(config),
});
const app = createRecordApp({ pool, publicBaseUrl: config.PUBLIC_BASE_URL, log, metrics, internalAuth: { service: 'record', keys: config.RECORD_SIGNING_KEYS } });

await serveService(app, { config, log }, { onShutdown: () => pool.end() });
