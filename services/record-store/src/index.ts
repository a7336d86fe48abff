/**
 * The Record store: the one home of the Record's data. Its schema (the SQL
 * migrations beside this folder), the row types, and the queries and
 * presenters more than one service or library needs. Services and libraries
 * import it, never each other.
 *
 * The migrator is its own entry, `@evidence-record/record-store/migrations`,
 * so that a service importing these queries does not load node-pg-migrate.
 */
export { normalizeName, words } from './names';
export * from './rows';
export { PRODUCT_IDENTITY_COLUMNS, PRODUCTS_WITH_BRANDS, productById, productsById } from './products';
export {
  RELEASED_SIGNAL_COLUMNS,
  RELEASED_SIGNALS,
  correctionsOf,
  findReleasedSignal,
  presentCorrection,
  presentSignal,
  presentedSignals,
  releasedSignals,
  type CorrectionRow,
  type SignalOut,
  type SignalRow,
  type SignalSelection,
} from './signals';
export { claimUnpublished, markFailed, markPublished, pendingCount, type OutboxRow } from './outbox';
export { publishPending, type PublishOptions, type PublishResult } from './publish-pending';
