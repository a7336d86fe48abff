import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { mintUnsubscribeToken, unsubscribeCoversWatch, unsubscribeUrl, verifyUnsubscribeToken } from '../src/unsubscribe';

const key = 'k'.repeat(32) + '-current';
const previous = 'p'.repeat(32) + '-previous';
const claims = { accountId: 'acc_abc123def456', productId: 'prd_abcdefghijkl', expiresAt: 2_000_000_000, issuedAtMs: 1_899_999_000_123 };
const now = 1_900_000_000;

describe('unsubscribe tokens', () => {
  const token = mintUnsubscribeToken(key, claims);

  it('verify with the key that signed them, and say for whom', () => {
    expect(verifyUnsubscribeToken([key], token, now)).toEqual({ ok: true, claims });
  });
  it('verify during a rotation with the previous key, and not after it is dropped', () => {
    const old = mintUnsubscribeToken(previous, claims);
    expect(verifyUnsubscribeToken([key, previous], old, now).ok).toBe(true);
    expect(verifyUnsubscribeToken([key], old, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });
  it('expire', () => {
    expect(verifyUnsubscribeToken([key], token, claims.expiresAt)).toEqual({ ok: true, claims });
    expect(verifyUnsubscribeToken([key], token, claims.expiresAt + 1)).toEqual({ ok: false, reason: 'expired', claims });
  });
  it('cannot be moved to another account, product or expiry', () => {
    const parts = token.split('.');
    const swap = (i: number, v: string) => parts.map((p, j) => (j === i ? v : p)).join('.');
    expect(verifyUnsubscribeToken([key], swap(1, 'acc_someoneelse1'), now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyUnsubscribeToken([key], swap(2, 'prd_zzzzzzzzzzzz'), now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyUnsubscribeToken([key], swap(3, '1899999999999'), now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyUnsubscribeToken([key], swap(4, '2100000000'), now)).toEqual({ ok: false, reason: 'bad_signature' });
  });
  it('name when they were issued; a token without an issue time cannot be made from one with it', () => {
    expect(token.split('.')).toHaveLength(6);
    expect(token.startsWith('u2.acc_abc123def456.prd_abcdefghijkl.1899999000123.2000000000.')).toBe(true);
    // Dropping the issue time (and the version to u1) leaves a MAC over other parts: refused.
    const [, account, product, , expires, sig] = token.split('.');
    expect(verifyUnsubscribeToken([key], ['u1', account, product, expires, sig].join('.'), now)).toEqual({ ok: false, reason: 'bad_signature' });
  });
  it('minted before issue 26 (u1, no issue time) still verify, with issuedAtMs null', () => {
    // Exactly as the email worker minted them then: HMAC over purpose, u1, account, product, expiry.
    const mac = createHmac('sha256', key).update(['er-unsubscribe-v1', 'u1', claims.accountId, claims.productId, String(claims.expiresAt)].join('\n')).digest('base64url');
    const old = ['u1', claims.accountId, claims.productId, String(claims.expiresAt), mac].join('.');
    expect(verifyUnsubscribeToken([key], old, now)).toEqual({ ok: true, claims: { ...claims, issuedAtMs: null } });
    expect(mintUnsubscribeToken(key, { ...claims, issuedAtMs: null })).toBe(old);
  });
  it('refuse any altered character, and anything malformed, without throwing', () => {
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'abcdefxyz019_-.A'), (i, c) => {
        fc.pre(token[i] !== c);
        const altered = token.slice(0, i) + c + token.slice(i + 1);
        expect(verifyUnsubscribeToken([key], altered, now).ok).toBe(false);
      }),
    );
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => void expect(verifyUnsubscribeToken([key], s, now).ok).toBe(false)));
    expect(verifyUnsubscribeToken([key], '', now)).toEqual({ ok: false, reason: 'malformed' });
  });
  it('have one spelling: the unused low bits of the last character cannot be flipped', () => {
    const last = token.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const i = alphabet.indexOf(last);
    // Same upper four bits, other lower two: decodes to the same bytes.
    for (const twin of [0, 1, 2, 3].map((low) => alphabet[(i & ~3) | low]!).filter((c) => c !== last)) {
      expect(verifyUnsubscribeToken([key], token.slice(0, -1) + twin, now).ok, twin).toBe(false);
    }
  });
  it('are never accepted under a key shorter than the minimum', () => {
    expect(() => mintUnsubscribeToken('short', claims)).toThrow();
    expect(verifyUnsubscribeToken(['short'], token, now).ok).toBe(false);
  });
  it('remove only a watch older than the email that carried them', () => {
    const at = (ms: number) => new Date(ms);
    expect(unsubscribeCoversWatch(claims, at(claims.issuedAtMs - 60_000), null)).toBe(true);
    expect(unsubscribeCoversWatch(claims, at(claims.issuedAtMs), null)).toBe(true);
    expect(unsubscribeCoversWatch(claims, at(claims.issuedAtMs + 1), null)).toBe(false);
    // u1: only a watch from before tokens carried an issue time; none at all without that instant.
    const cutover = at(claims.issuedAtMs);
    expect(unsubscribeCoversWatch({ issuedAtMs: null }, at(cutover.getTime() - 1), cutover)).toBe(true);
    expect(unsubscribeCoversWatch({ issuedAtMs: null }, at(cutover.getTime() + 1), cutover)).toBe(false);
    expect(unsubscribeCoversWatch({ issuedAtMs: null }, at(0), null)).toBe(false);
  });
  it('travel in a URL unchanged', () => {
    expect(unsubscribeUrl('https://api.example.test/', token)).toBe(`https://api.example.test/unsubscribe?token=${token}`);
  });
});
