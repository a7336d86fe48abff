import { describe, expect, it } from 'vitest';
import { generateKey } from '@evidence-record/contract';
import { acceptsStreamableHttp, allowedOrigins, hostAllowed, originAllowed, presentedKey, protocolVersionAccepted } from '../src/request-guards';

const hosts = ['127.0.0.1:8080', 'localhost:8080', 'api.example.com'];

describe('host allow-list', () => {
  it('accepts listed hosts only, case-insensitively', () => {
    expect(hostAllowed('127.0.0.1:8080', hosts)).toBe(true);
    expect(hostAllowed('LOCALHOST:8080', hosts)).toBe(true);
    expect(hostAllowed('api.example.com', hosts)).toBe(true);
    expect(hostAllowed('evil.example.com', hosts)).toBe(false);
    expect(hostAllowed('127.0.0.1:8081', hosts)).toBe(false);
    expect(hostAllowed('api.example.com.evil.net', hosts)).toBe(false);
    expect(hostAllowed(undefined, hosts)).toBe(false);
  });
});

describe('origin allow-list', () => {
  it('without configured origins, accepts only the http(s) origins of the allowed hosts', () => {
    const allowed = allowedOrigins([], hosts);
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed('http://127.0.0.1:8080', allowed)).toBe(true);
    expect(originAllowed('https://api.example.com', allowed)).toBe(true);
    expect(originAllowed('https://api.example.com/', allowed)).toBe(true);
    expect(originAllowed('http://evil.example.com', allowed)).toBe(false);
    expect(originAllowed('null', allowed)).toBe(false);
    expect(originAllowed('http://127.0.0.1:8081', allowed)).toBe(false);
  });

  it('with configured origins, accepts exactly those', () => {
    const allowed = allowedOrigins(['https://app.example.com'], hosts);
    expect(originAllowed('https://app.example.com', allowed)).toBe(true);
    expect(originAllowed('http://127.0.0.1:8080', allowed)).toBe(false);
  });

  it('does not accept an Origin just because it matches the request Host', () => {
    // A rebinding page's Origin and Host agree with each other; neither is on a list.
    expect(originAllowed('http://rebind.attacker.test:8080', allowedOrigins([], hosts))).toBe(false);
    expect(hostAllowed('rebind.attacker.test:8080', hosts)).toBe(false);
  });
});

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
