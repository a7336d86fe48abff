import { randomBytes } from 'node:crypto';
import { Metrics, bootService, createPool, databasePoolOptions, serveService } from '@evidence-record/platform';
import { createConsoleApp } from './app';
import { loadConsoleConfig } from './config';

const { config, log } = bootService('console', loadConsoleConfig);
const metrics = new Metrics('console').dependsOn('postgres');
if (!config.CONSOLE_SESSION_SECRET) log.warn('CONSOLE_SESSION_SECRET is not set: this process drew its own, so its sessions end when it stops and other replicas do not accept them (refused in production)');
const pool = createPool(config.DATABASE_URL, { applicationName: 'console', max: 4, metrics, ...databasePoolOptions(config) });

const app = createConsoleApp({
  pool,
  log,
  metrics,
  sessionSecret: config.CONSOLE_SESSION_SECRET ?? randomBytes(32).toString('hex'),
  publicBaseUrl: config.PUBLIC_BASE_URL,
  natsUrl: config.NATS_URL,
  natsPrefix: config.NATS_PREFIX,
  natsStreamReplicas: config.NATS_STREAM_REPLICAS,
  trustProxy: config.CONSOLE_TRUST_PROXY === '1' ? 1 : undefined,
});

await serveService(app, { config, log }, { onShutdown: () => pool.end() });
