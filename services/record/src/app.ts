import type express from 'express';
import { createCapabilityServiceApp, type InternalAuth, type Logger, type Metrics, type ServiceHandlers } from '@evidence-record/platform';
import type { RecordDeps } from './deps';
import { compareProducts } from './capabilities/compare-products';
import { getFormulaHistory } from './capabilities/get-formula-history';
import { getProductRecord } from './capabilities/get-product-record';
import { getRecordVersion } from './capabilities/get-record-version';
import { getRegulatoryContext } from './capabilities/get-regulatory-context';
import { getResearchContext } from './capabilities/get-research-context';
import { getServingEconomics } from './capabilities/get-serving-economics';
import { resolveProduct } from './capabilities/resolve-product';
import { searchRecord } from './capabilities/search-record';

/** The nine capabilities this service answers, by name; each is implemented once. */
export const recordHandlers = (deps: RecordDeps): ServiceHandlers<'record'> => ({
  search_record: searchRecord(deps),
  resolve_product: resolveProduct(deps),
  get_product_record: getProductRecord(deps),
  get_formula_history: getFormulaHistory(deps),
  compare_products: compareProducts(deps),
  get_serving_economics: getServingEconomics(deps),
  get_research_context: getResearchContext(deps),
  get_regulatory_context: getRegulatoryContext(deps),
  get_record_version: getRecordVersion(deps),
});

export interface RecordAppDeps extends RecordDeps {
  log: Logger;
  metrics: Metrics;
  /** The gateway's signing keys (every entrypoint passes them; in-process handler tests leave them out). */
  internalAuth?: InternalAuth;
}

/** Builds the record service's app from its dependencies (tests run it in-process on port 0). */
export function createRecordApp(deps: RecordAppDeps): express.Express {
  return createCapabilityServiceApp('record', { log: deps.log, metrics: deps.metrics, pool: deps.pool, internalAuth: deps.internalAuth }, recordHandlers(deps));
}
