/** What the operator CLI, the demo seed and the tests use from the ledger service. */
export { createLedgerApp, type LedgerAppOptions } from './app';
export { loadLedgerConfig, type LedgerConfig } from './config';
export { openEdition, closeEdition, sealEdition, EditionRefused, type CloseResult } from './curation/editions';
export { computeEditionDocument, composeEditionDocument, type EditionDocument } from './edition-document';
export { HASH_METHOD } from './capabilities/get-ledger-edition';
export { editionIdOf, periodEnd, periodStart, dataAsOf } from './period';
