/** What the tests use from the ledger service. */
export { createLedgerApp, type LedgerAppOptions } from './app';
export { loadLedgerConfig, type LedgerConfig } from './config';
