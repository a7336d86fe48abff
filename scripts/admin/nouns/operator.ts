import { addOperator, disableOperator, enableOperator, listOperators, type OperatorRef } from '@evidence-record/curation';
import { optional, required, UsageError, type AdminContext, type Noun } from '../cli';

/** `<operator_id>` or `--name N`, exactly one. */
function operatorRef(ctx: AdminContext): OperatorRef {
  const id = ctx.flags.positional[0];
  const name = optional(ctx.flags, 'name');
  if ((id === undefined) === (name === undefined)) throw new UsageError('name the operator by <operator_id> or by --name N (operator list shows both)');
  if (id !== undefined && !/^op_[0-9a-z]{12}$/.test(id)) throw new UsageError('an operator id is op_ and 12 characters (operator list shows them)');
  return id !== undefined ? { operatorId: id } : { name: name! };
}

/**
 * Review console operators: each signs in with a credential of their own; every
 * console action carries their name. Disabling one ends their console sessions
 * at once (docs/curation.md, "Operators").
 */
export const operator: Noun = {
  noun: 'operator',
  summary: 'review console operators: add (the credential is printed once), list, disable (ends their sessions at once), enable',
  verbs: {
    add: {
      usage: '--name N   → {"operator_id", "name", "credential"} (the credential is printed once and stored hashed)',
      run: async ({ pool, flags }) => ({ ...(await addOperator(pool, required(flags, 'name'))) }),
    },
    list: {
      usage: '  → {"operators":[{"operator_id","name","status","created_at","disabled_at","sessions","last_action_at"}]} (never a credential)',
      run: async ({ pool }) => ({ operators: await listOperators(pool) }),
    },
    disable: {
      usage: '<operator_id> | --name N   → {"operator_id","name","disabled_at","sessions_ended"}: refuses sign-in and ends every console session of theirs now',
      run: async (ctx) => ({ ...(await disableOperator(ctx.pool, operatorRef(ctx))) }),
    },
    enable: {
      usage: '<operator_id> | --name N   → {"operator_id","name","disabled_at":null}: the same credential signs in again',
      run: async (ctx) => ({ ...(await enableOperator(ctx.pool, operatorRef(ctx))) }),
    },
  },
};
