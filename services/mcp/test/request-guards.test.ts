import { describe, expect, it } from 'vitest';
import { generateKey } from '@evidence-record/contract';
import { acceptsStreamableHttp, presentedKey, protocolVersionAccepted } from '../src/request-guards';

describe('presented key', () => {
  const { key, keyId } = generateKey('test');

  it('reads Authorization: Bearer and X-Service-Key, and copies the headers verbatim', () => {
    expect(presentedKey({ authorization: `Bearer ${key}` })).toEqual({ headers: { authorization: `Bearer ${key}` }, keyId });
    expect(presentedKey({ authorization: `bearer ${key}` })?.keyId).toBe(keyId);
    expect(presentedKey({ 'x-service-key': key })).toEqual({ headers: { 'x-service-key': key }, keyId });
    expect(presentedKey({ authorization: `Bearer ${key}`, 'x-service-key': key })).toEqual({ headers: { authorization: `Bearer ${key}`, 'x-service-key': key }, keyId });
  });

  it('presents no key when the two headers disagree, even if one of them is well formed (the gateway\'s rule)', () => {
    expect(presentedKey({ authorization: 'Bearer nonsense', 'x-service-key': key })).toBeNull();
    expect(presentedKey({ authorization: `Bearer ${key}`, 'x-service-key': generateKey('test').key })).toBeNull();
  });

  it('refuses a request with no well-formed key in either header', () => {
    expect(presentedKey({})).toBeNull();
    expect(presentedKey({ authorization: key })).toBeNull();
    expect(presentedKey({ authorization: 'Bearer sk_live_short_x' })).toBeNull();
    expect(presentedKey({ 'x-service-key': `Bearer ${key}` })).toBeNull();
    expect(presentedKey({ authorization: 'Basic dXNlcjpwYXNz' })).toBeNull();
  });
});

describe('protocol version header, content type and Accept', () => {
  it('accepts the four versions and a missing header, nothing else', () => {
    for (const v of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', undefined]) expect(protocolVersionAccepted(v)).toBe(true);
    for (const v of ['2026-07-28', '2024-10-07', '', 'latest']) expect(protocolVersionAccepted(v)).toBe(false);
  });

  it('wants both JSON and event streams acceptable', () => {
    expect(acceptsStreamableHttp('application/json, text/event-stream')).toBe(true);
    expect(acceptsStreamableHttp('text/event-stream;q=0.5, application/json')).toBe(true);
    expect(acceptsStreamableHttp('application/json')).toBe(false);
    expect(acceptsStreamableHttp('*/*')).toBe(false);
    expect(acceptsStreamableHttp(undefined)).toBe(false);
  });
});
