import type express from 'express';
import { createCapabilityServiceApp, type InternalAuth, type Logger, type Metrics, type Pool, type ServiceHandlers } from '@evidence-record/platform';
import { getLedgerEdition } from './capabilities/get-ledger-edition';
import { listLedgerEditions } from './capabilities/list-ledger-editions';
import { utcToday } from '@evidence-record/curation';
import type { LedgerDeps } from './deps';

export interface LedgerAppOptions {
  pool: Pool;
  log: Logger;
  metrics: Metrics;
  publicBaseUrl: string;
  today?: () => string;
  /** The gateway's signing keys (every entrypoint passes them; in-process handler tests leave them out). */
  internalAuth?: InternalAuth;
}

/** The capabilities this service answers, by name. */
export const ledgerHandlers = (deps: LedgerDeps): ServiceHandlers<'ledger'> => ({
  list_ledger_editions: listLedgerEditions(deps),
  get_ledger_edition: getLedgerEdition(deps),
});

/** The ledger service: list_ledger_editions and get_ledger_edition. Ready when Postgres answers. */
export function createLedgerApp(opts: LedgerAppOptions): express.Express {
  const deps: LedgerDeps = { pool: opts.pool, publicBaseUrl: opts.publicBaseUrl, today: opts.today ?? (() => utcToday()) };
  return createCapabilityServiceApp('ledger', { log: opts.log, metrics: opts.metrics, pool: opts.pool, internalAuth: opts.internalAuth }, ledgerHandlers(deps));
}
