import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { CACHE_CONTROL, buildRefusal, newRequestId } from '@evidence-record/contract';

/**
 * No way around the gateway (docs/decisions/0313-internal-request-signing.md).
 *
 * The gateway is the only component that authenticates keys; the services
 * trust the identity it forwards in `x-er-*` headers. So that only the
 * gateway can forward one, it signs every request it sends a service: an
 * HMAC-SHA256 over the target service's name, the method, the path and
 * query, a timestamp, a nonce, the content type, the body's SHA-256 and
 * every `x-er-*` header. A service verifies before anything else and answers
 * 401 otherwise; only the probe and scrape endpoints stay open.
 *
 * Keys are per service: the gateway holds one for each service it calls, a
 * service only its own. A service can therefore verify what the gateway sent
 * it but sign nothing another service would accept (the MCP service, which
 * parses untrusted JSON-RPC, cannot speak as the gateway to the watch
 * service). A signature is accepted for SIGNATURE_WINDOW_MS either side of
 * its timestamp and once: a service remembers the nonces it has accepted
 * for the window and refuses a replay.
 *
 * Two keys at once, for rotation: `<SERVICE>_SIGNING_KEYS` is a
 * comma-separated list of one or two keys; the first signs, every one listed
 * verifies.
 */
export const SIGNATURE_HEADER = 'x-er-signature';
export const TIMESTAMP_HEADER = 'x-er-timestamp';
export const NONCE_HEADER = 'x-er-nonce';
export const BODY_DIGEST_HEADER = 'x-er-content-sha256';
/**
 * Accepted clock difference between a signature's timestamp and the verifier's clock, either way. The gateway signs
 * as it sends and a service verifies as the headers arrive, so this only has to cover clock skew between nodes.
 */
export const SIGNATURE_WINDOW_MS = 10_000;
const VERSION = 'v2';
const EMPTY_DIGEST = createHash('sha256').digest('hex');

/** `<SERVICE>_SIGNING_KEYS`: one or two keys of at least 32 characters, comma-separated; the first signs. */
export const signingKeysEnv = z
  .string()
  .transform((s) => s.split(',').map((k) => k.trim()).filter(Boolean))
  .pipe(z.array(z.string().min(32, 'each signing key needs at least 32 characters').regex(/^[\x21-\x7e]+$/, 'printable ASCII, no spaces')).min(1).max(2, 'at most two keys (the signing one and the one being rotated)'));

/** Paths every caller in the cluster may reach: liveness, readiness and metrics for kubelet and Prometheus. */
export function isOperationalPath(path: string): boolean {
  return path === '/healthz' || path === '/metrics' || path === '/readyz' || path.startsWith('/readyz/');
}

function single(v: string | string[] | undefined): string {
  return Array.isArray(v) ? v.join(',') : (v ?? '');
}

function canonical(service: string, method: string, pathAndQuery: string, headers: Record<string, string | string[] | undefined>): string {
  const signed = Object.keys(headers)
    .map((n) => n.toLowerCase())
    .filter((n) => n.startsWith('x-er-') && n !== SIGNATURE_HEADER)
    .sort();
  const lines = [VERSION, service, method.toUpperCase(), pathAndQuery, `content-type:${single(headers['content-type'])}`];
  // The timestamp, nonce and body digest are x-er-* headers like the identity: all in one sorted list.
  for (const name of signed) lines.push(`${name}:${single(headers[name])}`);
  return lines.join('\n');
}

