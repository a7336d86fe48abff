/** What the operator CLI and the tests use from the signals service. */
export { createSignalsApp, type SignalsAppOptions } from './app';
export { loadSignalsConfig, type SignalsConfig } from './config';
export { OutboxRelay, type RelayStatus } from './outbox/relay';
export { issueCursor, readCursor, filterHash } from './cursor';
