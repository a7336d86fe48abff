/**
 * API access state shared by the gateway and the operator CLI (decision
 * 2250): the names of everything the gateway keeps in Redis, the key-change
 * channel, the extraction-scoring policy, the gateways' Redis settings, and
 * what an operator does to that state. The gateway enforces; the CLI changes
 * keys, accounts and organisations in Postgres and tells the gateways here.
 */
export * from './keyspace';
export { publishKeyChange } from './key-changes';
export { defaultScoringPolicy, type ScoringPolicy } from './scoring-policy';
export { accessSettings } from './settings';
export { announceKeyChange, announceOrgChange, clearExtractionState, readExtractionState, RedisUnreachable } from './operator';
