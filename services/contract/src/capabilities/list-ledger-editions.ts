import { z } from 'zod';
import { LedgerEditionEntry, open } from '../answer-parts';
import { example } from '../openapi-examples';
import { EmptyPath, EmptyQuery } from '../requests';
import { defineCapability } from './define';

const { edition } = example;

export const LedgerEditionList = open({ editions: z.array(LedgerEditionEntry).describe('newest period first') })
  .describe('list_ledger_editions')
  .meta({ id: 'LedgerEditionList' });

export const listLedgerEditions = defineCapability({
  name: 'list_ledger_editions',
  method: 'GET', path: '/api/v1/ledger', scope: 'ledger:read', cost: 'signal', service: 'ledger', tool: 'ledger.list', readOnly: true,
  description: 'The ledger editions: period, status, data-as-of date and count released. Safe to cache: a closed edition never changes.',
  params: EmptyPath, query: EmptyQuery, body: null,
  answer: { ledger: LedgerEditionList },
  refusals: [],
  paged: false,
  examples: {
    answer: { ledger: { editions: [{ ...edition, edition_id: 'ed_2026_11', period: '2026-11', status: 'open', data_as_of: '2026-11-24', count_released: 2 }, edition] } },
  },
  mcp: {
    title: 'List ledger editions',
    use: 'Pass an edition_id to ledger.get for its content.',
    arguments: {},
  },
});
