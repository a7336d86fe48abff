import { Metrics, createLogger, createPool, startService } from '@evidence-record/platform';
import { createLedgerApp } from './app';
import { loadLedgerConfig } from './config';

const config = loadLedgerConfig();
const log = createLogger('ledger', config.LOG_LEVEL);
const metrics = new Metrics('ledger');
const pool = createPool(config.DATABASE_URL, { applicationName: 'ledger', max: config.DB_POOL_MAX, statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS });

const app = createLedgerApp({ pool, log, metrics, publicBaseUrl: config.PUBLIC_BASE_URL });

await startService(app, {
  port: config.PORT,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: async () => {
    await pool.end();
  },
});
