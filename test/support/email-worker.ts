import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connectNats, createLogger, createPool, Metrics, type NatsConnection, type Pool } from '@evidence-record/platform';
import { streamNames } from '@evidence-record/contract';
import { startSignalFanout } from '@evidence-record/watch';
import { createMailer, startEmailWorker } from '@evidence-record/email-worker';
import { freePort, launchReady } from './launcher';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Signs the unsubscribe links of the test workers' emails (tests verify them with it). */
export const TEST_UNSUBSCRIBE_KEY = 'test-unsubscribe-signing-key-0123456789abcdef';

/** Short timings so retries, leases and redeliveries happen within a test. */
export const testTimings = {
  EMAIL_ACK_WAIT_MS: '2000',
  EMAIL_LEASE_MS: '4000',
  SMTP_TIMEOUT_MS: '1000',
  EMAIL_BACKOFF_BASE_MS: '200',
  EMAIL_BACKOFF_MAX_MS: '1500',
  EMAIL_MAX_ATTEMPTS: '3',
};

export interface Running {
  stop: () => Promise<void>;
}

/** The watch service's Signal fan-out, in-process. */
export async function startFanout(databaseUrl: string, natsUrl: string, natsPrefix: string): Promise<Running & { pool: Pool; nc: NatsConnection }> {
  const pool = createPool(databaseUrl, { max: 4, statementTimeoutMs: 30_000 });
  const nc = await connectNats(natsUrl, 'test-fanout');
  const log = createLogger('watch-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const fanout = await startSignalFanout({ nc, pool, natsPrefix, durable: 'watch-fanout', ackWaitMs: 10_000, log, metrics: new Metrics('watch') });
  return {
    pool,
    nc,
    stop: async () => {
      await fanout.stop();
      await nc.close();
      await pool.end();
    },
  };
}

/** One email worker, in-process, with the test timings. */
export async function startWorker(databaseUrl: string, natsUrl: string, natsPrefix: string, smtpPort: number, overrides: Partial<typeof testTimings> = {}): Promise<Running & { metrics: Metrics }> {
  const t = { ...testTimings, ...overrides };
  const pool = createPool(databaseUrl, { max: 6 });
  const nc = await connectNats(natsUrl, 'test-email-worker');
  const mailer = createMailer(`smtp://127.0.0.1:${smtpPort}`, { timeoutMs: Number(t.SMTP_TIMEOUT_MS), maxConnections: 4 });
  const metrics = new Metrics('email-worker');
  const worker = await startEmailWorker({
    nc,
    pool,
    mailer,
    log: createLogger('email-worker-test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    metrics,
    natsPrefix,
    durable: 'email-worker',
    ackWaitMs: Number(t.EMAIL_ACK_WAIT_MS),
    concurrency: 4,
    mailFrom: 'Evidence Record <alerts@alerts.test>',
    publicBaseUrl: 'https://api.evidence.test',
    leaseMs: Number(t.EMAIL_LEASE_MS),
    maxAttempts: Number(t.EMAIL_MAX_ATTEMPTS),
    backoffBaseMs: Number(t.EMAIL_BACKOFF_BASE_MS),
    backoffMaxMs: Number(t.EMAIL_BACKOFF_MAX_MS),
    crashAfterSend: false,
    unsubscribe: { signingKey: TEST_UNSUBSCRIBE_KEY, ttlDays: 90 },
  });
  return {
    metrics,
    stop: async () => {
      await worker.stop();
      mailer.close();
      await nc.close();
      await pool.end();
    },
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  metric: (name: string) => Promise<number>;
  stop: () => Promise<void>;
}

/** The real entrypoint (the registry's email-worker entry) as a child process, through the one launcher. */
export async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const port = await freePort();
  // Ready when its health endpoint answers (the worker starts consuming before it listens).
  const p = await launchReady({
    service: 'email-worker',
    port,
    env: { ...process.env, ...testTimings, LOG_LEVEL: 'warn', MAIL_FROM: 'Evidence Record <alerts@alerts.test>', PUBLIC_BASE_URL: 'https://api.evidence.test', UNSUBSCRIBE_SIGNING_KEY: TEST_UNSUBSCRIBE_KEY, ...env },
    readyTimeoutMs: 20_000,
  });
  return {
    child: p.child,
    port,
    exited: p.exited,
    metric: async (name) => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      let sum = 0;
      for (const line of text.split('\n')) if (line.startsWith(name) && !line.startsWith('#')) sum += Number(line.split(' ').pop());
      return sum;
    },
    stop: async () => {
      if (!p.running) return;
      p.child.kill('SIGTERM');
      await p.exited;
    },
  };
}

/** Removes the test's streams from a shared NATS. */
export async function deleteStreams(natsUrl: string, natsPrefix: string): Promise<void> {
  const nc = await connectNats(natsUrl, 'test-cleanup');
  try {
    const jsm = await nc.jetstreamManager();
    const names = streamNames(natsPrefix);
    for (const s of [names.signals.stream, names.alerts.stream]) await jsm.streams.delete(s).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/** Messages in the ALERTS stream not yet acknowledged by the email worker. */
export async function alertsBacklog(nc: NatsConnection, natsPrefix: string): Promise<number> {
  const jsm = await nc.jetstreamManager();
  const info = await jsm.consumers.info(streamNames(natsPrefix).alerts.stream, 'email-worker');
  return info.num_pending + info.num_ack_pending;
}
