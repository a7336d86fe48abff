import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, scopes, selfServiceScopes } from '@evidence-record/contract';
import { createGateway, loadGatewayConfig, type Gateway } from '@evidence-record/gateway';
import { call as callGateway } from '@evidence-record/test-support/client';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { customer, query } from '../resilience/support/operator';
import { signedAsGateway } from '@evidence-record/test-support/signing';
import { signingKeysEnvName } from '@evidence-record/registry';

/**
 * Issue 18's audit findings, each against the running stack (separate
 * processes, real Postgres and Redis) as a client meets them: valid dates
 * never 5xx, RateLimit-* on every keyed response and X-Request-Id on every
 * response, unwatching an id the Record does not hold succeeds, and the free
 * plan's feed and snapshot pages answer what the daily budget allows; and
 * no way around the gateway (a direct call to a service is refused).
 */
let stack: RunningStack;
let signalCount: number;

const call = (key: string | null, method: string, path: string, body?: unknown) => callGateway(stack, key, method, path, body);
// In-process operator verbs (the CLI's own code): a CLI process per key would dominate this file's time.
const freeKey = (name = 'audit free') => customer(stack, { plan: 'free', scopes: selfServiceScopes, name });
type Signal = { signal_id: string };
const idsOf = (body: Record<string, unknown> | null) => ((body?.signals ?? []) as Signal[]).map((s) => s.signal_id);

beforeAll(async () => {
  stack = await startStack('issue18-audit', { services: ['record', 'signals', 'ledger', 'watch', 'mcp', 'gateway'] });
  signalCount = Number((await query<{ n: number }>(stack, 'SELECT count(*)::int AS n FROM signals WHERE released_on IS NOT NULL'))[0]!.n);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('valid dates never 5xx', () => {
  it('the snapshot window starting on 0001-01-01 is answered', async () => {
    const k = await freeKey();
    const r = await call(k.key, 'GET', '/api/v1/category/snapshot?from=0001-01-01&to=0001-01-31');
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body!.coverage.window).toMatchObject({ from: '0001-01-01', to: '0001-01-31' });
  });
});

describe('headers on every response', () => {
  it('a valid key sees its windows on a 404 unsupported_capability, 405s and OPTIONS; health and the description carry a request id', async () => {
    const k = await freeKey();
    for (const [method, path, status] of [
      ['GET', '/api/v1/export', 404],
      ['PUT', '/api/v1/signals', 405],
      ['OPTIONS', '/api/v1/signals', 405],
    ] as const) {
      const r = await call(k.key, method, path);
      expect(r.status, `${method} ${path}`).toBe(status);
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) expect(r.headers.get(h), `${method} ${path} ${h}`).toBeTruthy();
      expect(r.headers.get('x-request-id')).toBe(r.body!.request_id);
    }
    for (const path of ['/api/v1/health', '/api/v1/openapi.json']) {
      const r = await call(null, 'GET', path);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-request-id'), path).toMatch(/^req_[0-9a-f]{24}$/);
    }
  });
});

describe('unwatching an id the Record does not hold', () => {
  it('succeeds: 200 unsupported, nothing changed', async () => {
    const k = await customer(stack, { plan: 'pro', scopes, account: true, name: 'audit watcher' });
    const r = await call(k.key, 'DELETE', '/api/v1/watch/prd_zzzzzzzzzzzz');
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    const a = AnswerEnvelope.parse(r.body);
    expect([a.status, a.product, a.watch]).toEqual(['unsupported', null, expect.objectContaining({ changed: false })]);
  });
});

