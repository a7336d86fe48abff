import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, errorCatalogue, isJsonContentType, isServiceOrigin, presentedKey, serviceOriginProblem } from '../src';

/**
 * The request checks the gateway and the MCP service share: one rule each,
 * the stricter of the two the edges used to have
 * (docs/decisions/0030-one-rule-per-request-check.md).
 */
describe('presented keys', () => {
  it('reads Authorization: Bearer and X-Service-Key identically, never anything else', () => {
    expect(presentedKey({ authorization: 'Bearer sk_x' })).toBe('sk_x');
    expect(presentedKey({ authorization: 'bearer sk_x' })).toBe('sk_x');
    expect(presentedKey({ 'x-service-key': 'sk_x' })).toBe('sk_x');
    expect(presentedKey({ authorization: 'Bearer sk_x', 'x-service-key': 'sk_x' })).toBe('sk_x');
    expect(presentedKey({ authorization: 'Basic c2s6eA==' })).toBeNull();
    expect(presentedKey({ authorization: 'Bearer a b' })).toBeNull();
    expect(presentedKey({})).toBeNull();
  });

  it('two headers that disagree present no key; an Authorization that is not a Bearer token does not fall back to X-Service-Key', () => {
    expect(presentedKey({ authorization: 'Bearer sk_x', 'x-service-key': 'sk_y' })).toBeNull();
    expect(presentedKey({ authorization: 'Basic c2s6eA==', 'x-service-key': 'sk_x' })).toBeNull();
  });
});

describe('JSON bodies', () => {
  it('are application/json, with no parameter but charset=utf-8', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/json; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('Application/JSON;charset="utf-8"')).toBe(true);
    expect(isJsonContentType('application/json; charset=latin1')).toBe(false);
    expect(isJsonContentType('application/json; boundary=x')).toBe(false);
    expect(isJsonContentType('application/jsonp')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });

  it('are at most 8192 bytes, and the refusal says so', () => {
    expect(MAX_BODY_BYTES).toBe(8192);
    expect(errorCatalogue.payload_too_large.message).toBe('The request body exceeds 8192 bytes.');
  });
});

describe('X-Service-Origin', () => {
  it('is api or mcp, nothing else', () => {
    expect(isServiceOrigin('api')).toBe(true);
    expect(isServiceOrigin('mcp')).toBe(true);
    for (const v of ['browser', 'API', '', undefined, ['mcp']]) expect(isServiceOrigin(v)).toBe(false);
    expect(serviceOriginProblem).toBe('must be one of api, mcp');
  });
});
