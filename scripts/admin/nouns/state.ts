import { listStates } from '@evidence-record/curation';
import { required, type Noun } from '../cli';

/** History states: what was read of a product's label, oldest first (pick the two sides of a candidate here). */
export const state: Noun = {
  noun: 'state',
  summary: "a product's history states, oldest first (curation)",
  verbs: {
    list: {
      usage: '--product P   → {"states": [{"state_id", "classification", "first_read", "last_read"}]}',
      run: async ({ pool, flags }) => ({ product_id: required(flags, 'product'), states: await listStates(pool, required(flags, 'product')) }),
    },
  },
};
