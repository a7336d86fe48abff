/** What the operator CLI and the tests use from the signals service. */
export { createSignalsApp, type SignalsAppOptions } from './app';
export { loadSignalsConfig, type SignalsConfig } from './config';
export { OutboxRelay, type RelayStatus } from './outbox/relay';
export { publishPending } from './outbox/publisher';
export { publishNow, type PublishNowResult } from './outbox/publish-now';
export { issueCursor, readCursor, filterHash } from './cursor';
export { CaptureBundle } from './curation/bundle';
export { importCaptures, type ImportResult } from './curation/captures';
export { openCandidate, approveCandidate, refuseCandidate, type OpenCandidateInput } from './curation/candidates';
export { releaseSignals, releaseEventId, type ReleaseResult } from './curation/release';
export { correctSignal, withdrawSignal } from './curation/corrections';
export { CurationRefused } from './curation/errors';
export { signalUrl } from './present';
export { type Clock, utcDate, addDays } from './dates';
