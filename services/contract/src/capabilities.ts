import type { z } from 'zod';
import type { Capability, ServiceName } from './capabilities/define';
import { compareProducts } from './capabilities/compare-products';
import { explainSignal } from './capabilities/explain-signal';
import { getCategorySnapshot } from './capabilities/get-category-snapshot';
import { getFormulaHistory } from './capabilities/get-formula-history';
import { getLedgerEdition } from './capabilities/get-ledger-edition';
import { getProductRecord } from './capabilities/get-product-record';
import { getRecordVersion } from './capabilities/get-record-version';
import { getRegulatoryContext } from './capabilities/get-regulatory-context';
import { getResearchContext } from './capabilities/get-research-context';
import { getServingEconomics } from './capabilities/get-serving-economics';
import { getWatchReceipt } from './capabilities/get-watch-receipt';
import { listLedgerEditions } from './capabilities/list-ledger-editions';
import { listSignalChanges } from './capabilities/list-signal-changes';
import { listWatchedProducts } from './capabilities/list-watched-products';
import { resolveProduct } from './capabilities/resolve-product';
import { searchRecord } from './capabilities/search-record';
import { unwatchProduct } from './capabilities/unwatch-product';
import { watchProduct } from './capabilities/watch-product';

export * from './capabilities/define';
// Request shapes of one capability that another package names as a type.
export { SearchRecordBody } from './capabilities/search-record';
export { SignalFeedQuery } from './capabilities/list-signal-changes';

/**
 * The capability table: every capability, one module each under
 * capabilities/ (README, "Adding a capability"). The order is the order of
 * the OpenAPI document's operations and of the MCP tools/list.
 */
export const capabilityList = [
  searchRecord,
  resolveProduct,
  getProductRecord,
  getFormulaHistory,
  explainSignal,
  listSignalChanges,
  compareProducts,
  getServingEconomics,
  getResearchContext,
  getRegulatoryContext,
  getCategorySnapshot,
  listLedgerEditions,
  getLedgerEdition,
  listWatchedProducts,
  watchProduct,
  unwatchProduct,
  getWatchReceipt,
  getRecordVersion,
] as const;

/** Any row of the table, with its own name and schemas. */
export type CapabilityRow = (typeof capabilityList)[number];
export type CapabilityName = CapabilityRow['name'];
/** The row named N. */
export type CapabilityOf<N extends CapabilityName> = Extract<CapabilityRow, { name: N }>;
/** The capabilities one service answers. */
export type ServiceCapabilityName<S extends ServiceName> = Extract<CapabilityRow, { service: S }>['name'];

/**
 * What a capability's handler receives once its row's schemas accepted the
 * request: the parsed path parameters, query and body (undefined where the
 * row takes no body), and the capability's own name, so that answers and
 * refusals name it without repeating it as a literal. Over several rows it is
 * the union of each row's input, told apart by `capability`.
 */
export type CapabilityInput<C extends Capability = Capability> = C extends Capability
  ? {
      capability: C['name'];
      params: z.output<C['params']>;
      query: z.output<C['query']>;
      body: C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
    }
  : never;

export const capabilities = Object.fromEntries(capabilityList.map((cap) => [cap.name, cap])) as {
  readonly [N in CapabilityName]: CapabilityOf<N>;
};

export function capabilityByTool(tool: string): Capability | undefined {
  return capabilityList.find((cap) => cap.tool === tool || `service_${cap.name}` === tool);
}

export const HEALTH_PATH = '/api/v1/health';
export const OPENAPI_PATH = '/api/v1/openapi.json';
