import { parseKey, secretMatches, type Capability, type ErrorCode } from '@evidence-record/contract';
import type { KeyCache } from './key-cache';
import type { KeyRecord } from './key-record';

/**
 * Who may ask what. The order of the checks is part of the contract
 * (docs/decisions/0300-gateway-check-order.md): authentication, then
 * suspension, then scope, then plan entitlement, then account binding.
 */

// A hash nobody's secret has: unknown and malformed keys still spend one comparison.
const UNKNOWN_SECRET_HASH = '0'.repeat(64);

export type Authentication =
  | { ok: true; key: KeyRecord }
  | { ok: false; code: 'invalid_credentials' }
  | { ok: false; code: 'key_suspended'; key: KeyRecord };

/**
 * Missing, malformed, unknown, revoked, expired and mismatched keys are all
 * the same `invalid_credentials`; a suspended key (or organisation) with the
 * right secret is `key_suspended`. A failed lookup throws: that is a server
 * fault, never a 401.
 */
export async function authenticate(raw: string | null, cache: KeyCache, now = Date.now()): Promise<Authentication> {
  const parsed = parseKey(raw);
  if (!parsed) {
    secretMatches('', UNKNOWN_SECRET_HASH);
    return { ok: false, code: 'invalid_credentials' };
  }
  const key = await cache.lookup(parsed.keyId, now);
  const matches = secretMatches(parsed.secret, key?.secretHash ?? UNKNOWN_SECRET_HASH);
  if (!key || !matches || key.environment !== parsed.environment || key.revoked || (key.expiresAt !== null && key.expiresAt <= now)) {
    return { ok: false, code: 'invalid_credentials' };
  }
  if (key.suspended || key.orgSuspended) return { ok: false, code: 'key_suspended', key };
  return { ok: true, key };
}

export interface Denial {
  code: ErrorCode;
  details?: Record<string, unknown>;
}

/** Scope, then plan entitlement, then (for watch capabilities) exactly one bound account. */
export function authorizeCapability(key: KeyRecord, capability: Capability): Denial | null {
  if (!key.scopes.has(capability.scope)) {
    return { code: 'insufficient_scope', details: { required_scope: capability.scope } };
  }
  if (!key.plan.capabilities.has(capability.name)) {
    return { code: 'plan_entitlement_required', details: { capability: capability.name, plan: key.plan.planId } };
  }
  if (capability.scope === 'watch:manage' && key.accountIds.length !== 1) {
    return { code: 'account_binding_required', details: { bound_accounts: key.accountIds.length } };
  }
  return null;
}

/** The account watch capabilities act on: set only when exactly one is bound. */
export function boundAccount(key: KeyRecord): string | null {
  return key.accountIds.length === 1 ? key.accountIds[0]! : null;
}
