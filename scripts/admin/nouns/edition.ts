import { closeEdition, listEditions, openEdition } from '@evidence-record/curation';
import { positional, required, type Noun } from '../cli';

/** Ledger editions: a monthly edition is opened once its month has begun, then closed once it has ended. */
export const edition: Noun = {
  noun: 'edition',
  summary: 'list, open and close monthly ledger editions (curation)',
  verbs: {
    list: {
      usage: '   (every edition, oldest period first, with its status and hash)',
      run: async ({ pool }) => ({ editions: await listEditions(pool) }),
    },
    open: {
      usage: '--period YYYY-MM   (a month that has begun, UTC)',
      run: async ({ pool, flags }) => ({ ...(await openEdition(pool, required(flags, 'period'))) }),
    },
    close: {
      usage: '<edition_id>   (after its period has ended; computes the document and edition_hash; the row never changes again)',
      run: async ({ pool, flags }) => ({ ...(await closeEdition(pool, positional(flags, 0, 'edition_id'))) }),
    },
  },
};
