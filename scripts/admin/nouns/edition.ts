import { closeEdition, openEdition } from '@evidence-record/curation';
import { positional, required, type Noun } from '../cli';

/** Ledger editions: a monthly edition is opened, then closed once its period has ended. */
export const edition: Noun = {
  noun: 'edition',
  summary: 'open and close monthly ledger editions (curation)',
  verbs: {
    open: {
      usage: '--period YYYY-MM',
      run: async ({ pool, flags }) => ({ ...(await openEdition(pool, required(flags, 'period'))) }),
    },
    close: {
      usage: '<edition_id>   (after its period has ended; computes the document and edition_hash; the row never changes again)',
      run: async ({ pool, flags }) => ({ ...(await closeEdition(pool, positional(flags, 0, 'edition_id'))) }),
    },
  },
};
