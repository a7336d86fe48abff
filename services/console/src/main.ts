import { Metrics, configOrExit, createLogger, createPool, initTracing, startService } from '@evidence-record/platform';
import { createConsoleApp } from './app';
import { loadConsoleConfig } from './config';
import { storedSessionSecret } from './operators';

const config = configOrExit('console', () => loadConsoleConfig());
const log = createLogger('console', config.LOG_LEVEL);
initTracing({ service: 'console', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, exportDelayMs: config.OTEL_BSP_SCHEDULE_DELAY, log });
const metrics = new Metrics('console').dependsOn('postgres');
const pool = createPool(config.DATABASE_URL, { applicationName: 'console', max: 4, metrics });

const app = createConsoleApp({
  pool,
  log,
  metrics,
  sessionSecret: config.CONSOLE_SESSION_SECRET ?? (await storedSessionSecret(pool)),
  publicBaseUrl: config.PUBLIC_BASE_URL,
  natsUrl: config.NATS_URL,
  natsPrefix: config.NATS_PREFIX,
  trustProxy: config.CONSOLE_TRUST_PROXY === '1' ? 1 : undefined,
});

await startService(app, { port: config.PORT, host: config.LISTEN_HOST, log, graceMs: config.SHUTDOWN_GRACE_MS, onShutdown: () => pool.end() });
