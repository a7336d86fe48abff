import type { IncomingHttpHeaders } from 'node:http';

/** The protection space named in every `WWW-Authenticate` challenge (RFC 6750 §3). */
export const AUTH_REALM = 'evidence-record';

/**
 * The challenge on every 401 (docs/decisions/0604). A request that presented
 * a key (either header) which is not a valid one gets `error="invalid_token"`;
 * a request that presented none gets the bare challenge, as RFC 6750 §3.1
 * says ("SHOULD NOT include an error code" when authentication is missing).
 * It says no more than the caller knows: whether it sent a key, never why
 * the key failed (malformed, unknown, revoked, expired and mismatched keys
 * get the same challenge and the same body).
 */
export function wwwAuthenticate(headers: IncomingHttpHeaders): string {
  const presented = [headers.authorization, headers['x-service-key']].some((v) => (Array.isArray(v) ? v.join('') : (v ?? '')).trim() !== '');
  return presented ? `Bearer realm="${AUTH_REALM}", error="invalid_token"` : `Bearer realm="${AUTH_REALM}"`;
}
