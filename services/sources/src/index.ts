/**
 * Reading the Record's sources, as a library (decision 2050): the monitor
 * service (services/monitor) runs its loop, and the operator CLI (`admin
 * monitor run-once`, `admin source …`, `admin product add-from-dsld`) and the
 * demo source server use the same code. The kinds of source it reads are one
 * file each under kinds/ (docs/monitor.md, "Adding a source kind").
 */
export { MonitorSettingsFields, MonitorSettingsSchema, deadlineBelowLease, defaultSettings, dsldOrigin, type MonitorSettings } from './settings';
export { createMonitor, policyOf, userAgent, AGENT_TOKEN } from './monitor';
export { runOnce, startLoop, emptyTotals, type RunTotals } from './runner';
export { performCheck } from './check';
export type { MonitorDeps, CheckSummary, RecordsChecks } from './deps';
export type { Reading, Parsed } from './reading';
export { retryAfterMs } from './read';
export { CheckRecorder } from './recorder';
export { leaseDue, giveBack, runLeased, dueBacklog, claimHost, releaseHost, LeaseLost, type LeasedSource } from './leases';
export { addSource, listSources, setSourceState, hostKey, AddSourceInput } from './sources';
export { sourceKinds, kindOf, type SourceKind, type SourcePolicy } from './kinds';
export { checkSourceUrl, checkUrl, isPublicAddress, resolveChecked, AddressRefused, type AddressPolicy, type Resolver } from './guard';
export { Fetcher, FetchFailure, Deadline } from './fetcher';
export { withDsldKey, dropDsldKeyOffOrigin } from './dsld-key';
export { parseDsldLabel, amountOf, normalizeUnit, type DsldReading, type DeclaredLine } from './dsld';
export { labelCaptureOf } from './label-capture';
export { rederiveStates, type RederiveSummary } from './rederive';
export { attachDsldLabel, AttachLabelInput, type AttachedLabel, type AttachDeps } from './label-versions';
export { IngredientNames, type IdentityQuery } from './synonyms';
export { parseOfferPage, parseOfferBlocks, jsonLdBlocks, quoteLeadingZeroNumbers, type OfferReading } from './offers';
export { monitorMetrics, type MonitorMetrics } from './metrics';
