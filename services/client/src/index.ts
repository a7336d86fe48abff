export { EvidenceRecordClient, type Answer, type AnswerOf, type Answered, type CallInput, type CapabilityName, type ClientOptions, type Schemas, type Signal } from './client';
export { EvidenceRecordError, responseMeta, type ErrorCode, type RateLimit, type ResponseMeta } from './errors';
export { FilePollStore, pollSignals, type PollOptions, type PollState, type PollStore, type SignalFilters } from './poller';
export { routes } from './routes';
export type { components, operations, paths } from './schema';
