import { Metrics, bootService, createPool, serveService } from '@evidence-record/platform';
import { createConsoleApp } from './app';
import { loadConsoleConfig } from './config';
import { storedSessionSecret } from './operators';

const { config, log } = bootService('console', loadConsoleConfig);
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

await serveService(app, { config, log }, { onShutdown: () => pool.end() });
