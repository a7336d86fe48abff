import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityList, randomId, scopes, selfServiceScopes } from '@evidence-record/contract';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { cli, customer, operator, query } from '../resilience/support/operator';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * OWASP API5:2023 Broken Function Level Authorization. A capability runs
 * only for a key holding its scope, on a plan that includes it, and (for
 * watch capabilities) an organisation bound to exactly one account;
 * ledger:read and watch:manage cannot even be issued to a self-service
 * organisation; a suspended key or organisation runs nothing; a method a
 * path does not document runs nothing; and the self-reported origin header
 * never changes what a caller may do.
 */
let stack: RunningStack;
let productId: string;

beforeAll(async () => {
  stack = await startStack('sec-api5', { services: ['record', 'signals', 'ledger', 'watch', 'gateway'] });
  productId = (await query<{ id: string }>(stack, `SELECT product_id AS id FROM products WHERE retired_on IS NULL ORDER BY 1 LIMIT 1`))[0]!.id;
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const concrete = (path: string) => path.replace(':product_id', productId).replace(':signal_id', 'sig_000000000000').replace(':edition_id', 'ed_2026_01');
const bodyFor = (name: string) =>
  ({ search_record: { query: 'caffeine' }, resolve_product: { identifier: 'IV Surge' }, compare_products: { product_ids: [productId, productId.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))] }, get_research_context: { product_id: productId }, get_regulatory_context: { product_id: productId }, watch_product: { product_id: productId } })[name];

function call(key: string, cap: (typeof capabilityList)[number], headers: Record<string, string> = {}) {
  const body = bodyFor(cap.name);
  return send(stack.baseUrl, cap.method, concrete(cap.path), { key, headers, ...(body ? { body } : {}) });
}

