import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key shape: sk_{environment}_{keyId}_{secret}.
 * The environment is readable without a lookup, the key id is a public,
 * loggable identifier, and only the SHA-256 of the secret is ever stored.
 */
export const keyEnvironments = ['live', 'test'] as const;
export type KeyEnvironment = (typeof keyEnvironments)[number];

const keyPattern = /^sk_(live|test)_([0-9a-z]{16})_([0-9A-Za-z]{32})$/;
const secretAlphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface ParsedKey {
  environment: KeyEnvironment;
  keyId: string;
  secret: string;
}

export function parseKey(raw: string | undefined | null): ParsedKey | null {
  if (!raw || raw.length > 80) return null;
  const m = keyPattern.exec(raw);
  if (!m) return null;
  return { environment: m[1] as KeyEnvironment, keyId: m[2]!, secret: m[3]! };
}

function randomFrom(alphabet: string, length: number): string {
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

export function generateKey(environment: KeyEnvironment): { key: string; keyId: string; secretHash: string } {
  const keyId = randomFrom('0123456789abcdefghijklmnopqrstuvwxyz', 16);
  const secret = randomFrom(secretAlphabet, 32);
  return { key: `sk_${environment}_${keyId}_${secret}`, keyId, secretHash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHashHex: string): boolean {
  // One-shot hash: no Hash object per request (Node ≥ 20.12).
  const presented = hash('sha256', secret, 'buffer');
  const stored = Buffer.from(storedHashHex, 'hex');
  if (stored.length !== presented.length) {
    // Still spend a comparison so a malformed stored hash takes the same time.
    timingSafeEqual(presented, presented);
    return false;
  }
  return timingSafeEqual(presented, stored);
}

/**
 * A plan's limits as the `plans` table holds them: the gateway enforces
 * them, the operator CLI shows them. One row type for both readers.
 */
export interface PlanLimitsRow {
  rate_per_minute: number;
  rate_per_hour: number;
  rate_per_day: number;
  budget_products: number;
  budget_signals: number;
  budget_ingredients: number;
  watch_limit: number;
  capabilities: string[];
}
