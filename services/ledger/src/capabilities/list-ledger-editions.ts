import { buildAnswer } from '@evidence-record/contract';
import { withSnapshot, type HandlerOf } from '@evidence-record/platform';
import type { LedgerDeps } from '../deps';
import { editionEntry, editionRows } from '@evidence-record/curation';

/**
 * list_ledger_editions: every edition with its period, status, data-as-of
 * date and count released. A closed edition's entry never changes; an open
 * edition's date and count are live. The list names no Signal, so it spends
 * no Signal budget.
 */
export function listLedgerEditions(deps: LedgerDeps): HandlerOf<'list_ledger_editions'> {
  return async ({ capability }, ctx) =>
    withSnapshot(deps.pool, async (client, record) => {
      const today = deps.today();
      // The same rows and entries the review console's editions page shows.
      const editions = (await editionRows(client, today)).map((e) => editionEntry(e, today));
      const open = editions.filter((e) => e.status === 'open').length;
      const answer = buildAnswer({
        request_id: ctx.requestId,
        capability: capability,
        status: 'supported',
        summary:
          editions.length === 0
            ? 'The Record holds no ledger editions yet.'
            : `${editions.length} ledger edition${editions.length === 1 ? '' : 's'}, newest period first: ${editions.length - open} closed, ${open} open.`,
        ledger: { editions },
        limitations: [
          'A closed edition never changes; the list is safe to cache keyed on record_version.',
          ...(open > 0 ? ['An open edition\'s data-as-of date and count released are live and change until it is closed.'] : []),
        ],
        confidence: { level: 'high', basis: 'Read from the ledger editions of one Record version.' },
        record,
      });
      return { answer, entities: [] };
    });
}
