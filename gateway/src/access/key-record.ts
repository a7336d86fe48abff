import type { Pool } from '@evidence-record/platform';
import type { KeyEnvironment, PlanLimitsRow } from '@evidence-record/contract';

/** A plan as the hot path needs it: windows, budgets, watch limit, entitled capabilities. */
export interface PlanLimits {
  planId: string;
  windows: { minute: number; hour: number; day: number };
  budgets: { product: number; signal: number; ingredient: number };
  watchLimit: number;
  capabilities: ReadonlySet<string>;
}

/** Everything needed to admit a request, cached per key id. Holds the secret's hash, never the secret. */
export interface KeyRecord {
  keyId: string;
  orgId: string;
  environment: KeyEnvironment;
  secretHash: string;
  scopes: ReadonlySet<string>;
  expiresAt: number | null;
  revoked: boolean;
  suspended: boolean;
  orgSuspended: boolean;
  plan: PlanLimits;
  /** Accounts bound to the key's organisation. */
  accountIds: readonly string[];
}

interface KeyRow extends PlanLimitsRow {
  key_id: string;
  org_id: string;
  environment: KeyEnvironment;
  secret_sha256: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  suspended_at: Date | null;
  org_suspended_at: Date | null;
  plan_id: string;
  account_ids: string[];
}

const loadKeyStatement = {
  name: 'gateway-load-key',
  text: `SELECT k.key_id, k.org_id, k.environment, k.secret_sha256, k.scopes, k.expires_at, k.revoked_at, k.suspended_at,
                o.suspended_at AS org_suspended_at, o.plan_id,
                p.rate_per_minute, p.rate_per_hour, p.rate_per_day,
                p.budget_products, p.budget_signals, p.budget_ingredients, p.watch_limit, p.capabilities,
                ARRAY(SELECT a.account_id FROM accounts a WHERE a.org_id = k.org_id ORDER BY a.account_id) AS account_ids
           FROM api_keys k
           JOIN organizations o ON o.org_id = k.org_id
           JOIN plans p ON p.plan_id = o.plan_id
          WHERE k.key_id = $1`,
};

/** Reads one key with its organisation, plan and bound accounts; null when no such key id exists. */
export async function loadKeyRecord(pool: Pool, keyId: string): Promise<KeyRecord | null> {
  const { rows } = await pool.query<KeyRow>({ ...loadKeyStatement, values: [keyId] });
  const row = rows[0];
  if (!row) return null;
  return {
    keyId: row.key_id,
    orgId: row.org_id,
    environment: row.environment,
    secretHash: row.secret_sha256,
    scopes: new Set(row.scopes),
    expiresAt: row.expires_at ? row.expires_at.getTime() : null,
    revoked: row.revoked_at !== null,
    suspended: row.suspended_at !== null,
    orgSuspended: row.org_suspended_at !== null,
    plan: {
      planId: row.plan_id,
      windows: { minute: row.rate_per_minute, hour: row.rate_per_hour, day: row.rate_per_day },
      budgets: { product: row.budget_products, signal: row.budget_signals, ingredient: row.budget_ingredients },
      watchLimit: row.watch_limit,
      capabilities: new Set(row.capabilities),
    },
    accountIds: row.account_ids,
  };
}
