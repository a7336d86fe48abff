import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { createPool, type Pool } from '@evidence-record/platform';
import { admin, call, dropPrefix, redisClient, createPlan, errorCode, gatewayConfig, orgWithKey, startGateway, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * Keys, scopes, plans, suspension and account binding, against a real
 * Postgres and Redis, with keys issued by the operator CLI's own code.
 */
let db: TestDatabase;
let pool: Pool;
let up: FakeUpstreams;
let gw: RunningGateway;
let gw2: RunningGateway;
let env: { DATABASE_URL: string; REDIS_PREFIX: string };
let clockOffsetMs = 0;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url);
  const { redisPrefix } = isolationPrefix('gw-access');
  env = { DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix };
  up = await startFakeUpstreams();
  const config = gatewayConfig({ databaseUrl: db.url, redisPrefix, upstreams: up.urls });
  gw = await startGateway(config, { clock: () => Date.now() + clockOffsetMs });
  // A second replica sharing Redis and Postgres.
  gw2 = await startGateway(config);
});
afterAll(async () => {
  await gw?.close();
  await gw2?.close();
  await up?.close();
  if (env) {
    const redis = redisClient();
    await dropPrefix(redis, env.REDIS_PREFIX);
    redis.disconnect();
  }
  await pool?.end();
  await db?.drop();
});

const product = (base: string) => `${base}/api/v1/products/prd_aaaaaaaaaaaa`;

