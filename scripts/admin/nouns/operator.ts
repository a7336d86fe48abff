import { addOperator } from '@evidence-record/console';
import { required, type Noun } from '../cli';

/** Review console operators: each signs in with a credential of their own; every console action carries their name. */
export const operator: Noun = {
  noun: 'operator',
  summary: 'review console operators: add one (its credential is printed once)',
  verbs: {
    add: {
      usage: '--name N   → {"operator_id", "name", "credential"} (the credential is printed once and stored hashed)',
      run: async ({ pool, flags }) => ({ ...(await addOperator(pool, required(flags, 'name'))) }),
    },
  },
};
