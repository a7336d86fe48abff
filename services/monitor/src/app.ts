import type express from 'express';
import { createServiceApp, finishServiceApp, recordServiceOptions, type Logger, type Metrics, type Pool } from '@evidence-record/platform';

/** The monitor answers no capability: /healthz, /readyz (Postgres reachable) and /metrics. */
export function createMonitorApp(deps: { pool: Pool; log: Logger; metrics: Metrics }): express.Express {
  const opts = recordServiceOptions({ name: 'monitor', log: deps.log, metrics: deps.metrics, pool: deps.pool });
  const app = createServiceApp(opts);
  finishServiceApp(app, opts);
  return app;
}
