import { describe, expect, it } from 'vitest';
import { generateKey, hashSecret, parseKey, secretMatches } from '../src/index';

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
