import { randomId } from '@evidence-record/contract';
import { announceOrgChange } from '@evidence-record/access';
import { optional, positional, Refused, required, type AdminContext, type Noun } from '../cli';

export async function requireOrg(ctx: AdminContext, orgId: string): Promise<{ org_id: string; name: string; plan_id: string; suspended_at: Date | null; self_service: boolean }> {
  const { rows } = await ctx.pool.query<{ org_id: string; name: string; plan_id: string; suspended_at: Date | null; self_service: boolean }>(
    'SELECT o.org_id, o.name, o.plan_id, o.suspended_at, p.self_service FROM organizations o JOIN plans p USING (plan_id) WHERE o.org_id = $1',
    [orgId],
  );
  if (!rows[0]) throw new Refused('not_found', `no organisation ${orgId}`);
  return rows[0];
}

async function requirePlan(ctx: AdminContext, planId: string): Promise<void> {
  const { rowCount } = await ctx.pool.query('SELECT 1 FROM plans WHERE plan_id = $1', [planId]);
  if (!rowCount) throw new Refused('not_found', `no plan ${planId} (see: plan list)`);
}

/** Organisations: the unit that holds a plan, shares one daily budget, and is bound to accounts. */
export const org: Noun = {
  noun: 'org',
  summary: 'organisations: create, show, change plan, suspend, unsuspend',
  verbs: {
    create: {
      usage: '--name N --plan P',
      run: async (ctx) => {
        const name = required(ctx.flags, 'name');
        const planId = required(ctx.flags, 'plan');
        await requirePlan(ctx, planId);
        const orgId = `org_${randomId()}`;
        await ctx.pool.query('INSERT INTO organizations (org_id, name, plan_id) VALUES ($1, $2, $3)', [orgId, name, planId]);
        return { org_id: orgId, name, plan_id: planId };
      },
    },
    show: {
      usage: '<org_id>',
      run: async (ctx) => {
        const orgId = positional(ctx.flags, 0, 'org_id');
        const o = await requireOrg(ctx, orgId);
        const accounts = await ctx.pool.query<{ account_id: string; email: string }>('SELECT account_id, email FROM accounts WHERE org_id = $1 ORDER BY created_at', [orgId]);
        const keys = await ctx.pool.query<{ active: number; total: number }>(
          'SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS active, count(*)::int AS total FROM api_keys WHERE org_id = $1',
          [orgId],
        );
        const full = await ctx.pool.query<{ suspended_reason: string | null; created_at: Date }>('SELECT suspended_reason, created_at FROM organizations WHERE org_id = $1', [orgId]);
        return {
          org_id: o.org_id,
          name: o.name,
          plan_id: o.plan_id,
          suspended_at: o.suspended_at,
          suspended_reason: full.rows[0]?.suspended_reason ?? null,
          created_at: full.rows[0]?.created_at,
          accounts: accounts.rows,
          keys: keys.rows[0],
        };
      },
    },
    'set-plan': {
      usage: '<org_id> --plan P',
      run: async (ctx) => {
        const orgId = positional(ctx.flags, 0, 'org_id');
        const planId = required(ctx.flags, 'plan');
        await requirePlan(ctx, planId);
        await requireOrg(ctx, orgId);
        await ctx.pool.query('UPDATE organizations SET plan_id = $2 WHERE org_id = $1', [orgId, planId]);
        await announceOrgChange(ctx, orgId);
        return { org_id: orgId, plan_id: planId };
      },
    },
    suspend: {
      usage: '<org_id> [--reason R]   (every key of the organisation answers key_suspended)',
      run: async (ctx) => {
        const orgId = positional(ctx.flags, 0, 'org_id');
        await requireOrg(ctx, orgId);
        const reason = optional(ctx.flags, 'reason') ?? 'suspended by operator';
        const { rows } = await ctx.pool.query<{ suspended_at: Date }>(
          'UPDATE organizations SET suspended_at = coalesce(suspended_at, now()), suspended_reason = $2 WHERE org_id = $1 RETURNING suspended_at',
          [orgId, reason],
        );
        await announceOrgChange(ctx, orgId);
        return { org_id: orgId, suspended_at: rows[0]!.suspended_at, suspended_reason: reason };
      },
    },
    unsuspend: {
      usage: '<org_id>',
      run: async (ctx) => {
        const orgId = positional(ctx.flags, 0, 'org_id');
        await requireOrg(ctx, orgId);
        await ctx.pool.query('UPDATE organizations SET suspended_at = NULL, suspended_reason = NULL WHERE org_id = $1', [orgId]);
        await announceOrgChange(ctx, orgId);
        return { org_id: orgId, suspended_at: null };
      },
    },
  },
};
