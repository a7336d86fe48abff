import { randomId } from '@evidence-record/contract';
import { announceOrgChange } from '@evidence-record/gateway/operator';
import { required, UsageError, type Noun } from '../cli';
import { requireOrg } from './org';

const emailPattern = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/**
 * Accounts: the named customers bound to an organisation. Watch capabilities
 * (and the account-bound scopes) need the organisation bound to exactly one.
 */
export const account: Noun = {
  noun: 'account',
  summary: 'accounts bound to an organisation (watch alerts go to their email)',
  verbs: {
    create: {
      usage: '--org O --email E   (binds the account to the organisation)',
      run: async (ctx) => {
        const orgId = required(ctx.flags, 'org');
        const email = required(ctx.flags, 'email');
        if (!emailPattern.test(email) || email.length > 254) throw new UsageError(`not an email address: ${email}`);
        await requireOrg(ctx, orgId);
        const accountId = `acc_${randomId()}`;
        await ctx.pool.query('INSERT INTO accounts (account_id, org_id, email) VALUES ($1, $2, $3)', [accountId, orgId, email]);
        // The binding count decides account_binding_required and x-er-account-id on every key of the org.
        await announceOrgChange(ctx, orgId);
        return { account_id: accountId, org_id: orgId, email };
      },
    },
    list: {
      usage: '--org O',
      run: async (ctx) => {
        const orgId = required(ctx.flags, 'org');
        await requireOrg(ctx, orgId);
        const { rows } = await ctx.pool.query('SELECT account_id, email, created_at FROM accounts WHERE org_id = $1 ORDER BY created_at', [orgId]);
        return { org_id: orgId, accounts: rows };
      },
    },
  },
};