describe('every bad key gets the same 401', () => {
  it('byte for byte apart from the request id, whatever is wrong, and the query string is never read', async () => {
    const good = await orgWithKey(env, { envName: 'test' });
    const revoked = await orgWithKey(env);
    await admin(env, 'key', 'revoke', revoked.keyId);
    const suspendedWrongSecret = await orgWithKey(env);
    await admin(env, 'key', 'suspend', suspendedWrongSecret.keyId);
    const [, , id, secret] = good.key.split('_');
    const otherSecret = secret!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    const cases: Array<[string, RequestInit]> = [
      ['missing', {}],
      ['malformed', { headers: { authorization: 'Bearer sk_live_nope' } }],
      ['not a bearer', { headers: { authorization: `Basic ${Buffer.from(good.key).toString('base64')}` } }],
      ['unknown key id', { headers: { authorization: `Bearer sk_test_${'z'.repeat(16)}_${secret}` } }],
      ['wrong secret', { headers: { authorization: `Bearer sk_test_${id}_${otherSecret}` } }],
      ['wrong environment', { headers: { authorization: `Bearer sk_live_${id}_${secret}` } }],
      ['revoked', { headers: { authorization: `Bearer ${revoked.key}` } }],
      ['revoked, as X-Service-Key', { headers: { 'x-service-key': revoked.key } }],
      ['suspended but wrong secret', { headers: { 'x-service-key': suspendedWrongSecret.key.slice(0, -1) + (suspendedWrongSecret.key.endsWith('a') ? 'b' : 'a') } }],
      ['two different keys', { headers: { authorization: `Bearer ${good.key}`, 'x-service-key': revoked.key } }],
    ];
    const bodies = new Set<string>();
    for (const [label, init] of cases) {
      const r = await call(product(gw.url), init);
      expect(r.status, label).toBe(401);
      expect(errorCode(r), label).toBe('invalid_credentials');
      expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
      bodies.add(r.text.replace(/req_[0-9a-f]{24}/, 'req_X'));
    }
    // A key only in the query string is not a key (and the request is not otherwise judged).
    for (const q of [`key=${good.key}`, `api_key=${good.key}`, `authorization=Bearer%20${good.key}`]) {
      const r = await call(`${product(gw.url)}?${q}`);
      expect(r.status).toBe(401);
      bodies.add(r.text.replace(/req_[0-9a-f]{24}/, 'req_X'));
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!).error).toEqual({
      code: 'invalid_credentials',
      message: 'The API key is missing or not valid.',
      details: {},
      documentation: '/api/v1/openapi.json#/x-error-codes/invalid_credentials',
    });
    // And the good key works through both headers.
    expect((await call(product(gw.url), { key: good.key })).status).toBe(200);
    expect((await call(product(gw.url), { headers: { 'x-service-key': good.key } })).status).toBe(200);
  });

  it('an expired key is refused the moment it expires', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const k = await orgWithKey(env, { expiresAt: soon });
    expect((await call(product(gw.url), { key: k.key })).status).toBe(200);
    clockOffsetMs = 61_000;
    try {
      const r = await call(product(gw.url), { key: k.key });
      expect([r.status, errorCode(r)]).toEqual([401, 'invalid_credentials']);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('status changes reach every replica within one second', () => {
  it('revocation', async () => {
    const k = await orgWithKey(env);
    // Both replicas have the key cached.
    expect((await call(product(gw.url), { key: k.key })).status).toBe(200);
    expect((await call(product(gw2.url), { key: k.key })).status).toBe(200);
    await admin(env, 'key', 'revoke', k.keyId);
    // Timed from the revocation's commit, which the CLI reports on exit, not from the CLI's start: on a loaded
    // machine starting the operator's process alone can take most of a second.
    const revokedAt = Date.now();
    const refusedBy = (base: string) =>
      waitFor(`${base} to refuse the revoked key`, async () => (await call(product(base), { key: k.key })).status === 401, 3000, 20).then(
        () => Date.now() - revokedAt,
        () => Infinity,
      );
    const [a, b] = await Promise.all([refusedBy(gw.url), refusedBy(gw2.url)]);
    expect(a).toBeLessThan(1000);
    expect(b).toBeLessThan(1000);
  });

  it('rotation: the old key is refused, the new one works, on both replicas', async () => {
    const k = await orgWithKey(env);
    expect((await call(product(gw2.url), { key: k.key })).status).toBe(200);
    const rotated = await admin(env, 'key', 'rotate', k.keyId);
    expect(rotated.replaces).toBe(k.keyId);
    await waitFor('both replicas refuse the rotated key', async () => (await call(product(gw.url), { key: k.key })).status === 401 && (await call(product(gw2.url), { key: k.key })).status === 401, 200, 20);
    for (const base of [gw.url, gw2.url]) {
      expect((await call(product(base), { key: k.key })).status).toBe(401);
      expect((await call(product(base), { key: String(rotated.key) })).status).toBe(200);
    }
  });

  it('suspension of a key, then of its organisation, is key_suspended; lifting both restores it', async () => {
    const k = await orgWithKey(env);
    expect((await call(product(gw2.url), { key: k.key })).status).toBe(200);
    await admin(env, 'key', 'suspend', k.keyId, '--reason', 'test');
    await waitFor('the suspension on the second replica', async () => (await call(product(gw2.url), { key: k.key })).status === 403, 200, 20);
    let r = await call(product(gw2.url), { key: k.key });
    expect([r.status, errorCode(r)]).toEqual([403, 'key_suspended']);
    // Refusals still report the windows.
    expect(r.headers.get('ratelimit-policy')).toBe('minute');
    await admin(env, 'key', 'unsuspend', k.keyId);
    await waitFor('the key restored on the second replica', async () => (await call(product(gw2.url), { key: k.key })).status === 200, 200, 20);
    await admin(env, 'org', 'suspend', k.orgId);
    await waitFor('the organisation suspension on the second replica', async () => (await call(product(gw2.url), { key: k.key })).status === 403, 200, 20);
    r = await call(product(gw2.url), { key: k.key });
    expect([r.status, errorCode(r)]).toEqual([403, 'key_suspended']);
    await admin(env, 'org', 'unsuspend', k.orgId);
    await waitFor('the organisation restored on the second replica', async () => (await call(product(gw2.url), { key: k.key })).status === 200, 200, 20);
  });
});

describe('scopes, plans and account binding', () => {
  it('a missing scope is 403 insufficient_scope naming the scope', async () => {
    const k = await orgWithKey(env, { scopes: 'products:read' });
    const r = await call(`${gw.url}/api/v1/signals`, { key: k.key });
    expect([r.status, errorCode(r)]).toEqual([403, 'insufficient_scope']);
    expect((r.body.error as { details: unknown }).details).toEqual({ required_scope: 'signals:read' });
  });

  it('a plan that excludes a capability is 403 plan_entitlement_required even with the scope', async () => {
    const k = await orgWithKey(env, { plan: 'pro', account: true, scopes: 'ledger:read,products:read' });
    expect((await call(`${gw.url}/api/v1/ledger`, { key: k.key })).status).toBe(200);
    await admin(env, 'org', 'set-plan', k.orgId, '--plan', 'free');
    await waitFor('the plan change', async () => (await call(`${gw.url}/api/v1/ledger`, { key: k.key })).status === 403, 200, 20);
    const r = await call(`${gw.url}/api/v1/ledger`, { key: k.key });
    expect([r.status, errorCode(r)]).toEqual([403, 'plan_entitlement_required']);
    await createPlan(pool, 'no_history', { minute: 100, hour: 1000, day: 10000, capabilities: ['get_product_record'] });
    const narrow = await orgWithKey(env, { plan: 'no_history', scopes: 'history:read,products:read' });
    const h = await call(`${gw.url}/api/v1/products/prd_aaaaaaaaaaaa/history`, { key: narrow.key });
    expect([h.status, errorCode(h)]).toEqual([403, 'plan_entitlement_required']);
  });

  it('watch needs exactly one bound account, and the service is told which', async () => {
    const k = await orgWithKey(env, { plan: 'pro', account: true, scopes: 'watch:manage' });
    const ok = await call(`${gw.url}/api/v1/watch`, { key: k.key });
    expect(ok.status).toBe(200);
    const seen = (ok.body.coverage as { seen_headers: Record<string, string> }).seen_headers;
    expect(seen['x-er-account-id']).toBe(k.accountId);
    expect(seen['x-er-watch-limit']).toBe('50');
    expect(seen['x-er-plan-id']).toBe('pro');
    // The CLI refuses a second account; an organisation bound twice before that rule (written directly here) is refused by the gateway.
    await expect(admin(env, 'account', 'create', '--org', k.orgId, '--email', 'second@example.test')).rejects.toMatchObject({ code: 'org_already_bound' });
    await pool.query(`INSERT INTO accounts (account_id, org_id, email) VALUES ('acc_secondbinding', $1, 'second@example.test')`, [k.orgId]);
    await admin(env, 'org', 'set-plan', k.orgId, '--plan', 'pro'); // announces the org change
    await waitFor('the second account', async () => (await call(`${gw.url}/api/v1/watch`, { key: k.key })).status === 403, 200, 20);
    const r = await call(`${gw.url}/api/v1/watch`, { key: k.key });
    expect([r.status, errorCode(r)]).toEqual([403, 'account_binding_required']);
    // `account unbind` repairs it.
    await admin(env, 'account', 'unbind', 'acc_secondbinding');
    await waitFor('the unbinding', async () => (await call(`${gw.url}/api/v1/watch`, { key: k.key })).status === 200, 200, 20);
  });

  it('the CLI never puts ledger:read or watch:manage on a self-service key, nor without exactly one account', async () => {
    const free = await admin(env, 'org', 'create', '--name', 'F', '--plan', 'free');
    await expect(admin(env, 'key', 'issue', '--org', String(free.org_id), '--scopes', 'watch:manage')).rejects.toThrow(/self-service/);
    const pro = await admin(env, 'org', 'create', '--name', 'P', '--plan', 'pro');
    await expect(admin(env, 'key', 'issue', '--org', String(pro.org_id), '--scopes', 'ledger:read')).rejects.toThrow(/bound to no account/);
    await expect(admin(env, 'key', 'issue', '--org', String(pro.org_id), '--scopes', 'products:read,nonsense')).rejects.toThrow(/unknown scope/);
  });

  it('key list and show never print a secret or a hash', async () => {
    const k = await orgWithKey(env);
    const secret = k.key.split('_')[3]!;
    const listed = JSON.stringify(await admin(env, 'key', 'list', '--org', k.orgId));
    const shown = JSON.stringify(await admin(env, 'key', 'show', k.keyId));
    const { rows } = await pool.query<{ secret_sha256: string }>('SELECT secret_sha256 FROM api_keys WHERE key_id = $1', [k.keyId]);
    for (const out of [listed, shown]) {
      expect(out).toContain(k.keyId);
      expect(out).not.toContain(secret);
      expect(out).not.toContain(rows[0]!.secret_sha256);
    }
  });
});

describe('MCP endpoint', () => {
  it('refuses a bad key with the 401 envelope before anything runs, and passes a good one through untouched', async () => {
    const before = up.seen.filter((s) => s.capability === 'mcp').length;
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const bad = await call(`${gw.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_bad' }, body: rpc });
    expect([bad.status, errorCode(bad), bad.body.capability]).toEqual([401, 'invalid_credentials', 'mcp']);
    expect(up.seen.filter((s) => s.capability === 'mcp').length).toBe(before);

    const k = await orgWithKey(env);
    const ok = await call(`${gw.url}/mcp?key=${k.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-service-key': k.key, 'x-er-org-id': 'org_forged', 'mcp-protocol-version': '2025-06-18' },
      body: rpc,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ jsonrpc: '2.0', id: 1, result: { echoed_method: 'tools/list' } });
    expect([...ok.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const seen = up.seen.filter((s) => s.capability === 'mcp').at(-1)!;
    expect(seen.headers['x-service-key']).toBe(k.key);
    expect(seen.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(seen.headers['x-er-org-id']).toBeUndefined();
    expect(seen.headers['x-request-id']).toBe(ok.headers.get('x-request-id'));
    // MCP protocol traffic spends no window: a capability call afterwards is the first counted.
    const first = await call(product(gw.url), { key: k.key });
    expect(first.headers.get('ratelimit-remaining')).toBe('29');
  });
});

describe('logs and metrics', () => {
  it('logs carry request ids and key ids, never a key, a secret or a query string', async () => {
    const { pino } = await import('pino');
    const lines: string[] = [];
    const log = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const config = gatewayConfig({ databaseUrl: db.url, redisPrefix: env.REDIS_PREFIX, upstreams: up.urls });
    const g = await startGateway(config, { log });
    try {
      const k = await orgWithKey(env);
      const secret = k.key.split('_')[3]!;
      await call(product(g.url), { key: k.key });
      await call(`${product(g.url)}?api_key=${k.key}`);
      await call(`${product(g.url)}?api_key=${k.key}`, { key: k.key });
      await call(product(g.url), { headers: { 'x-service-key': `${k.key}x` } });
      await call(`${g.url}/mcp?key=${k.key}`, { method: 'POST', key: k.key, body: '{}', headers: { 'content-type': 'application/json' } });
      await admin(env, 'key', 'revoke', k.keyId);
      await waitFor('the revocation', async () => (await call(product(g.url), { key: k.key })).status === 401, 200, 20);
      const text = lines.join('');
      expect(text).toContain(k.keyId);
      expect(text).toMatch(/"request_id":"req_[0-9a-f]{24}"/);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('api_key');
    } finally {
      await g.close();
    }
  });

  it('exposes the budget, rate and upstream series', async () => {
    const k = await orgWithKey(env);
    await call(`${gw.url}/api/v1/products/prd_cccccccccccc`, { key: k.key });
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/er_gateway_budget_spent_total\{kind="product",service="gateway"\} \d+/);
    expect(metrics).toContain('er_gateway_rate_refusals_total');
    expect(metrics).toContain('er_gateway_upstream_errors_total');
    expect(metrics).toMatch(/er_requests_total\{capability="get_product_record",status="200",code="",service="gateway"\}/);
  });
});
