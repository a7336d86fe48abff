import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mintUnsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from '../src/unsubscribe';

const key = 'k'.repeat(32) + '-current';
const previous = 'p'.repeat(32) + '-previous';
const claims = { accountId: 'acc_abc123def456', productId: 'prd_abcdefghijkl', expiresAt: 2_000_000_000 };
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
    expect(verifyUnsubscribeToken([key], swap(3, '2100000000'), now)).toEqual({ ok: false, reason: 'bad_signature' });
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
  it('travel in a URL unchanged', () => {
    expect(unsubscribeUrl('https://api.example.test/', token)).toBe(`https://api.example.test/unsubscribe?token=${token}`);
  });
});
