import { Refusal, buildAnswer, editionHash } from '@evidence-record/contract';
import { withSnapshot, type HandlerOf, type PoolClient } from '@evidence-record/platform';
import type { LedgerDeps } from '../deps';
import { computeEditionDocument, dataAsOf, editionRow, type EditionDocument, type EditionRow } from '@evidence-record/curation';
import { currentSignals } from '../queries/signals';

/** How a client recomputes `edition_hash` from the answer; also in docs/signals-and-ledger.md. */
export const HASH_METHOD = {
  algorithm: 'sha256',
  encoding: 'hex',
  over: 'ledger.document',
  canonical_json:
    'object keys sorted recursively by UTF-16 code units; no whitespace; strings and numbers written as ECMAScript JSON.stringify writes them; UTF-8 bytes',
} as const;

/**
 * An open edition's document is a function of the Record version and the
 * date, so each app computes it once per (edition, record version, day) and
 * reuses it: it is a report over the whole covered set.
 */
function liveDocuments() {
  const cache = new Map<string, { document: EditionDocument; hash: string }>();
  return async (client: PoolClient, edition: EditionRow, recordVersion: string, today: string) => {
    const key = `${edition.edition_id}|${recordVersion}|${today}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const document = await computeEditionDocument(client, { edition_id: edition.edition_id, period: edition.period, status: 'open' }, today);
    const computed = { document, hash: editionHash(document) };
    if (cache.size >= 16) cache.delete(cache.keys().next().value!);
    cache.set(key, computed);
    return computed;
  };
}

/**
 * get_ledger_edition: one edition's document and its hash. A closed edition
 * answers with the document stored when it closed, byte-for-byte the value
 * the hash was computed over; an open edition's document is computed live.
 * `signals` carries each confirmed change's current state and permanent
 * address, outside the hashed document, since a Signal may be corrected or
 * withdrawn after the edition closed and the document names Signals by id.
 */
export function getLedgerEdition(deps: LedgerDeps): HandlerOf<'get_ledger_edition'> {
  const liveDocument = liveDocuments();
  return async ({ capability, params }, ctx) =>
    withSnapshot(deps.pool, async (client, record) => {
      const today = deps.today();
      const edition = await editionRow(client, params.edition_id, today);
      if (!edition) throw new Refusal('not_found');

      const closed = edition.status === 'closed';
      const { document, hash } = closed
        ? { document: edition.document as unknown as EditionDocument, hash: edition.edition_hash! }
        : await liveDocument(client, edition, record.record_version, today);
      const signalIds = document.confirmed_changes.map((c) => c.signal_id);
      const signals = (await currentSignals(client, signalIds)).map((s) => ({
        signal_id: s.signal_id,
        product: { product_id: s.product_id, name: s.product_name, brand_id: s.brand_id, brand_name: s.brand_name },
        dimension: s.dimension,
        category: s.category,
        summary: s.summary,
        status: s.status,
        observation_window: { start: s.window_start, end: s.window_end, exact_change_date: s.exact_change_date },
        review: { released_at: s.released_on, reviewed: true as const },
        signal_url: `${deps.publicBaseUrl.replace(/\/+$/, '')}/api/v1/signals/${s.signal_id}`,
        before: s.before_state_id ? { state_id: s.before_state_id } : null,
        after: s.after_state_id ? { state_id: s.after_state_id } : null,
        corrections: s.corrections,
      }));

      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability,
        // An open edition is a real answer about an unfinished period.
        status: closed ? 'supported' : 'partial',
        summary: closed
          ? `Ledger edition ${edition.period}, closed: ${document.confirmed_changes.length} confirmed changes, data as of ${document.data_as_of}.`
          : `Ledger edition ${edition.period}, open: computed live as of ${dataAsOf(edition.period, today)}; it changes until it is closed.`,
        ledger: {
          edition: {
            edition_id: edition.edition_id,
            period: edition.period,
            status: edition.status,
            data_as_of: document.data_as_of,
            count_released: document.confirmed_changes.length,
            closed_at: edition.closed_at ? edition.closed_at.toISOString() : null,
          },
          document,
          edition_hash: hash,
          hash_method: HASH_METHOD,
        },
        signals,
        limitations: document.limitations,
        confidence: closed
          ? { level: 'high', basis: 'The closed edition document exactly as published; its hash recomputes from ledger.document.' }
          : { level: 'medium', basis: 'An open edition computed from the current Record version; it is not final.' },
        record,
      });
      return { answer, entities: signalIds };
    });
}
