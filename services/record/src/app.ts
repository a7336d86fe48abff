import type express from 'express';
import { createServiceApp, recordServiceOptions, finishServiceApp, mountCapability, type Logger, type Metrics } from '@evidence-record/platform';
import type { RecordCapability, RecordDeps } from './capability';
import { compareProducts } from './capabilities/compare-products';
import { getFormulaHistory } from './capabilities/get-formula-history';
import { getProductRecord } from './capabilities/get-product-record';
import { getRecordVersion } from './capabilities/get-record-version';
import { getRegulatoryContext } from './capabilities/get-regulatory-context';
import { getResearchContext } from './capabilities/get-research-context';
import { getServingEconomics } from './capabilities/get-serving-economics';
import { resolveProduct } from './capabilities/resolve-product';
import { searchRecord } from './capabilities/search-record';

/** The nine capabilities this service answers; each is implemented once. */
export const recordCapabilities: readonly RecordCapability[] = [
  searchRecord,
  resolveProduct,
  getProductRecord,
  getFormulaHistory,
  compareProducts,
  getServingEconomics,
  getResearchContext,
  getRegulatoryContext,
  getRecordVersion,
];

export interface RecordAppDeps extends RecordDeps {
  log: Logger;
  metrics: Metrics;
}

/** Builds the record service's app from its dependencies (tests run it in-process on port 0). */
export function createRecordApp(deps: RecordAppDeps): express.Express {
  const opts = recordServiceOptions({ name: 'record', log: deps.log, metrics: deps.metrics, pool: deps.pool });
  const app = createServiceApp(opts);
  for (const { capability, handler } of recordCapabilities) mountCapability(app, opts, capability, handler(deps));
  finishServiceApp(app, opts);
  return app;
}
