import type { IncomingHttpHeaders } from 'node:http';
import { serviceOrigins } from './decisions';

/**
 * The checks every edge makes on an incoming request, written once and used
 * by the gateway and the MCP service alike. Where the two edges used to
 * differ, the stricter rule won (docs/decisions/0030-one-rule-per-request-check.md).
 */

/** The largest request body any edge accepts, in bytes (spec: 413 payload_too_large above it). */
export const MAX_BODY_BYTES = 8192;

/**
 * The key a request presents, from `Authorization: Bearer <key>` or
 * `X-Service-Key` (read identically, never from anything else). A request
 * presenting two different keys presents none, and so does an Authorization
 * header that is not one Bearer token: the caller is never guessed.
 */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  let fromBearer: string | null = null;
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization.length > 0) {
    const m = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!m) return null;
    fromBearer = m[1]!;
  }
  const serviceKey = headers['x-service-key'];
  const fromHeader = typeof serviceKey === 'string' && serviceKey.length > 0 ? serviceKey.trim() : null;
  if (fromBearer && fromHeader && fromBearer !== fromHeader) return null;
  return fromBearer ?? fromHeader;
}

/** `application/json`, optionally with `charset=utf-8`; nothing else is a JSON body (JSON is UTF-8: RFC 8259 §8.1). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const [type, ...params] = value.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

export type ServiceOrigin = (typeof serviceOrigins)[number];

/** A self-reported attribution (`X-Service-Origin`) this Record knows. */
export function isServiceOrigin(value: unknown): value is ServiceOrigin {
  return typeof value === 'string' && (serviceOrigins as readonly string[]).includes(value);
}

/** What a refusal of an unknown `X-Service-Origin` says about it. */
export const serviceOriginProblem = `must be one of ${serviceOrigins.join(', ')}`;
