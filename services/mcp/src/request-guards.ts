import type { IncomingHttpHeaders } from 'node:http';
import { MCP_PROTOCOL_VERSIONS, parseKey, presentedKey as keyInHeaders } from '@evidence-record/contract';
import type { KeyHeaders } from './gateway-client';

/**
 * Checks on the HTTP request that carries JSON-RPC, made before any
 * message is read. Pure functions of the headers and the configuration.
 */

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface PresentedKey {
  /** The key headers exactly as received, to copy onto the REST call. */
  headers: KeyHeaders;
  /** Public key id, safe to log. */
  keyId: string;
}

/**
 * The caller's key, read by the contract's one rule (the gateway's): from
 * `Authorization: Bearer <key>` or `X-Service-Key`, and none when the two
 * disagree. The gateway has already authenticated the request; this is
 * defence in depth against a request that reaches the service carrying no
 * key at all. Returns null when no well-formed key is presented.
 */
export function presentedKey(headers: IncomingHttpHeaders): PresentedKey | null {
  const authorization = single(headers.authorization);
  const serviceKey = single(headers['x-service-key']);
  const parsed = parseKey(keyInHeaders(headers) ?? undefined);
  if (!parsed) return null;
  const copy: KeyHeaders = {};
  if (authorization !== undefined) copy.authorization = authorization;
  if (serviceKey !== undefined) copy['x-service-key'] = serviceKey;
  return { headers: copy, keyId: parsed.keyId };
}

/** No header means the client has not negotiated yet (or is on 2025-03-26 defaults): accepted. */
export function protocolVersionAccepted(header: string | undefined): boolean {
  return header === undefined || (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(header.trim());
}

/** Streamable HTTP: a client must accept both JSON and an event stream (we only ever answer JSON). */
export function acceptsStreamableHttp(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/json') && types.includes('text/event-stream');
}

export { single as singleHeader };
