import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_BODY_BYTES, errorCatalogue, isJsonContentType, isServiceOrigin, mcpSiteRefusal, mcpSiteSettings, presentedKey, serviceOriginProblem } from '../src';

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

describe('where /mcp may be called from (decision 0602)', () => {
  const site = { hosts: ['127.0.0.1:8080', 'localhost:8080', 'api.example.com'], origins: [] as string[] };
  const check = (host: string | undefined, origin?: string, policy = site) => mcpSiteRefusal({ host, ...(origin === undefined ? {} : { origin }) }, policy);

  it('accepts only the listed hosts, case-insensitively, with or without an Origin', () => {
    expect(check('127.0.0.1:8080')).toBeNull();
    expect(check('LOCALHOST:8080')).toBeNull();
    expect(check('api.example.com')).toBeNull();
    for (const host of ['evil.example.com', '127.0.0.1:8081', 'api.example.com.evil.net', undefined]) expect(check(host), host).toBe('host_not_allowed');
  });

  it('accepts the request\'s own origin for every allowed host: localhost as well as 127.0.0.1, http or https', () => {
    expect(check('localhost:8080', 'http://localhost:8080')).toBeNull();
    expect(check('127.0.0.1:8080', 'http://127.0.0.1:8080')).toBeNull();
    expect(check('localhost:8080', 'https://localhost:8080')).toBeNull();
    expect(check('api.example.com', 'https://api.example.com')).toBeNull();
    expect(check('api.example.com', 'https://API.example.com/')).toBeNull();
    // Default ports as the URL standard writes them: Host with :443, Origin without.
    expect(check('api.example.com:443', 'https://api.example.com', { ...site, hosts: ['api.example.com:443'] })).toBeNull();
  });

  it('refuses any other Origin, even another allowed host, and an Origin that is not one', () => {
    expect(check('127.0.0.1:8080', 'http://localhost:8080')).toBe('origin_not_allowed');
    expect(check('localhost:8080', 'http://localhost:8081')).toBe('origin_not_allowed');
    expect(check('localhost:8080', 'http://evil.example.com')).toBe('origin_not_allowed');
    for (const origin of ['null', '', 'ftp://localhost:8080', 'http://localhost:8080/path', 'http://user@localhost:8080', 'http://localhost:8080?x']) {
      expect(check('localhost:8080', origin), origin).toBe('origin_not_allowed');
    }
    // Two Origin headers are not one origin.
    expect(mcpSiteRefusal({ host: 'localhost:8080', origin: ['http://localhost:8080', 'http://localhost:8080'] as unknown as string }, site)).toBe('origin_not_allowed');
  });

  it('accepts a configured origin besides the own one', () => {
    const policy = { ...site, origins: ['https://app.example.com'] };
    expect(check('api.example.com', 'https://app.example.com', policy)).toBeNull();
    expect(check('api.example.com', 'https://api.example.com', policy)).toBeNull();
    expect(check('api.example.com', 'https://other.example.com', policy)).toBe('origin_not_allowed');
  });

  it('refuses a rebinding page, whose Origin matches its Host, on the Host', () => {
    expect(check('rebind.attacker.test:8080', 'http://rebind.attacker.test:8080')).toBe('host_not_allowed');
  });

  it('reads its settings alike for both edges: lists, lower-cased, validated', () => {
    const settings = z.object(mcpSiteSettings);
    expect(settings.parse({ MCP_ALLOWED_HOSTS: 'A.example:443, b.example', MCP_ALLOWED_ORIGINS: 'https://App.example/' })).toEqual({ MCP_ALLOWED_HOSTS: ['a.example:443', 'b.example'], MCP_ALLOWED_ORIGINS: ['https://app.example'] });
    expect(settings.parse({}).MCP_ALLOWED_HOSTS).toContain('localhost:8080');
    expect(settings.safeParse({ MCP_ALLOWED_HOSTS: 'https://example.com/mcp' }).success).toBe(false);
    expect(settings.safeParse({ MCP_ALLOWED_ORIGINS: 'example.com' }).success).toBe(false);
  });
});
