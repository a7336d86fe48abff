import { LATEST_READ } from './timeline';

/**
 * Ledger editions: one per calendar month. September and October 2026 are
 * closed (their document and hash are final); November 2026 is open. A
 * closed edition's document is computed by the ledger service from the
 * Record as it stood at its data-as-of date, and its `edition_hash` is
 * `editionHash(document)` from the contract (SHA-256 of the canonical JSON),
 * so anyone can recompute it. The document shape is in docs/demo-record.md.
 */
export const editionPlan = [
  { period: '2026-09', status: 'closed' as const, closedAt: '2026-10-02T15:00:00.000Z' },
  { period: '2026-10', status: 'closed' as const, closedAt: '2026-11-03T15:00:00.000Z' },
  { period: '2026-11', status: 'open' as const, closedAt: null },
];

/**
 * The edition rows as first inserted: every edition open. The seed then
 * closes the planned ones inside the same Record change with the ledger
 * service's own `sealEdition`, so the demo documents and hashes are exactly
 * what `admin edition close` would have produced.
 */
export function openEditionRows(): Record<string, string | number | boolean | null>[] {
  return editionPlan.map(({ period, status }) => ({
    edition_id: `ed_${period.replace('-', '_')}`,
    period,
    status: 'open',
    opened_at: `${period}-01T00:00:00.000Z`,
    // The open edition reports the newest read; the sealed ones get their period end from sealEdition.
    data_as_of: status === 'open' ? LATEST_READ : null,
    closed_at: null,
    document: null,
    edition_hash: null,
    count_released: 0,
  }));
}
