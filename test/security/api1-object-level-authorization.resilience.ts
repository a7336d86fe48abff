import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { send } from '../resilience/support/http';
import { customer, query, type Customer } from '../resilience/support/operator';

/**
 * OWASP API1:2023 Broken Object Level Authorization. The objects a caller
 * can reach are its account's watchlist and receipts. Watch operations act
 * only on the one account bound to the key's organisation; no payload names
 * an account, and the internal identity headers a client sends are ignored
 * (the gateway strips every x-er-* header and sets its own).
 */
let stack: RunningStack;
let alice: Customer;
let bob: Customer;
let products: string[];

const watchScopes = ['watch:manage', 'products:read'];

beforeAll(async () => {
  stack = await startStack('sec-api1', { services: ['watch', 'gateway'] });
  alice = await customer(stack, { plan: 'pro', scopes: watchScopes, email: 'alice@example.test', name: 'Alice Co' });
  bob = await customer(stack, { plan: 'pro', scopes: watchScopes, email: 'bob@example.test', name: 'Bob Co' });
  products = (await query<{ product_id: string }>(stack, `SELECT product_id FROM products WHERE retired_on IS NULL AND depth_class <> 'REGISTERED' ORDER BY product_id LIMIT 4`)).map((r) => r.product_id);
  for (const p of products.slice(0, 2)) expect((await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: alice.key, body: { product_id: p } })).status).toBe(200);
  expect((await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: bob.key, body: { product_id: products[2] } })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const watched = async (who: Customer, headers: Record<string, string> = {}) => {
  const r = await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: who.key, headers });
  expect(r.status, r.text.slice(0, 200)).toBe(200);
  return (r.body.products as Array<{ product_id: string }>).map((p) => p.product_id).sort();
};
const stored = async (who: Customer) => (await query<{ product_id: string }>(stack, 'SELECT product_id FROM watches WHERE account_id = $1 ORDER BY product_id', [who.accountId])).map((r) => r.product_id);

describe('API1 object-level authorization: watchlists', () => {
  it('shows each account only its own watchlist and receipt', async () => {
    expect(await watched(alice)).toEqual(products.slice(0, 2).sort());
    expect(await watched(bob)).toEqual([products[2]]);
    const receipt = await send(stack.baseUrl, 'GET', '/api/v1/watch/receipt', { key: bob.key });
    expect(receipt.status).toBe(200);
    for (const p of products.slice(0, 2)) expect(receipt.text).not.toContain(p);
    for (const text of [receipt.text, (await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: bob.key })).text]) {
      expect(text).not.toContain(alice.accountId!);
      expect(text).not.toContain('alice@example.test');
    }
  });

  it('never lets one account change another account\'s watchlist', async () => {
    // Bob "removes" Alice's products: idempotent on his own list, nothing happens to hers.
    for (const p of products.slice(0, 2)) expect((await send(stack.baseUrl, 'DELETE', `/api/v1/watch/${p}`, { key: bob.key })).status).toBe(200);
    expect(await stored(alice)).toEqual(products.slice(0, 2).sort());
    expect(await watched(alice)).toEqual(products.slice(0, 2).sort());
  });

  it('refuses a payload that names an account', async () => {
    const r = await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: bob.key, body: { product_id: products[3], account_id: alice.accountId } });
    expect([r.status, r.code]).toEqual([400, 'invalid_request']);
    expect(r.body.error.details.field).toBe('account_id');
    expect(await stored(alice)).toEqual(products.slice(0, 2).sort());
  });

  it('ignores internal identity headers sent by a client', async () => {
    const forged = {
      'x-er-account-id': alice.accountId!,
      'x-er-org-id': alice.orgId,
      'x-er-key-id': alice.keyId,
      'x-er-plan-id': 'demo',
      'x-er-watch-limit': '100000',
      'X-Er-Account-Id': alice.accountId!,
    };
    // Bob reading with Alice's identity headers still reads his own list.
    expect(await watched(bob, forged)).toEqual([products[2]]);
    // Bob writing with them still writes his own list.
    expect((await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: bob.key, body: { product_id: products[3] }, headers: forged })).status).toBe(200);
    expect((await send(stack.baseUrl, 'DELETE', `/api/v1/watch/${products[0]}`, { key: bob.key, headers: forged })).status).toBe(200);
    expect(await stored(bob)).toEqual([products[2], products[3]].sort());
    expect(await stored(alice)).toEqual(products.slice(0, 2).sort());
    // And with no key at all, the forged headers are worth nothing.
    const anonymous = await send(stack.baseUrl, 'GET', '/api/v1/watch', { headers: forged });
    expect([anonymous.status, anonymous.code]).toEqual([401, 'invalid_credentials']);
  });
});
