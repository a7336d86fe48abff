import type express from 'express';
import { createServiceApp, recordServiceOptions, finishServiceApp, type Logger, type Metrics, type NatsConnection, type Pool } from '@evidence-record/platform';

/**
 * The worker answers no capability: /healthz, /readyz (Postgres and NATS
 * reachable) and /metrics only.
 */
export function createEmailWorkerApp(deps: { pool: Pool; nc: NatsConnection; log: Logger; metrics: Metrics }): express.Express {
  const opts = recordServiceOptions({
    name: 'email-worker',
    log: deps.log,
    metrics: deps.metrics,
    pool: deps.pool,
    alsoReady: async () => {
      if (deps.nc.isClosed()) throw new Error('NATS connection closed');
      await deps.nc.flush();
    },
  });
  const app = createServiceApp(opts);
  finishServiceApp(app, opts);
  return app;
}
