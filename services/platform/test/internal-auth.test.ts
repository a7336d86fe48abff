import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BODY_DIGEST_HEADER,
  Metrics,
  NonceCache,
  SIGNATURE_WINDOW_MS,
  createLogger,
  createServiceApp,
  finishServiceApp,
  signRequest,
  signingKeysEnv,
  verifyRequest,
  type OutgoingRequest,
  type Verifier,
} from '../src/index';

/**
 * The gateway's signature on internal requests (decision 0313): what it
 * covers (the target service, method, path and query, content type, body,
 * every x-er-* header, timestamp and nonce), the window, replays, two keys
 * during a rotation, and the service app refusing everything unsigned,
 * replayed or altered but its operational endpoints.
 */
const OLD = 'old-signing-key-0123456789abcdef0123456789';
const NEW = 'new-signing-key-0123456789abcdef0123456789';
const T = 1_795_000_000_000;
const identity = { 'x-er-org-id': 'org_aaaaaaaaaaaa', 'x-er-key-id': 'k1', 'x-er-account-id': 'acc_aaaaaaaaaaaa', 'x-request-id': 'req_000000000000000000000000' };
const get: OutgoingRequest = { service: 'watch', method: 'GET', pathAndQuery: '/api/v1/watch', body: new Uint8Array() };

function signed(key = OLD, at = T, req: OutgoingRequest = get, headers: Record<string, string> = identity) {
  const h = { ...headers };
  signRequest(key, req, h, at);
  return h;
}

/** A fresh verifier (its own nonce cache) for `service`. */
const verifier = (keys: string[] = [OLD], service = 'watch'): Verifier => ({ service, keys, nonces: new NonceCache() });

describe('verifyRequest', () => {
  it('accepts what the gateway signed, within the window either side', () => {
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', signed(), T)).toEqual({ ok: true });
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', signed(), T + SIGNATURE_WINDOW_MS)).toEqual({ ok: true });
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', signed(), T - SIGNATURE_WINDOW_MS)).toEqual({ ok: true });
  });

  it('refuses a signature outside the window, a missing or malformed one, and another key', () => {
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', signed(), T + SIGNATURE_WINDOW_MS + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', identity, T)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', { ...signed(), 'x-er-signature': 'v2=abc' }, T)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', { ...signed(), 'x-er-nonce': 'short' }, T)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyRequest(verifier(), 'GET', '/api/v1/watch', signed(NEW), T)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('accepts a signature once: the same request again inside the window is a replay', () => {
    const v = verifier();
    const h = signed();
    expect(verifyRequest(v, 'GET', '/api/v1/watch', h, T)).toEqual({ ok: true });
    expect(verifyRequest(v, 'GET', '/api/v1/watch', h, T + 1_000)).toEqual({ ok: false, reason: 'replayed' });
    // Two requests the gateway signs in the same millisecond are two requests (each has its own nonce).
    expect(verifyRequest(v, 'GET', '/api/v1/watch', signed(), T)).toEqual({ ok: true });
    // A forged signature never reaches the nonce cache, so forgeries cannot fill it or burn a real nonce.
    const real = signed();
    expect(verifyRequest(v, 'GET', '/api/v1/watch', { ...real, 'x-er-signature': `v2=${'0'.repeat(64)}` }, T)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyRequest(v, 'GET', '/api/v1/watch', real, T)).toEqual({ ok: true });
  });

  it('covers the target service, method, path with its query, content type, body digest, every x-er-* header, timestamp and nonce', () => {
    const post: OutgoingRequest = { service: 'watch', method: 'POST', pathAndQuery: '/api/v1/watch?x=1', body: Buffer.from('{"product_id":"prd_aaaaaaaaaaaa"}') };
    const h = signed(OLD, T, post, { ...identity, 'content-type': 'application/json' });
    const check = (headers: Record<string, string>, over: { service?: string; method?: string; path?: string } = {}) =>
      verifyRequest(verifier([OLD], over.service ?? 'watch'), over.method ?? 'POST', over.path ?? '/api/v1/watch?x=1', headers, T).ok;
    expect(check(h)).toBe(true);
    expect(check(h, { service: 'record' })).toBe(false);
    expect(check(h, { method: 'DELETE' })).toBe(false);
    expect(check(h, { path: '/api/v1/watch?x=2' })).toBe(false);
    expect(check({ ...h, 'content-type': 'text/plain' })).toBe(false);
    expect(check({ ...h, [BODY_DIGEST_HEADER]: 'a'.repeat(64) })).toBe(false);
    for (const name of ['x-er-account-id', 'x-er-org-id', 'x-er-timestamp', 'x-er-nonce']) expect(check({ ...h, [name]: name === 'x-er-timestamp' ? String(T + 1) : `${h[name]!}0` }), name).toBe(false);
    expect(check({ ...h, 'x-er-page-cap': '25' })).toBe(false);
    // Headers outside x-er-* (and Content-Type) are not the gateway's to vouch for.
    expect(check({ ...h, 'x-request-id': 'req_111111111111111111111111' })).toBe(true);
  });

  it('accepts either of two keys during a rotation', () => {
    expect(verifyRequest(verifier([NEW, OLD]), 'GET', '/api/v1/watch', signed(OLD), T).ok).toBe(true);
    expect(verifyRequest(verifier([NEW, OLD]), 'GET', '/api/v1/watch', signed(NEW), T).ok).toBe(true);
    expect(verifyRequest(verifier([NEW]), 'GET', '/api/v1/watch', signed(OLD), T).ok).toBe(false);
  });

  it('<SERVICE>_SIGNING_KEYS takes one or two long keys', () => {
    expect(signingKeysEnv.parse(`${NEW}, ${OLD}`)).toEqual([NEW, OLD]);
    expect(signingKeysEnv.safeParse('short').success).toBe(false);
    expect(signingKeysEnv.safeParse([NEW, OLD, NEW].join(',')).success).toBe(false);
    expect(signingKeysEnv.safeParse('').success).toBe(false);
  });
});

