import { createHmac, timingSafeEqual } from 'node:crypto';
import { productIdPattern } from './ids';

/**
 * One-click unsubscribe tokens (docs/decisions/0510-alert-unsubscribe.md).
 *
 * A token says "account A may stop alerts about product P until T" and
 * nothing else: the email worker mints one per alert email, the gateway
 * verifies it without an API key and asks the watch service to remove that
 * one watch. Shape: `u1.<account_id>.<product_id>.<expires unix seconds>.<mac>`
 * where mac = base64url(HMAC-SHA256(key, "er-unsubscribe-v1\n" + the first four
 * parts joined by "\n")). The purpose string binds the MAC to this use, so no
 * other HMAC the system makes with the same key can stand in for a token.
 * Account and product ids contain no dot, so the parts split unambiguously.
 */

/** Account ids as the operator CLI makes them (`acc_` + base 36); never a dot, which separates a token's parts. */
const accountIdPattern = /^acc_[0-9a-z_]{1,60}$/;

export const UNSUBSCRIBE_PATH = '/unsubscribe';
/** The RFC 8058 body a mail provider POSTs (and the value of List-Unsubscribe-Post). */
export const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';
/** How long a link in an alert email works (decision 0510: a person may act on a weeks-old email). */
export const UNSUBSCRIBE_TOKEN_TTL_DAYS = 90;

const VERSION = 'u1';
const PURPOSE = 'er-unsubscribe-v1';
/** Keys shorter than this are refused: a guessable key would let anyone unwatch anyone. */
export const MIN_UNSUBSCRIBE_KEY_LENGTH = 32;

export interface UnsubscribeClaims {
  accountId: string;
  productId: string;
  /** Unix seconds after which the token is refused. */
  expiresAt: number;
}

export type UnsubscribeVerdict =
  | { ok: true; claims: UnsubscribeClaims }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired'; claims?: UnsubscribeClaims };

function mac(key: string, accountId: string, productId: string, expiresAt: number): Buffer {
  return createHmac('sha256', key).update([PURPOSE, VERSION, accountId, productId, String(expiresAt)].join('\n')).digest();
}

export function mintUnsubscribeToken(key: string, claims: UnsubscribeClaims): string {
  if (key.length < MIN_UNSUBSCRIBE_KEY_LENGTH) throw new Error(`unsubscribe signing key must be at least ${MIN_UNSUBSCRIBE_KEY_LENGTH} characters`);
  if (!accountIdPattern.test(claims.accountId) || !productIdPattern.test(claims.productId) || !Number.isSafeInteger(claims.expiresAt)) {
    throw new Error('unsubscribe token claims are malformed');
  }
  const sig = mac(key, claims.accountId, claims.productId, claims.expiresAt).toString('base64url');
  return [VERSION, claims.accountId, claims.productId, String(claims.expiresAt), sig].join('.');
}

/**
 * Checks a token against every key still accepted (the current one first,
 * then the previous one during a rotation). Every comparison is constant
 * time, and every key is tried even after a match, so the time taken says
 * nothing about which key (if any) signed it. A token with a valid MAC but
 * past its expiry is `expired` (its claims are returned so the page can say
 * what it was for); anything else that fails is `malformed` or `bad_signature`.
 */
export function verifyUnsubscribeToken(keys: readonly string[], token: string, nowSeconds: number): UnsubscribeVerdict {
  if (token.length > 200) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
  const [, accountId, productId, exp, sig] = parts as [string, string, string, string, string];
  if (!accountIdPattern.test(accountId) || !productIdPattern.test(productId) || !/^[1-9][0-9]{0,11}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) {
    return { ok: false, reason: 'malformed' };
  }
  const expiresAt = Number(exp);
  const presented = Buffer.from(sig, 'base64url');
  // The 43rd character carries 2 unused bits, which decoding ignores: only the canonical spelling is the token,
  // or four different links would verify as one (a tampered link must never pass).
  if (presented.length !== 32 || presented.toString('base64url') !== sig) return { ok: false, reason: 'malformed' };
  let valid = false;
  for (const key of keys) {
    if (key.length < MIN_UNSUBSCRIBE_KEY_LENGTH) continue;
    if (timingSafeEqual(mac(key, accountId, productId, expiresAt), presented)) valid = true;
  }
  if (!valid) return { ok: false, reason: 'bad_signature' };
  const claims = { accountId, productId, expiresAt };
  if (nowSeconds > expiresAt) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}

/** The page and the one-click endpoint of a token: `<base>/unsubscribe?token=…`. */
export function unsubscribeUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}