function mac(key: string, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

/** The hex SHA-256 of a body; the empty body's is computed once. */
export function bodyDigest(body: Uint8Array): string {
  return body.length === 0 ? EMPTY_DIGEST : createHash('sha256').update(body).digest('hex');
}

export interface OutgoingRequest {
  /** The service it is for (the registry's name): a signature for one service is worth nothing to another. */
  service: string;
  method: string;
  pathAndQuery: string;
  /** The exact bytes sent (empty for none). */
  body: Uint8Array;
}

/**
 * Adds the headers that vouch for a request to `headers`, which must already
 * hold every x-er-* header and the Content-Type the request carries:
 * timestamp, nonce, body digest and signature.
 */
export function signRequest(key: string, req: OutgoingRequest, headers: Record<string, string>, now = Date.now()): void {
  headers[TIMESTAMP_HEADER] = String(now);
  headers[NONCE_HEADER] = randomUUID();
  headers[BODY_DIGEST_HEADER] = bodyDigest(req.body);
  headers[SIGNATURE_HEADER] = `${VERSION}=${mac(key, canonical(req.service, req.method, req.pathAndQuery, headers)).toString('hex')}`;
}

export type Verification = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' | 'replayed' };

/**
 * The nonces a service accepted within the window: a second request with one is a replay. Per process: a replay to
 * another replica of the same service inside the window is not caught here (the window bounds it; decision 0313).
 */
export class NonceCache {
  private readonly seen = new Map<string, number>();
  constructor(private readonly maxEntries = 1_000_000) {}

  /** Records `nonce` until `expiresAt`; false if it was already there. */
  admit(nonce: string, expiresAt: number, now: number): boolean {
    // Entries go in roughly in expiry order: drop the expired ones at the head.
    for (const [n, until] of this.seen) {
      if (until > now && this.seen.size < this.maxEntries) break;
      this.seen.delete(n);
    }
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, expiresAt);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}

export interface Verifier {
  /** This service's name, as the gateway signs it. */
  service: string;
  /** Accepted keys; the first is the one the gateway signs with. */
  keys: readonly string[];
  nonces: NonceCache;
}

/**
 * Checks a request's headers against every accepted key, in constant time per key, then its timestamp, then (only
 * for a genuine signature, so forgeries cannot fill it) its nonce. The body is checked where it is read (signedBody).
 */
export function verifyRequest(v: Verifier, method: string, pathAndQuery: string, headers: IncomingHttpHeaders, now = Date.now()): Verification {
  const signature = headers[SIGNATURE_HEADER];
  const timestamp = headers[TIMESTAMP_HEADER];
  const nonce = headers[NONCE_HEADER];
  const digest = headers[BODY_DIGEST_HEADER];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || typeof nonce !== 'string' || typeof digest !== 'string') return { ok: false, reason: 'missing' };
  const m = /^v2=([0-9a-f]{64})$/.exec(signature);
  if (!m || !/^\d{1,15}$/.test(timestamp) || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce) || !/^[0-9a-f]{64}$/.test(digest)) return { ok: false, reason: 'malformed' };
  const presented = Buffer.from(m[1]!, 'hex');
  const text = canonical(v.service, method, pathAndQuery, headers);
  let matched = false;
  // Every key is tried (no early exit), so the time taken says nothing about which one matched.
  for (const key of v.keys) if (timingSafeEqual(presented, mac(key, text))) matched = true;
  if (!matched) return { ok: false, reason: 'mismatch' };
  const at = Number(timestamp);
  if (Math.abs(now - at) > SIGNATURE_WINDOW_MS) return { ok: false, reason: 'expired' };
  if (!v.nonces.admit(nonce, at + SIGNATURE_WINDOW_MS, now)) return { ok: false, reason: 'replayed' };
  return { ok: true };
}

export interface InternalAuth {
  /** This service's name in the registry: what the gateway's signature names. */
  service: string;
  /** Accepted keys (`<SERVICE>_SIGNING_KEYS`); the first is the one the gateway signs with. */
  keys: readonly string[];
  /** Wall clock for the replay window (tests move it). */
  clock?: () => number;
}

/** A body whose SHA-256 is not the signed one: refused as the missing signature is (401). */
export class BodyDigestMismatch extends Error {
  override name = 'BodyDigestMismatch';
  /** body-parser passes `type` through; the apps' error handlers answer 401 for it. */
  readonly type = 'signature.body_mismatch';
  readonly status = 401;
}

/**
 * The `verify` hook of every body parser a service mounts behind requireGatewaySignature: the bytes read must be the
 * ones the gateway signed. (Parsers are mounted with `inflate: false`, so the bytes checked are the bytes sent.)
 */
export function signedBody(req: IncomingMessage, _res: unknown, buf: Buffer): void {
  const signed = req.headers[BODY_DIGEST_HEADER];
  if (typeof signed === 'string' && !timingSafeEqual(Buffer.from(signed), Buffer.from(bodyDigest(buf)))) throw new BodyDigestMismatch('the body is not the one the gateway signed');
}

/** True when the request announces no body: its signed digest must then be the empty body's. */
function announcesNoBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] === undefined || req.headers['content-length'] === '0');
}

/** The 401 every unsigned, forged, expired, replayed or altered request gets: the same body whatever the reason. */
export function sendUnsigned(res: Response): void {
  const { status, body } = buildRefusal({
    request_id: newRequestId(),
    capability: 'unknown',
    code: 'invalid_credentials',
    message: 'This service answers only requests forwarded by the gateway. Call the public API instead.',
    record_version: 'rv_unknown',
  });
  // The connection is closed so an unread body cannot linger.
  res.status(status).set('Cache-Control', CACHE_CONTROL).set('Connection', 'close').json(body);
}

/**
 * Express middleware, mounted first: a request that is not for an
 * operational path and does not carry a valid gateway signature is answered
 * 401 `invalid_credentials` before any route, body parser or handler sees it.
 * A body is checked against its signed digest as it is parsed (signedBody).
 */
export function requireGatewaySignature(auth: InternalAuth, onRefused?: (reason: string) => void) {
  const verifier: Verifier = { service: auth.service, keys: auth.keys, nonces: new NonceCache() };
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = req.originalUrl || req.url;
    const path = url.split('?', 1)[0]!;
    if (isOperationalPath(path)) return next();
    let v = verifyRequest(verifier, req.method, url, req.headers, auth.clock?.() ?? Date.now());
    if (v.ok && announcesNoBody(req) && req.headers[BODY_DIGEST_HEADER] !== EMPTY_DIGEST) v = { ok: false, reason: 'mismatch' };
    if (v.ok) return next();
    onRefused?.(v.reason);
    sendUnsigned(res);
  };
}
