import type express from 'express';
import { createServiceApp, currentRecordVersion, finishServiceApp, type Logger, type Metrics, type NatsConnection, type Pool } from '@evidence-record/platform';

/**
 * The worker answers no capability: /healthz, /readyz (Postgres and NATS
 * reachable) and /metrics only.
 */
export function createEmailWorkerApp(deps: { pool: Pool; nc: NatsConnection; log: Logger; metrics: Metrics }): express.Express {
  const opts = {
    name: 'email-worker',
    log: deps.log,
    metrics: deps.metrics,
    readiness: async () => {
      await deps.pool.query('SELECT 1');
      if (deps.nc.isClosed()) throw new Error('NATS connection closed');
      await deps.nc.flush();
    },
    recordVersion: () => currentRecordVersion(deps.pool),
  };
  const app = createServiceApp(opts);
  finishServiceApp(app, opts);
  return app;
}
