import { randomId } from '@evidence-record/contract';
import { withTransaction } from '@evidence-record/platform';
import { announceOrgChange } from '@evidence-record/access';
import { positional, Refused, required, UsageError, type Noun } from '../cli';
import { requireOrg } from './org';

const emailPattern = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/**
 * Accounts: the named customer an organisation is bound to. Watch
 * capabilities (and the account-bound scopes) need the organisation bound to
 * exactly one, so a second account is refused; `unbind` repairs an
 * organisation that already has more than one.
 */
export const account: Noun = {
  noun: 'account',
  summary: 'the one account an organisation is bound to (watch alerts go to its email)',
  verbs: {
    create: {
      usage: '--org O --email E   (binds the account to the organisation; refused if it already has one)',
      run: async (ctx) => {
        const orgId = required(ctx.flags, 'org');
        const email = required(ctx.flags, 'email');
        if (!emailPattern.test(email) || email.length > 254) throw new UsageError(`not an email address: ${email}`);
        await requireOrg(ctx, orgId);
        const accountId = `acc_${randomId()}`;
        await withTransaction(ctx.pool, async (client) => {
          // Two concurrent creates for one organisation: the second waits here, then sees the first.
          await client.query('SELECT 1 FROM organizations WHERE org_id = $1 FOR UPDATE', [orgId]);
          const bound = await client.query<{ account_id: string; email: string }>('SELECT account_id, email FROM accounts WHERE org_id = $1', [orgId]);
          if (bound.rows.length > 0) {
            throw new Refused(
              'org_already_bound',
              `organisation ${orgId} is already bound to ${bound.rows.map((r) => `${r.account_id} (${r.email})`).join(', ')}; an organisation has one account`,
            );
          }
          await client.query('INSERT INTO accounts (account_id, org_id, email) VALUES ($1, $2, $3)', [accountId, orgId, email]);
        });
        // The binding decides account_binding_required and x-er-account-id on every key of the org.
        const notified = await announceOrgChange(ctx, orgId);
        return { account_id: accountId, org_id: orgId, email, gateways_notified: notified };
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
    unbind: {
      usage: '<account_id>   (the account stops being bound to its organisation: its watches end, its pending alerts are cancelled, sent alerts stay)',
      run: async (ctx) => {
        const accountId = positional(ctx.flags, 0, 'account_id');
        const orgId = await withTransaction(ctx.pool, async (client) => {
          const { rows } = await client.query<{ org_id: string | null }>('SELECT org_id FROM accounts WHERE account_id = $1 FOR UPDATE', [accountId]);
          if (!rows[0]) throw new Refused('not_found', `no account ${accountId}`);
          const from = rows[0].org_id;
          if (from === null) throw new Refused('not_bound', `account ${accountId} is not bound to an organisation`);
          await client.query('UPDATE accounts SET org_id = NULL, unbound_from = $2, unbound_at = now() WHERE account_id = $1', [accountId, from]);
          await client.query('DELETE FROM watches WHERE account_id = $1', [accountId]);
          await client.query(`UPDATE alerts SET status = 'cancelled' WHERE account_id = $1 AND status = 'pending'`, [accountId]);
          return from;
        });
        const notified = await announceOrgChange(ctx, orgId);
        const left = await ctx.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE org_id = $1', [orgId]);
        return { account_id: accountId, unbound_from: orgId, accounts_bound: left.rows[0]!.n, gateways_notified: notified };
      },
    },
  },
};
