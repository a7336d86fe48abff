import { Metrics, bootService, connectNats, createPool, databasePoolOptions, serveService } from '@evidence-record/platform';
import { createEmailWorkerApp } from './app';
import { loadEmailWorkerConfig } from './config';
import { createMailer } from './smtp';
import { startEmailWorker } from './worker';

const { config, log } = bootService('email-worker', loadEmailWorkerConfig);
const metrics = new Metrics('email-worker').dependsOn('postgres', 'nats', 'smtp');
const pool = createPool(config.DATABASE_URL, { applicationName: 'email-worker', max: config.EMAIL_CONCURRENCY + 2, metrics, ...databasePoolOptions(config) });
const nc = await connectNats(config.NATS_URL, 'email-worker');
const mailer = createMailer(config.SMTP_URL, { timeoutMs: config.SMTP_TIMEOUT_MS, maxConnections: config.EMAIL_CONCURRENCY });

const worker = await startEmailWorker({
  nc,
  pool,
  mailer,
  log,
  metrics,
  natsPrefix: config.NATS_PREFIX,
  streamReplicas: config.NATS_STREAM_REPLICAS,
  durable: config.EMAIL_DURABLE,
  ackWaitMs: config.EMAIL_ACK_WAIT_MS,
  concurrency: config.EMAIL_CONCURRENCY,
  mailFrom: config.MAIL_FROM,
  publicBaseUrl: config.PUBLIC_BASE_URL,
  leaseMs: config.EMAIL_LEASE_MS,
  maxAttempts: config.EMAIL_MAX_ATTEMPTS,
  backoffBaseMs: config.EMAIL_BACKOFF_BASE_MS,
  backoffMaxMs: config.EMAIL_BACKOFF_MAX_MS,
  crashAfterSend: config.EMAIL_WORKER_CRASH_AFTER_SEND === '1',
  unsubscribe: config.UNSUBSCRIBE_SIGNING_KEY ? { signingKey: config.UNSUBSCRIBE_SIGNING_KEY, ttlDays: config.UNSUBSCRIBE_TOKEN_TTL_DAYS } : null,
});
if (!config.UNSUBSCRIBE_SIGNING_KEY) log.warn('UNSUBSCRIBE_SIGNING_KEY is not set: alert emails carry no one-click unsubscribe link (refused in production)');

await serveService(createEmailWorkerApp({ pool, nc, log, metrics }), { config, log }, {
  // Sends in progress finish, are recorded and acknowledged; messages pulled but not started go back at once.
  onDrain: () => worker.stop(),
  onShutdown: async () => {
    mailer.close();
    await nc.drain().catch(() => undefined);
    await pool.end();
  },
});
