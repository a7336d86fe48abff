import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics, SIGNATURE_WINDOW_MS, createLogger, createServiceApp, finishServiceApp, signRequest, signingKeysEnv, verifyRequest } from '../src/index';

/**
 * The gateway's signature on internal requests (decision 0313): what it
 * covers, the replay window, two keys during a rotation, and the service app
 * refusing everything unsigned but its operational endpoints.
 */
const OLD = 'old-signing-key-0123456789abcdef0123456789';
const NEW = 'new-signing-key-0123456789abcdef0123456789';
const T = 1_795_000_000_000;
const identity = { 'x-er-org-id': 'org_aaaaaaaaaaaa', 'x-er-key-id': 'k1', 'x-er-account-id': 'acc_aaaaaaaaaaaa', 'x-request-id': 'req_000000000000000000000000' };

function signed(key = OLD, at = T, path = '/api/v1/watch', method = 'GET', headers: Record<string, string> = identity) {
  const h = { ...headers };
  signRequest(key, method, path, h, at);
  return h;
}

describe('verifyRequest', () => {
  it('accepts what the gateway signed, within the window either side', () => {
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', signed(), T)).toEqual({ ok: true });
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', signed(), T + SIGNATURE_WINDOW_MS)).toEqual({ ok: true });
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', signed(), T - SIGNATURE_WINDOW_MS)).toEqual({ ok: true });
  });

  it('refuses a replay outside the window, a missing or malformed signature, and another key', () => {
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', signed(), T + SIGNATURE_WINDOW_MS + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', identity, T)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', { ...signed(), 'x-er-signature': 'v1=abc' }, T)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyRequest([OLD], 'GET', '/api/v1/watch', signed(NEW), T)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('covers the method, the path with its query, every x-er-* header and the timestamp', () => {
    const h = signed(OLD, T, '/api/v1/signals?limit=5');
    expect(verifyRequest([OLD], 'GET', '/api/v1/signals?limit=5', h, T).ok).toBe(true);
    expect(verifyRequest([OLD], 'GET', '/api/v1/signals?limit=25', h, T).ok).toBe(false);
    expect(verifyRequest([OLD], 'DELETE', '/api/v1/signals?limit=5', h, T).ok).toBe(false);
    expect(verifyRequest([OLD], 'GET', '/api/v1/signals?limit=5', { ...h, 'x-er-account-id': 'acc_bbbbbbbbbbbb' }, T).ok).toBe(false);
    expect(verifyRequest([OLD], 'GET', '/api/v1/signals?limit=5', { ...h, 'x-er-page-cap': '25' }, T).ok).toBe(false);
    expect(verifyRequest([OLD], 'GET', '/api/v1/signals?limit=5', { ...h, 'x-er-timestamp': String(T + 1) }, T).ok).toBe(false);
    // Headers outside x-er-* are not the gateway's to vouch for.
    expect(verifyRequest([OLD], 'GET', '/api/v1/signals?limit=5', { ...h, 'x-request-id': 'req_111111111111111111111111' }, T).ok).toBe(true);
  });

  it('accepts either of two keys during a rotation', () => {
    expect(verifyRequest([NEW, OLD], 'GET', '/api/v1/watch', signed(OLD), T).ok).toBe(true);
    expect(verifyRequest([NEW, OLD], 'GET', '/api/v1/watch', signed(NEW), T).ok).toBe(true);
    expect(verifyRequest([NEW], 'GET', '/api/v1/watch', signed(OLD), T).ok).toBe(false);
  });

  it('INTERNAL_SIGNING_KEYS takes one or two long keys', () => {
    expect(signingKeysEnv.parse(`${NEW}, ${OLD}`)).toEqual([NEW, OLD]);
    expect(signingKeysEnv.safeParse('short').success).toBe(false);
    expect(signingKeysEnv.safeParse([NEW, OLD, NEW].join(',')).success).toBe(false);
    expect(signingKeysEnv.safeParse('').success).toBe(false);
  });
});

describe('a service app with internalAuth', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const opts = { name: 'probe', log: createLogger('probe', 'silent'), metrics: new Metrics('probe'), readiness: async () => undefined, recordVersion: async () => 'rv_00000001', internalAuth: { keys: [OLD] } };
    const app = createServiceApp(opts);
    app.get('/api/v1/thing', (req, res) => void res.json({ org: req.headers['x-er-org-id'] }));
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

  it('answers a signed request, refuses an unsigned or forged one with 401, and an unknown path too', async () => {
    const ok = await fetch(`${url}/api/v1/thing`, { headers: signed(OLD, Date.now(), '/api/v1/thing') });
    expect([ok.status, await ok.json()]).toEqual([200, { org: 'org_aaaaaaaaaaaa' }]);
    for (const headers of [identity, signed(NEW, Date.now(), '/api/v1/thing'), signed(OLD, Date.now() - SIGNATURE_WINDOW_MS - 5_000, '/api/v1/thing')]) {
      const r = await fetch(`${url}/api/v1/thing`, { headers });
      expect(r.status).toBe(401);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('invalid_credentials');
    }
    expect((await fetch(`${url}/api/v1/nothing`)).status).toBe(401);
  });

  it('leaves /healthz, /readyz and /metrics open to the cluster', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${url}${path}`)).status, path).toBe(200);
  });
});