describe('the free plan: a page answers what the daily budget allows', () => {
  it.each([16, 20, 25])('a feed page of limit %i gives 15 Signals, partial, with next_cursor; the next page is refused with true figures', async (limit) => {
    expect(signalCount).toBeGreaterThan(25);
    const k = await freeKey();
    const first = await call(k.key, 'GET', `/api/v1/signals?limit=${limit}`);
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    const a = AnswerEnvelope.parse(first.body);
    expect([a.status, a.signals!.length]).toEqual(['partial', 15]);
    expect(a.next_cursor).toEqual(expect.any(String));
    expect(a.limitations[0]).toMatch(/15 of the up to \d+ Signals asked for: the organization's daily Signal budget/);
    // The 15 given are the first 15 of the full page.
    const pro = await customer(stack, { plan: 'pro', scopes: selfServiceScopes, name: 'audit reference' });
    const reference = await call(pro.key, 'GET', `/api/v1/signals?limit=${limit}`);
    expect(idsOf(first.body)).toEqual(idsOf(reference.body).slice(0, 15));

    const next = await call(k.key, 'GET', `/api/v1/signals?limit=${limit}&cursor=${encodeURIComponent(a.next_cursor!)}`);
    expect([next.status, next.body!.error.code]).toEqual([429, 'extraction_limit_reached']);
    expect(next.body!.error.details).toMatchObject({ budget: 'signal', limit: 15, used: 15, remaining: 0 });
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy']) expect(next.headers.get(h)).toBeTruthy();
    // The Signals already named today cost nothing again.
    const again = await call(k.key, 'GET', '/api/v1/signals?limit=15');
    expect([again.status, again.body!.status]).toEqual([200, 'supported']);
  });

  it('a category snapshot page stops where the budget does, too', async () => {
    const k = await freeKey();
    // Spend 12 of the 15 on the newest Signals, then ask a snapshot of an older window.
    const spent = await call(k.key, 'GET', '/api/v1/signals?limit=12');
    expect(spent.status).toBe(200);
    const { max } = (await query<{ max: string }>(stack, `SELECT to_char(min(released_on), 'YYYY-MM-DD') AS max FROM (SELECT released_on FROM signals WHERE released_on IS NOT NULL ORDER BY released_on DESC, signal_id DESC LIMIT 12) s`))[0]!;
    const to = new Date(Date.parse(`${max}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - 91 * 86_400_000).toISOString().slice(0, 10);
    const { n } = (await query<{ n: number }>(stack, 'SELECT count(*)::int AS n FROM signals WHERE released_on BETWEEN $1::date AND $2::date', [from, to]))[0]!;
    expect(n).toBeGreaterThan(3);
    const snap = await call(k.key, 'GET', `/api/v1/category/snapshot?from=${from}&to=${to}&limit=25`);
    expect(snap.status, JSON.stringify(snap.body).slice(0, 300)).toBe(200);
    expect([snap.body!.status, idsOf(snap.body).length, typeof snap.body!.next_cursor]).toEqual(['partial', 3, 'string']);
    const more = await call(k.key, 'GET', `/api/v1/category/snapshot?from=${from}&to=${to}&limit=25&cursor=${encodeURIComponent(snap.body!.next_cursor)}`);
    expect([more.status, more.body!.error.code, more.body!.error.details.remaining]).toEqual([429, 'extraction_limit_reached', 0]);
  });
});

describe('the documented first sync on the free plan, across UTC days', () => {
  let gateway: Gateway;
  let server: Server;
  let baseUrl: string;
  let now = Date.parse('2026-11-24T10:00:00Z');

  beforeAll(async () => {
    // The stack's services and Redis, with a gateway whose clock the test moves from one UTC day to the next.
    gateway = await createGateway({ config: loadGatewayConfig({ ...stack.env, LOG_LEVEL: 'silent' }), clock: () => now });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(gateway.listener).listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await gateway?.close();
  });

  it('following next_cursor to null delivers every released Signal exactly once, 15 a day', async () => {
    const k = await freeKey('first sync');
    const seen: string[] = [];
    let cursor: string | null = null;
    let days = 0;
    for (;;) {
      const res = await fetch(`${baseUrl}/api/v1/signals?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${k.key}` } });
      const body = (await res.json()) as { status: string; signals?: Signal[]; next_cursor?: string | null; error?: { code: string; details: { remaining: number } } };
      if (res.status === 429) {
        // Nothing left today: wait for the next UTC day (Retry-After), then follow the same cursor.
        expect([body.error!.code, body.error!.details.remaining]).toEqual(['extraction_limit_reached', 0]);
        now += Number(res.headers.get('retry-after')) * 1000;
        days++;
        continue;
      }
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      seen.push(...body.signals!.map((s) => s.signal_id));
      if (!body.next_cursor) break;
      if (body.status === 'partial') {
        // The page stopped at the budget: tomorrow, the same cursor continues.
        now += 86_400_000;
        days++;
      }
      cursor = body.next_cursor;
      expect(days).toBeLessThan(10);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(signalCount);
    expect(days).toBe(Math.ceil(signalCount / 15) - 1);
  });
});

describe('no way around the gateway', () => {
  const probes = {
    record: ['GET', '/api/v1/record/version'],
    signals: ['GET', '/api/v1/signals?limit=1'],
    ledger: ['GET', '/api/v1/ledger'],
    watch: ['GET', '/api/v1/watch'],
    mcp: ['POST', '/mcp'],
  } as const;

  it.each(Object.keys(probes) as Array<keyof typeof probes>)(
    '%s: refuses a direct call unsigned, forged, signed with another key or for another service, replayed (late or at once) or altered after signing; answers the gateway\'s signature once',
    async (name) => {
      const [method, path] = probes[name];
      const c = await customer(stack, { plan: 'pro', scopes, account: true, name: `direct ${name}` });
      const identity = { 'x-er-org-id': c.orgId, 'x-er-key-id': c.keyId, 'x-er-account-id': c.accountId!, 'x-er-plan-id': 'pro', 'x-er-watch-limit': '50' };
      // The MCP service also wants the caller's key (its tool calls come back through the gateway with it).
      const mcpHeaders: Record<string, string> = name === 'mcp' ? { authorization: `Bearer ${c.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } : {};
      const body = name === 'mcp' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : undefined;
      const send = async (headers: Record<string, string>) => (await fetch(`http://127.0.0.1:${stack.ports[name]}${path}`, { method, headers: { ...mcpHeaders, ...headers }, body })).status;
      const key = stack.env[signingKeysEnvName(name)]!;
      const other = name === 'record' ? 'watch' : 'record';
      const as = (opts: { key?: string; service?: string; at?: number } = {}) =>
        signedAsGateway(opts.service ?? name, method, path, { headers: { ...mcpHeaders, ...identity }, ...(body === undefined ? {} : { body }), key: opts.key ?? key, ...(opts.at === undefined ? {} : { at: opts.at }) });

      expect(await send({}), 'unsigned').toBe(401);
      expect(await send(identity), 'forged identity').toBe(401);
      expect(await send(as({ key: 'not-the-gateway-key-0123456789abcdef' })), 'another key').toBe(401);
      // Each service holds only its own key: another service's key signs nothing this one accepts, nor does a
      // signature made (with this key) for another service.
      expect(await send(as({ key: stack.env[signingKeysEnvName(other)]! })), "another service's key").toBe(401);
      expect(await send(as({ service: other })), 'signed for another service').toBe(401);
      expect(await send(as({ at: Date.now() - 60_000 })), 'replayed a minute late').toBe(401);
      const valid = as();
      expect(await send({ ...valid, 'x-er-account-id': 'acc_zzzzzzzzzzzz' }), 'altered after signing').toBe(401);
      expect(await send(valid), 'signed by the gateway').toBe(200);
      expect(await send(valid), 'the same signature again at once').toBe(401);
      // Probes and scrapes stay open to the cluster.
      for (const open of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`http://127.0.0.1:${stack.ports[name]}${open}`)).status, open).toBe(200);
    },
  );

  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  it.skipIf(!external)('internal services listen on loopback only: not on the machine\'s other addresses', async () => {
    for (const name of ['record', 'signals', 'ledger', 'watch', 'mcp', 'gateway'] as const) {
      await expect(fetch(`http://${external}:${stack.ports[name]}/healthz`, { signal: AbortSignal.timeout(2000) }), name).rejects.toThrow();
      expect((await fetch(`http://127.0.0.1:${stack.ports[name]}/healthz`)).status).toBe(200);
    }
  });
});
