import { Metrics, bootService, createPool, databasePoolOptions, serveService } from '@evidence-record/platform';
import { createLedgerApp } from './app';
import { loadLedgerConfig } from './config';

const { config, log } = bootService('ledger', loadLedgerConfig);
const metrics = new Metrics('ledger').dependsOn('postgres');
const pool = createPool(config.DATABASE_URL, { applicationName: 'ledger', max: config.DB_POOL_MAX, statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS, metrics, ...databasePoolOptions(config) });

const app = createLedgerApp({ pool, log, metrics, publicBaseUrl: config.PUBLIC_BASE_URL, internalAuth: { service: 'ledger', keys: config.LEDGER_SIGNING_KEYS } });

await serveService(app, { config, log }, { onShutdown: () => pool.end() });
