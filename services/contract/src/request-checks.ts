import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
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
  // What every service of the Record sends, decided without splitting.
  if (value === 'application/json; charset=utf-8' || value === 'application/json') return true;
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

/**
 * Where `/mcp` may be called from (DNS-rebinding and cross-site protection,
 * docs/decisions/0602): the hosts the endpoint is published under
 * (MCP_ALLOWED_HOSTS, `host[:port]`), and the browser origins allowed besides
 * the endpoint's own (MCP_ALLOWED_ORIGINS, `scheme://host[:port]`). Lower-case.
 */
export interface McpSitePolicy {
  hosts: readonly string[];
  origins: readonly string[];
}

export type McpSiteRefusal = 'host_not_allowed' | 'origin_not_allowed';

/** What either edge says with its 403 (a JSON-RPC error, decision 0600). */
export const mcpSiteRefusalMessage: Readonly<Record<McpSiteRefusal, string>> = {
  host_not_allowed: 'Forbidden: this Host is not served.',
  origin_not_allowed: 'Forbidden: cross-origin requests are refused.',
};

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

/**
 * The one rule both edges apply to `/mcp` before anything else, the key
 * included (null: allowed).
 * - `Host` must be one of the allowed hosts: a rebinding page reaches the
 *   endpoint under its own name, which is on no list.
 * - A request without `Origin` (every server-side client) is not affected.
 * - An `Origin` is allowed when it is the request's own origin, the `Host`
 *   under `http` or `https` (a browser page served from this very address,
 *   whichever scheme the TLS terminator in front gives it), or one of the
 *   configured origins. Anything else, `Origin: null` included, is refused.
 * Comparing Origin with Host is safe only because Host is checked first: a
 * rebinding page controls both, but cannot make its Host an allowed one.
 */
export function mcpSiteRefusal(headers: IncomingHttpHeaders, policy: McpSitePolicy): McpSiteRefusal | null {
  const host = one(headers.host)?.trim().toLowerCase();
  if (!host || !policy.hosts.includes(host)) return 'host_not_allowed';
  if (headers.origin === undefined) return null;
  const origin = one(headers.origin)?.trim().toLowerCase().replace(/\/+$/, '');
  if (!origin) return 'origin_not_allowed';
  if (policy.origins.includes(origin)) return null;
  return isOriginOf(origin, host) ? null : 'origin_not_allowed';
}

/** `http://h` or `https://h` for the Host `h`, default ports compared as the URL standard writes them. */
function isOriginOf(origin: string, host: string): boolean {
  let url: URL;
  let own: URL;
  try {
    url = new URL(origin);
    own = new URL(`${url.protocol}//${host}`);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // An origin is scheme://host[:port] and nothing else.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || origin !== url.origin) return false;
  return url.host === own.host;
}

/** A comma-separated list; blanks dropped, entries lower-cased (hosts and origins compare case-insensitively). */
const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((raw) => [...new Set(raw.split(',').map((s) => s.trim().toLowerCase().replace(/\/+$/, '')).filter(Boolean))]);

const hostEntry = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;
const originEntry = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/**
 * Host headers accepted when MCP_ALLOWED_HOSTS is unset: the local gateway,
 * the MCP service itself, and the in-cluster service names the gateway may use.
 */
export const DEFAULT_MCP_ALLOWED_HOSTS = ['127.0.0.1:8080', 'localhost:8080', '[::1]:8080', '127.0.0.1:8105', 'localhost:8105', 'mcp:8105', 'evidence-record-mcp:8105'];

/** The rule's two settings, read alike by the gateway and the MCP service (one rule, one configuration). */
export const mcpSiteSettings = {
  /** Host headers accepted on /mcp (DNS-rebinding protection). */
  MCP_ALLOWED_HOSTS: list(DEFAULT_MCP_ALLOWED_HOSTS.join(',')).refine((hosts) => hosts.length > 0 && hosts.every((h) => hostEntry.test(h)), {
    message: 'a comma-separated list of host[:port] entries, at least one',
  }),
  /**
   * Browser origins accepted on /mcp besides the endpoint's own (an Origin equal to http(s):// + an allowed Host).
   * A request without an Origin header (every server-side client) is not affected.
   */
  MCP_ALLOWED_ORIGINS: list('').refine((origins) => origins.every((o) => originEntry.test(o)), {
    message: 'a comma-separated list of origins such as https://app.example.com (scheme://host[:port], no path)',
  }),
};