describe('the nonce cache', () => {
  it('forgets nonces once their window has passed, and never holds more than its bound', () => {
    const cache = new NonceCache(100);
    for (let i = 0; i < 50; i++) expect(cache.admit(`nonce-${i}`.padEnd(20, 'x'), T + 10, T)).toBe(true);
    expect(cache.admit('nonce-0'.padEnd(20, 'x'), T + 10, T)).toBe(false);
    // Past their expiry they are dropped as new ones arrive.
    expect(cache.admit('later'.padEnd(20, 'x'), T + 30, T + 20)).toBe(true);
    expect(cache.size).toBe(1);
    for (let i = 0; i < 500; i++) cache.admit(`flood-${i}`.padEnd(20, 'x'), T + 1_000, T + 20);
    expect(cache.size).toBeLessThanOrEqual(100);
  });
});

describe('a service app with internalAuth', () => {
  let server: Server;
  let url: string;
  let now = Date.now();
  beforeAll(async () => {
    const opts = {
      name: 'probe',
      log: createLogger('probe', 'silent'),
      metrics: new Metrics('probe'),
      readiness: async () => undefined,
      recordVersion: async () => 'rv_00000001',
      internalAuth: { service: 'watch', keys: [OLD], clock: () => now },
    };
    const app = createServiceApp(opts);
    app.get('/api/v1/thing', (req, res) => void res.json({ org: req.headers['x-er-org-id'] }));
    app.post('/api/v1/thing', (req, res) => void res.json({ got: req.body as unknown }));
    finishServiceApp(app, opts);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const thing: OutgoingRequest = { service: 'watch', method: 'GET', pathAndQuery: '/api/v1/thing', body: new Uint8Array() };
  const status = async (r: Response) => [r.status, ((await r.json()) as { error?: { code: string } }).error?.code ?? 'ok'];

  it('answers a signed request, refuses an unsigned, forged, expired or replayed one with 401, and an unknown path too', async () => {
    now = Date.now();
    const good = signed(OLD, now, thing);
    const ok = await fetch(`${url}/api/v1/thing`, { headers: good });
    expect([ok.status, await ok.json()]).toEqual([200, { org: 'org_aaaaaaaaaaaa' }]);
    for (const headers of [identity, signed(NEW, now, thing), signed(OLD, now - SIGNATURE_WINDOW_MS - 5_000, thing), signed(OLD, now, { ...thing, service: 'record' }), good]) {
      expect(await status(await fetch(`${url}/api/v1/thing`, { headers }))).toEqual([401, 'invalid_credentials']);
    }
    expect((await fetch(`${url}/api/v1/nothing`)).status).toBe(401);
  });

  it('reads only the body the gateway signed: another body, or none, is refused with 401', async () => {
    now = Date.now();
    const body = '{"product_id":"prd_aaaaaaaaaaaa"}';
    const post = (at = now) => signed(OLD, at, { ...thing, method: 'POST', body: Buffer.from(body) }, { ...identity, 'content-type': 'application/json' });
    const send = (headers: Record<string, string>, b: string | undefined) => fetch(`${url}/api/v1/thing`, { method: 'POST', headers, ...(b === undefined ? {} : { body: b }) });
    expect(await status(await send(post(), '{"product_id":"prd_bbbbbbbbbbbb"}'))).toEqual([401, 'invalid_credentials']);
    expect(await status(await send(post(), undefined))).toEqual([401, 'invalid_credentials']);
    const ok = await send(post(), body);
    expect([ok.status, await ok.json()]).toEqual([200, { got: { product_id: 'prd_aaaaaaaaaaaa' } }]);
    // What the review measured: the same signature 20 s later with another body. Past the window now, and its
    // nonce already spent, and its digest wrong.
    const captured = post();
    now += 20_000;
    expect(await status(await send(captured, '{"product_id":"prd_cccccccccccc"}'))).toEqual([401, 'invalid_credentials']);
  });

  it('leaves /healthz, /readyz and /metrics open to the cluster', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${url}${path}`)).status, path).toBe(200);
  });
});
