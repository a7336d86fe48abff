import type express from 'express';
import { capabilities } from '@evidence-record/contract';
import {
  createServiceApp,
  recordServiceOptions,
  finishServiceApp,
  mountCapability,
  type Logger,
  type Metrics,
  type Pool,
} from '@evidence-record/platform';
import { getLedgerEdition } from './capabilities/get-ledger-edition';
import { listLedgerEditions } from './capabilities/list-ledger-editions';
import { utcToday } from '@evidence-record/curation';

export interface LedgerAppOptions {
  pool: Pool;
  log: Logger;
  metrics: Metrics;
  publicBaseUrl: string;
  today?: () => string;
}

/** The ledger service: list_ledger_editions and get_ledger_edition. Ready when Postgres answers. */
export function createLedgerApp(opts: LedgerAppOptions): express.Express {
  const deps = { pool: opts.pool, publicBaseUrl: opts.publicBaseUrl, today: opts.today ?? (() => utcToday()) };
  const serviceOpts = recordServiceOptions({ name: 'ledger', log: opts.log, metrics: opts.metrics, pool: opts.pool });
  const app = createServiceApp(serviceOpts);
  mountCapability(app, serviceOpts, capabilities.list_ledger_editions, listLedgerEditions(deps));
  mountCapability(app, serviceOpts, capabilities.get_ledger_edition, getLedgerEdition(deps));
  finishServiceApp(app, serviceOpts);
  return app;
}
