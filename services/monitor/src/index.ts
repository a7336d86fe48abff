/**
 * The source monitor as a library: the service (main.ts) and the operator
 * CLI (`admin monitor run-once`, `admin source …`) use the same code.
 */
export { MonitorSettingsSchema, defaultSettings, dsldOrigin, type MonitorSettings } from './settings';
export { createMonitor, policyOf, userAgent, AGENT_TOKEN } from './monitor';
export { runOnce, startLoop, emptyTotals, type RunTotals } from './runner';
export { performCheck, LeaseLost, retryAfterMs, type MonitorDeps, type CheckSummary, type Reading } from './check';
export { CheckRecorder } from './recorder';
export { leaseDue, releaseLease, dueBacklog, claimHost, releaseHost, type LeasedSource } from './leases';
export { addSource, listSources, setSourceState, hostKey, sourceKinds, AddSourceInput, type SourcePolicy } from './sources';
export { checkSourceUrl, checkUrl, isPublicAddress, resolveChecked, AddressRefused, type AddressPolicy, type Resolver } from './guard';
export { Fetcher, FetchFailure, Deadline } from './fetcher';
export { withDsldKey, dropDsldKeyOffOrigin } from './dsld-key';
export { parseDsldLabel, amountOf, normalizeUnit, type DsldReading, type DeclaredLine } from './dsld';
export { labelCaptureOf } from './label-capture';
export { rederiveStates, type RederiveSummary } from './rederive';
export { attachDsldLabel, AttachLabelInput, type AttachedLabel, type AttachDeps } from './label-versions';
export { IngredientNames, type IdentityQuery } from './synonyms';
export { parseOfferPage, parseOfferBlocks, jsonLdBlocks, type OfferReading } from './offers';
export { monitorMetrics, type MonitorMetrics } from './metrics';
