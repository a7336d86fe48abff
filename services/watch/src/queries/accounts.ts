import type { PoolClient } from '@evidence-record/platform';

export interface AccountBindingRow {
  account_id: string;
  org_id: string;
  accounts_in_org: number;
  entitled: boolean;
  plan_watch_limit: number;
}

/** The account, its organisation's plan, and how many accounts that organisation binds. */
export async function findAccountBinding(client: PoolClient, accountId: string, capability: string): Promise<AccountBindingRow | null> {
  const { rows } = await client.query<AccountBindingRow>({
    name: 'watch-account-binding',
    text: `SELECT a.account_id, a.org_id,
                  (SELECT count(*) FROM accounts b WHERE b.org_id = a.org_id)::int AS accounts_in_org,
                  $2 = ANY (p.capabilities) AS entitled,
                  p.watch_limit AS plan_watch_limit
             FROM accounts a
             JOIN organizations o ON o.org_id = a.org_id
             JOIN plans p ON p.plan_id = o.plan_id
            WHERE a.account_id = $1`,
    values: [accountId, capability],
  });
  return rows[0] ?? null;
}

/** Serialises watch changes of one account, so two concurrent adds cannot both pass the limit. */
export async function lockAccount(client: PoolClient, accountId: string): Promise<void> {
  await client.query({ name: 'watch-lock-account', text: 'SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE', values: [accountId] });
}
