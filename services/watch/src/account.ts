import { Refusal } from '@evidence-record/contract';
import type { CallerContext, PoolClient } from '@evidence-record/platform';
import { findAccountBinding } from './queries/accounts';

export interface BoundAccount {
  accountId: string;
  watchLimit: number;
}

/**
 * The one account a watch call acts on. The gateway already refused keys
 * whose organisation is not bound to exactly one account and plans without
 * the capability; this checks again (defence in depth) and takes the account
 * only from the gateway's x-er-account-id header, never from a payload.
 */
export async function boundAccount(client: PoolClient, ctx: CallerContext, capability: string): Promise<BoundAccount> {
  if (!ctx.accountId) throw new Refusal('account_binding_required');
  const binding = await findAccountBinding(client, ctx.accountId, capability);
  if (!binding) throw new Refusal('account_binding_required');
  if (ctx.orgId !== null && ctx.orgId !== binding.org_id) throw new Refusal('account_binding_required');
  if (binding.accounts_in_org !== 1) throw new Refusal('account_binding_required');
  if (!binding.entitled) throw new Refusal('plan_entitlement_required');
  return { accountId: binding.account_id, watchLimit: watchLimitOf(ctx, binding.plan_watch_limit) };
}

/** The gateway forwards the plan's limit; without a usable header the plan in the database decides. */
function watchLimitOf(ctx: CallerContext, planLimit: number): number {
  const forwarded = ctx.watchLimit;
  return forwarded !== null && Number.isInteger(forwarded) && forwarded >= 0 ? forwarded : planLimit;
}
