import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { CACHE_CONTROL, buildRefusal, newRequestId } from '@evidence-record/contract';

/**
 * No way around the gateway (docs/decisions/0313-internal-request-signing.md).
 *
 * The gateway is the only component that authenticates keys; the services
 * trust the identity it forwards in `x-er-*` headers. So that only the
 * gateway can forward one, it signs every request it sends a service: an
 * HMAC-SHA256, with a key from a Secret, over the method, the path and query,
 * every `x-er-*` header and a timestamp. A service verifies before anything
 * else and answers 401 otherwise; only the probe and scrape endpoints stay
 * open. A signature is accepted for SIGNATURE_WINDOW_MS either side of its
 * timestamp: a captured one cannot be replayed later.
 *
 * Two keys at once, for rotation: INTERNAL_SIGNING_KEYS is a comma-separated
 * list of one or two keys; the first signs, every one listed verifies.
 */
export const SIGNATURE_HEADER = 'x-er-signature';
export const TIMESTAMP_HEADER = 'x-er-timestamp';
/** Accepted clock difference between a signature's timestamp and the verifier's clock, either way. */
export const SIGNATURE_WINDOW_MS = 30_000;
const VERSION = 'v1';

/** INTERNAL_SIGNING_KEYS: one or two keys of at least 32 characters, comma-separated; the first signs. */
export const signingKeysEnv = z
  .string()
  .transform((s) => s.split(',').map((k) => k.trim()).filter(Boolean))
  .pipe(z.array(z.string().min(32, 'each signing key needs at least 32 characters').regex(/^[\x21-\x7e]+$/, 'printable ASCII, no spaces')).min(1).max(2, 'at most two keys (the signing one and the one being rotated)'));

/** Paths every caller in the cluster may reach: liveness, readiness and metrics for kubelet and Prometheus. */
export function isOperationalPath(path: string): boolean {
  return path === '/healthz' || path === '/metrics' || path === '/readyz' || path.startsWith('/readyz/');
}

function canonical(method: string, pathAndQuery: string, timestamp: string, headers: Record<string, string | string[] | undefined>): string {
  const signed = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .filter((n) => n.startsWith('x-er-') && n !== SIGNATURE_HEADER && n !== TIMESTAMP_HEADER)
    .sort();
  const lines = [VERSION, method.toUpperCase(), pathAndQuery, timestamp];
  for (const name of signed) {
    const v = headers[name];
    lines.push(`${name}:${Array.isArray(v) ? v.join(',') : (v ?? '')}`);
  }
  return lines.join('\n');
}

function mac(key: string, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

/**
 * The headers that vouch for a request: added to `headers` (which must
 * already hold every x-er-* header the request carries).
 */
export function signRequest(key: string, method: string, pathAndQuery: string, headers: Record<string, string>, now = Date.now()): void {
  const timestamp = String(now);
  headers[TIMESTAMP_HEADER] = timestamp;
  headers[SIGNATURE_HEADER] = `${VERSION}=${mac(key, canonical(method, pathAndQuery, timestamp, headers)).toString('hex')}`;
}

export type Verification = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

/** Checks a request's signature against every accepted key, in constant time per key. */
export function verifyRequest(keys: readonly string[], method: string, pathAndQuery: string, headers: IncomingHttpHeaders, now = Date.now()): Verification {
  const signature = headers[SIGNATURE_HEADER];
  const timestamp = headers[TIMESTAMP_HEADER];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return { ok: false, reason: 'missing' };
  const m = /^v1=([0-9a-f]{64})$/.exec(signature);
  if (!m || !/^\d{1,15}$/.test(timestamp)) return { ok: false, reason: 'malformed' };
  const presented = Buffer.from(m[1]!, 'hex');
  const text = canonical(method, pathAndQuery, timestamp, headers);
  let matched = false;
  // Every key is tried (no early exit), so the time taken says nothing about which one matched.
  for (const key of keys) if (timingSafeEqual(presented, mac(key, text))) matched = true;
  if (!matched) return { ok: false, reason: 'mismatch' };
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_WINDOW_MS) return { ok: false, reason: 'expired' };
  return { ok: true };
}

export interface InternalAuth {
  /** Accepted keys; the first is the one a caller signs with. */
  keys: readonly string[];
  /** Wall clock for the replay window (tests move it). */
  clock?: () => number;
}

/**
 * Express middleware, mounted first: a request that is not for an
 * operational path and does not carry a valid gateway signature is answered
 * 401 `invalid_credentials` before any route, body parser or handler sees it.
 */
export function requireGatewaySignature(auth: InternalAuth, onRefused?: (reason: string) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = req.originalUrl || req.url;
    const path = url.split('?', 1)[0]!;
    if (isOperationalPath(path)) return next();
    const v = verifyRequest(auth.keys, req.method, url, req.headers, auth.clock?.() ?? Date.now());
    if (v.ok) return next();
    onRefused?.(v.reason);
    // Nothing of the request is read; the connection is closed so an unread body cannot linger.
    const { status, body } = buildRefusal({
      request_id: newRequestId(),
      capability: 'unknown',
      code: 'invalid_credentials',
      message: 'This service answers only requests forwarded by the gateway. Call the public API instead.',
      record_version: 'rv_unknown',
    });
    res.status(status).set('Cache-Control', CACHE_CONTROL).set('Connection', 'close').json(body);
  };
}
