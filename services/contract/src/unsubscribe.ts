import { createHmac, timingSafeEqual } from 'node:crypto';
import { productIdPattern } from './ids';

/**
 * One-click unsubscribe tokens (docs/decisions/0510-alert-unsubscribe.md,
 * 1901-unsubscribe-link-issue-time.md).
 *
 * A token says "account A may stop alerts about product P, as watched when
 * this email was sent at I, until T" and nothing else: the email worker mints
 * one per alert email, the gateway verifies it without an API key and asks the
 * watch service to remove that one watch, which it does only if the watch was
 * added before I. Shape:
 * `u2.<account_id>.<product_id>.<issued unix ms>.<expires unix seconds>.<mac>`
 * where mac = base64url(HMAC-SHA256(key, "er-unsubscribe-v1\n" + the parts
 * before the mac joined by "\n")). The purpose string binds the MAC to this
 * use, so no other HMAC the system makes with the same key can stand in for a
 * token; the version is inside the MAC. Account and product ids contain no
 * dot, so the parts split unambiguously. Tokens minted before issue 26
 * (`u1.<account>.<product>.<expires>.<mac>`, no issue time) still verify,
 * with `issuedAtMs: null`; decision 1901 says what they may remove.
 */

/** Account ids as the operator CLI makes them (`acc_` + base 36); never a dot, which separates a token's parts. */
const accountIdPattern = /^acc_[0-9a-z_]{1,60}$/;

export const UNSUBSCRIBE_PATH = '/unsubscribe';
/** The RFC 8058 body a mail provider POSTs (and the value of List-Unsubscribe-Post). */
export const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';
/** How long a link in an alert email works (decision 0510: a person may act on a weeks-old email). */
export const UNSUBSCRIBE_TOKEN_TTL_DAYS = 90;

const LEGACY_VERSION = 'u1';
const VERSION = 'u2';
const PURPOSE = 'er-unsubscribe-v1';
/** Keys shorter than this are refused: a guessable key would let anyone unwatch anyone. */
export const MIN_UNSUBSCRIBE_KEY_LENGTH = 32;

export interface UnsubscribeClaims {
  accountId: string;
  productId: string;
  /** Unix seconds after which the token is refused. */
  expiresAt: number;
  /**
   * When the email was sent (unix ms, the database's clock at the alert's claim): a watch added after this is
   * not the one the email was about. Null only for a token minted before tokens carried it (version u1).
   */
  issuedAtMs: number | null;
}

/** The milestone the migration records when tokens began to carry their issue time (decision 1901). */
export const UNSUBSCRIBE_ISSUE_TIME_MILESTONE = 'unsubscribe_tokens_carry_issue_time';

/**
 * Whether a verified token may remove a watch that exists since `watchedSince`:
 * only if the watch is older than the email that carried the link (at
 * millisecond precision, a watch of the same millisecond counting as older).
 * A token without an issue time (u1, minted before the cut-over) stands for
 * an email sent before `issueTimesSince`, when tokens began to carry one; a
 * watch added after that instant may be a re-added one, so it is refused.
 * With no cut-over recorded, no such token removes anything.
 */
export function unsubscribeCoversWatch(claims: Pick<UnsubscribeClaims, 'issuedAtMs'>, watchedSince: Date, issueTimesSince: Date | null): boolean {
  const issued = claims.issuedAtMs ?? issueTimesSince?.getTime() ?? Number.NEGATIVE_INFINITY;
  return watchedSince.getTime() <= issued;
}

export type UnsubscribeVerdict =
  | { ok: true; claims: UnsubscribeClaims }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired'; claims?: UnsubscribeClaims };

/** The signed parts of a token, in order: version, account, product, [issued ms,] expires. */
function mac(key: string, parts: readonly string[]): Buffer {
  return createHmac('sha256', key).update([PURPOSE, ...parts].join('\n')).digest();
}

function signedParts(c: UnsubscribeClaims): string[] {
  return c.issuedAtMs === null
    ? [LEGACY_VERSION, c.accountId, c.productId, String(c.expiresAt)]
    : [VERSION, c.accountId, c.productId, String(c.issuedAtMs), String(c.expiresAt)];
}

/** A token naming when it was issued. (Only tests mint one without: `issuedAtMs: null` gives a pre-issue-26 u1 token.) */
export function mintUnsubscribeToken(key: string, claims: UnsubscribeClaims): string {
  if (key.length < MIN_UNSUBSCRIBE_KEY_LENGTH) throw new Error(`unsubscribe signing key must be at least ${MIN_UNSUBSCRIBE_KEY_LENGTH} characters`);
  if (
    !accountIdPattern.test(claims.accountId) ||
    !productIdPattern.test(claims.productId) ||
    !Number.isSafeInteger(claims.expiresAt) ||
    (claims.issuedAtMs !== null && (!Number.isSafeInteger(claims.issuedAtMs) || claims.issuedAtMs <= 0))
  ) {
    throw new Error('unsubscribe token claims are malformed');
  }
  const parts = signedParts(claims);
  return [...parts, mac(key, parts).toString('base64url')].join('.');
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
  const legacy = parts.length === 5 && parts[0] === LEGACY_VERSION;
  if (!legacy && !(parts.length === 6 && parts[0] === VERSION)) return { ok: false, reason: 'malformed' };
  const [, accountId, productId] = parts as [string, string, string];
  const issued = legacy ? null : parts[3]!;
  const exp = parts.at(-2)!;
  const sig = parts.at(-1)!;
  if (
    !accountIdPattern.test(accountId) ||
    !productIdPattern.test(productId) ||
    !/^[1-9][0-9]{0,11}$/.test(exp) ||
    (issued !== null && !/^[1-9][0-9]{0,14}$/.test(issued)) ||
    !/^[A-Za-z0-9_-]{43}$/.test(sig)
  ) {
    return { ok: false, reason: 'malformed' };
  }
  const claims: UnsubscribeClaims = { accountId, productId, expiresAt: Number(exp), issuedAtMs: issued === null ? null : Number(issued) };
  const presented = Buffer.from(sig, 'base64url');
  // The 43rd character carries 2 unused bits, which decoding ignores: only the canonical spelling is the token,
  // or four different links would verify as one (a tampered link must never pass).
  if (presented.length !== 32 || presented.toString('base64url') !== sig) return { ok: false, reason: 'malformed' };
  let valid = false;
  for (const key of keys) {
    if (key.length < MIN_UNSUBSCRIBE_KEY_LENGTH) continue;
    if (timingSafeEqual(mac(key, parts.slice(0, -1)), presented)) valid = true;
  }
  if (!valid) return { ok: false, reason: 'bad_signature' };
  if (nowSeconds > claims.expiresAt) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}

/** The page and the one-click endpoint of a token: `<base>/unsubscribe?token=…`. */
export function unsubscribeUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}