describe('API5 function-level authorization', () => {
  it('refuses every capability to a key without its scope, naming the scope, whatever X-Service-Origin says', async () => {
    const org = await customer(stack, { plan: 'pro', scopes: ['framework:read'], account: true });
    for (const scope of scopes) {
      const issued = await operator(stack, 'key', 'issue', '--org', org.orgId, '--scopes', scopes.filter((s) => s !== scope).join(','), '--env', 'test');
      for (const cap of capabilityList.filter((c) => c.scope === scope)) {
        for (const origin of ['api', 'mcp']) {
          const r = await call(String(issued.key), cap, { 'x-service-origin': origin });
          expect([r.status, r.code], `${cap.name} without ${scope}`).toEqual([403, 'insufficient_scope']);
          expect(r.body.error.details.required_scope).toBe(scope);
        }
      }
    }
  });

  it('refuses a capability the plan excludes even to a key holding its scope', async () => {
    const k = await customer(stack, { plan: 'pro', scopes, account: true });
    expect((await send(stack.baseUrl, 'GET', '/api/v1/ledger', { key: k.key })).status).toBe(200);
    const moved = await cli(stack, 'org', 'set-plan', k.orgId, '--plan', 'free');
    expect(moved.exitCode).toBe(0);
    const entitled = capabilityList.filter((c) => c.scope === 'ledger:read' || c.scope === 'watch:manage');
    await waitFor('the plan change to reach the gateway', async () => (await send(stack.baseUrl, 'GET', '/api/v1/ledger', { key: k.key })).code === 'plan_entitlement_required', 5000);
    for (const cap of entitled) {
      const r = await call(k.key, cap);
      expect([r.status, r.code], cap.name).toEqual([403, 'plan_entitlement_required']);
    }
    expect((await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key })).status).toBe(200);
  });

  it('never issues ledger:read or watch:manage to a self-service organisation, or watch:manage without exactly one account', async () => {
    const free = await customer(stack, { plan: 'free', scopes: selfServiceScopes });
    for (const scopeList of ['ledger:read', 'watch:manage', 'all', 'products:read,watch:manage']) {
      const run = await cli(stack, 'key', 'issue', '--org', free.orgId, '--scopes', scopeList);
      expect(run.exitCode, scopeList).toBe(1);
      expect(run.json.error).toBe('scope_not_granted');
      expect(String(run.json.message)).toMatch(/self-service/);
      expect(run.json.key).toBeUndefined();
    }
    const unbound = await customer(stack, { plan: 'pro', scopes: ['framework:read'] });
    const none = await cli(stack, 'key', 'issue', '--org', unbound.orgId, '--scopes', 'watch:manage');
    expect([none.exitCode, none.json.error]).toEqual([1, 'account_binding_required']);
    expect(String(none.json.message)).toMatch(/bound to no account/);
    await operator(stack, 'account', 'create', '--org', unbound.orgId, '--email', 'one@example.test');
    // A second binding is refused by the CLI; one made before that rule is written directly.
    expect((await cli(stack, 'account', 'create', '--org', unbound.orgId, '--email', 'two@example.test')).json.error).toBe('org_already_bound');
    await query(stack, `INSERT INTO accounts (account_id, org_id, email) VALUES ($1, $2, 'two@example.test')`, [`acc_${randomId()}`, unbound.orgId]);
    const two = await cli(stack, 'key', 'issue', '--org', unbound.orgId, '--scopes', 'watch:manage');
    expect([two.exitCode, two.json.error]).toEqual([1, 'account_binding_required']);
    const keys = await query<{ n: number }>(stack, `SELECT count(*)::int AS n FROM api_keys WHERE org_id = ANY($1) AND scopes && ARRAY['ledger:read','watch:manage']`, [[free.orgId, unbound.orgId]]);
    expect(keys[0]!.n).toBe(0);
  });

  it('refuses watch capabilities once the organisation is bound to more than one account', async () => {
    const k = await customer(stack, { plan: 'pro', scopes: ['watch:manage'], account: true });
    expect((await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: k.key })).status).toBe(200);
    expect((await cli(stack, 'account', 'create', '--org', k.orgId, '--email', 'second@example.test')).json.error).toBe('org_already_bound');
    // An organisation bound twice before that rule (written directly); the next org change reaches the gateway.
    await query(stack, `INSERT INTO accounts (account_id, org_id, email) VALUES ($1, $2, 'second@example.test')`, [`acc_${randomId()}`, k.orgId]);
    expect((await cli(stack, 'org', 'set-plan', k.orgId, '--plan', 'pro')).exitCode).toBe(0);
    await waitFor('the binding change to reach the gateway', async () => (await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: k.key })).code === 'account_binding_required', 5000);
    for (const cap of capabilityList.filter((c) => c.scope === 'watch:manage')) {
      const r = await call(k.key, cap);
      expect([r.status, r.code], cap.name).toEqual([403, 'account_binding_required']);
    }
  });

  it('runs nothing for a suspended key or organisation until an operator lifts it', async () => {
    const k = await customer(stack, { plan: 'demo', scopes: selfServiceScopes });
    await cli(stack, 'key', 'suspend', k.keyId, '--reason', 'test');
    await waitFor('key suspension', async () => (await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key })).code === 'key_suspended', 5000);
    await cli(stack, 'key', 'unsuspend', k.keyId);
    await waitFor('key unsuspension', async () => (await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key })).status === 200, 5000);
    await cli(stack, 'org', 'suspend', k.orgId);
    await waitFor('organisation suspension', async () => (await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key })).code === 'key_suspended', 5000);
    const second = await operator(stack, 'key', 'issue', '--org', k.orgId, '--scopes', 'framework:read', '--env', 'test');
    expect((await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: String(second.key) })).code).toBe('key_suspended');
    await cli(stack, 'org', 'unsuspend', k.orgId);
    await waitFor('organisation unsuspension', async () => (await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: k.key })).status === 200, 5000);
  });

  it('answers a method a path does not document with 405 and Allow, running nothing', async () => {
    const k = await customer(stack, { plan: 'demo', scopes, account: true });
    const byPath = new Map<string, Set<string>>();
    for (const cap of capabilityList) byPath.set(cap.path, (byPath.get(cap.path) ?? new Set()).add(cap.method));
    for (const [path, methods] of byPath) {
      for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'PATCH']) {
        if (methods.has(method)) continue;
        const r = await send(stack.baseUrl, method, concrete(path), { key: k.key, body: method === 'GET' ? undefined : { product_id: productId } });
        expect([r.status, r.code], `${method} ${path}`).toEqual([405, 'method_not_allowed']);
        expect(r.headers.allow?.split(', ').sort()).toEqual([...methods].sort());
      }
    }
    const watched = await query<{ n: number }>(stack, 'SELECT count(*)::int AS n FROM watches WHERE account_id = $1', [k.accountId]);
    expect(watched[0]!.n).toBe(0);
  });
});

