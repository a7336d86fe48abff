import { describe, expect, it } from 'vitest';
import { generateKey, hashSecret, newRequestId, parseKey, randomHex, requestIdPattern, secretMatches } from '../src/index';

describe('API keys', () => {
  it('generates keys of the documented shape whose secret hash matches', () => {
    const { key, keyId, secretHash } = generateKey('live');
    expect(key).toMatch(/^sk_live_[0-9a-z]{16}_[0-9A-Za-z]{32}$/);
    const parsed = parseKey(key)!;
    expect(parsed.keyId).toBe(keyId);
    expect(parsed.environment).toBe('live');
    expect(secretMatches(parsed.secret, secretHash)).toBe(true);
    expect(secretHash).toBe(hashSecret(parsed.secret));
  });

  it('never matches another secret or a malformed stored hash', () => {
    const a = generateKey('test');
    const b = generateKey('test');
    expect(secretMatches(parseKey(b.key)!.secret, a.secretHash)).toBe(false);
    expect(secretMatches(parseKey(a.key)!.secret, 'abc')).toBe(false);
  });

  it('rejects malformed keys', () => {
    for (const bad of ['', 'Bearer x', 'sk_prod_0123456789abcdef_' + 'a'.repeat(32), 'sk_live_0123456789abcde_' + 'a'.repeat(32), 'sk_live_0123456789abcdef_' + 'a'.repeat(31), 'sk_live_0123456789abcdef_' + 'a'.repeat(32) + '_', 'x'.repeat(500)]) {
      expect(parseKey(bad)).toBeNull();
    }
  });

  it('keys are distinct', () => {
    const ids = new Set(Array.from({ length: 200 }, () => generateKey('live').keyId));
    expect(ids.size).toBe(200);
  });
});

describe('randomHex (request, trace and span ids)', () => {
  it('hands out distinct, well-formed ids across refills of its entropy buffer', () => {
    const seen = new Set<string>();
    // 4 KiB / 12 bytes ≈ 341 ids per refill: 2,000 ids cross several refills.
    for (let i = 0; i < 2000; i++) {
      const id = newRequestId();
      expect(id).toMatch(requestIdPattern);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(5000)).toMatch(/^[0-9a-f]{10000}$/);
  });
});
