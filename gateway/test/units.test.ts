import { describe, expect, it } from 'vitest';
import { capabilities, capabilityList } from '@evidence-record/contract';
import { presentedKey, authorizeCapability } from '../src/access/admission';
import { KeyCache } from '../src/access/key-cache';
import type { KeyRecord } from '../src/access/key-record';
import { parseQuery } from '../src/http/io';
import { isJsonContentType, validateRequest } from '../src/http/validate';
import { secondsToNextUtcMidnight, rateWindowKeys, budgetKey, scoreKeys } from '../src/keyspace';
import { rateLimitHeaders, reportedWindow, type WindowState } from '../src/limits/rate-windows';
import { SettledToday } from '../src/limits/settled-today';
import { RouteTable } from '../src/routes';
import { observe } from '../src/scoring/observe';

const routes = new RouteTable();

describe('routing from the capability table', () => {
  it('routes every capability by its method and path', () => {
    for (const cap of capabilityList) {
      const path = cap.path.replace(':product_id', 'prd_aaaaaaaaaaaa').replace(':signal_id', 'sig_aaaaaaaaaaaa').replace(':edition_id', 'ed_2026_01');
      const m = routes.match(cap.method, path);
      expect(m.kind, `${cap.method} ${path}`).toBe('capability');
      if (m.kind === 'capability') expect(m.capability.name).toBe(cap.name);
    }
  });

  it('a literal path wins over a parameter: GET /products/resolve is 405, not a product called "resolve"', () => {
    expect(routes.match('GET', '/api/v1/products/resolve')).toEqual({ kind: 'method_not_allowed', allow: ['POST'], capability: 'resolve_product' });
    expect(routes.match('DELETE', '/api/v1/watch/receipt')).toEqual({ kind: 'method_not_allowed', allow: ['GET'], capability: 'get_watch_receipt' });
    const m = routes.match('DELETE', '/api/v1/watch/prd_aaaaaaaaaaaa');
    expect(m.kind === 'capability' && m.capability.name).toBe('unwatch_product');
  });

  it('a known path with another method is 405 with every allowed method', () => {
    const m = routes.match('PUT', '/api/v1/watch');
    expect(m.kind).toBe('method_not_allowed');
    if (m.kind === 'method_not_allowed') expect(m.allow.sort()).toEqual(['GET', 'POST']);
    expect(routes.match('OPTIONS', '/api/v1/signals')).toMatchObject({ kind: 'method_not_allowed', allow: ['GET'] });
    expect(routes.match('POST', '/api/v1/health')).toMatchObject({ kind: 'method_not_allowed', allow: ['GET'] });
  });

  it('anything else under /api/v1 is unknown (no export, no listing)', () => {
    for (const p of ['/api/v1/export', '/api/v1/products', '/api/v1/products/prd_aaaaaaaaaaaa/history/all', '/api/v1/signals/', '/api/v1']) {
      expect(routes.match('GET', p).kind, p).toBe('unknown');
    }
  });

  it('decodes path parameters, and malformed encodings are a bad path', () => {
    const m = routes.match('GET', '/api/v1/products/prd%5Faaaaaaaaaaaa');
    expect(m.kind === 'capability' && m.params.product_id).toBe('prd_aaaaaaaaaaaa');
    expect(routes.match('GET', '/api/v1/products/%E0%A4%A').kind).toBe('bad_path');
  });
});

describe('presented keys', () => {
  it('reads Authorization: Bearer and X-Service-Key identically, never anything else', () => {
    expect(presentedKey({ authorization: 'Bearer sk_x' })).toBe('sk_x');
    expect(presentedKey({ authorization: 'bearer sk_x' })).toBe('sk_x');
    expect(presentedKey({ 'x-service-key': 'sk_x' })).toBe('sk_x');
    expect(presentedKey({ authorization: 'Bearer sk_x', 'x-service-key': 'sk_x' })).toBe('sk_x');
    expect(presentedKey({ authorization: 'Bearer sk_x', 'x-service-key': 'sk_y' })).toBeNull();
    expect(presentedKey({ authorization: 'Basic c2s6eA==' })).toBeNull();
    expect(presentedKey({ authorization: 'Bearer a b' })).toBeNull();
    expect(presentedKey({})).toBeNull();
  });
});

const key = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  keyId: 'aaaaaaaaaaaaaaaa',
  orgId: 'org_a',
  environment: 'live',
  secretHash: '0'.repeat(64),
  scopes: new Set(['products:read', 'watch:manage', 'ledger:read']),
  expiresAt: null,
  revoked: false,
  suspended: false,
  orgSuspended: false,
  plan: { planId: 'p', windows: { minute: 1, hour: 1, day: 1 }, budgets: { product: 1, signal: 1, ingredient: 1 }, watchLimit: 1, capabilities: new Set(['get_product_record', 'list_watched_products']) },
  accountIds: ['acc_1'],
  ...over,
});

describe('authorization order: scope, then plan, then account binding', () => {
  it('refuses a missing scope first, naming it', () => {
    expect(authorizeCapability(key(), capabilities.get_formula_history)).toEqual({ code: 'insufficient_scope', details: { required_scope: 'history:read' } });
  });
  it('a scope grant does not beat the plan', () => {
    expect(authorizeCapability(key(), capabilities.list_ledger_editions)?.code).toBe('plan_entitlement_required');
  });
  it('watch needs exactly one bound account', () => {
    expect(authorizeCapability(key(), capabilities.list_watched_products)).toBeNull();
    expect(authorizeCapability(key({ accountIds: [] }), capabilities.list_watched_products)?.code).toBe('account_binding_required');
    expect(authorizeCapability(key({ accountIds: ['a', 'b'] }), capabilities.list_watched_products)?.code).toBe('account_binding_required');
  });
});

describe('key cache', () => {
  it('serves from memory, evicts on invalidation, and never stores a load that raced an invalidation', async () => {
    let loads = 0;
    let release: (() => void) | null = null;
    const cache = new KeyCache(async (id) => {
      loads++;
      if (id === 'slow' && !release) await new Promise<void>((r) => (release = r));
      return key({ keyId: id });
    });
    cache.setChannelHealthy(true);
    await cache.lookup('k1');
    await cache.lookup('k1');
    expect(loads).toBe(1);
    cache.invalidate('k1');
    await cache.lookup('k1');
    expect(loads).toBe(2);
    cache.invalidate('org:org_a');
    await cache.lookup('k1');
    expect(loads).toBe(3);

    const pending = cache.lookup('slow');
    await new Promise((r) => setTimeout(r, 5));
    cache.invalidate('slow');
    release!();
    await pending;
    // The load that raced the invalidation was not stored: the next lookup reads again.
    await cache.lookup('slow');
    expect(loads).toBe(5);
    await cache.lookup('slow');
    expect(loads).toBe(5);
  });

  it('trusts entries for one second only while the invalidation channel is down', async () => {
    let loads = 0;
    const cache = new KeyCache(async (id) => {
      loads++;
      return key({ keyId: id });
    });
    cache.setChannelHealthy(false);
    const t0 = Date.now();
    await cache.lookup('k', t0);
    await cache.lookup('k', t0 + 500);
    expect(loads).toBe(1);
    await cache.lookup('k', Date.now() + 1500);
    expect(loads).toBe(2);
  });
});

describe('rate-limit headers', () => {
  const w = (name: WindowState['name'], limit: number, used: number, resetMs: number): WindowState => ({ name, limit, used, remaining: Math.max(0, limit - used), resetMs });
  it('report the window closest to exhaustion, by name', () => {
    const windows = [w('minute', 30, 3, 50_000), w('hour', 500, 490, 3_000_000), w('day', 2000, 495, 80_000_000)];
    expect(rateLimitHeaders({ reported: reportedWindow(windows) })).toEqual({ 'RateLimit-Limit': '500', 'RateLimit-Remaining': '10', 'RateLimit-Reset': '3000', 'RateLimit-Policy': 'hour' });
  });
  it('among spent windows, the one that stays spent longest', () => {
    expect(reportedWindow([w('minute', 30, 30, 10_000), w('hour', 500, 500, 900_000), w('day', 2000, 600, 1)]).name).toBe('hour');
  });
});

describe('keys in Redis share a hash tag per key and per organisation', () => {
  it('so each script touches one slot', () => {
    for (const k of rateWindowKeys('p:', 'abc')) expect(k).toContain('{k:abc}');
    const s = scoreKeys('p:', 'org_1', 'abc', '2026-01-01');
    for (const k of [...Object.values(s), budgetKey('p:', 'org_1', '2026-01-01', 'product')]) expect(k).toMatch(/^p:\{o:org_1\}/);
  });
  it('Retry-After for the budget is the time to the next UTC midnight', () => {
    expect(secondsToNextUtcMidnight(Date.UTC(2026, 0, 1, 23, 59, 30))).toBe(30);
    expect(secondsToNextUtcMidnight(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe(86_400);
  });
});

describe('request validation', () => {
  const body = (o: unknown) => Buffer.from(JSON.stringify(o));
  const json = { 'content-type': 'application/json' };
  it('names an unknown property', () => {
    const v = validateRequest(capabilities.resolve_product, {}, '/x', json, body({ identifier: 'a', nope: 1 }));
    expect(v).toMatchObject({ ok: false, details: { location: 'body', field: 'nope' } });
  });
  it('names a field of the wrong type, a bad query parameter and a bad path parameter', () => {
    expect(validateRequest(capabilities.compare_products, {}, '/x', json, body({ product_ids: 'prd_aaaaaaaaaaaa' }))).toMatchObject({ ok: false, details: { field: 'product_ids' } });
    expect(validateRequest(capabilities.list_signal_changes, {}, '/x?limit=26', {}, Buffer.alloc(0))).toMatchObject({ ok: false, details: { location: 'query', field: 'limit' } });
    expect(validateRequest(capabilities.list_signal_changes, {}, '/x?limit=2&limit=3', {}, Buffer.alloc(0))).toMatchObject({ ok: false, details: { field: 'limit' } });
    expect(validateRequest(capabilities.get_product_record, { product_id: 'Brand Name' }, '/x', {}, Buffer.alloc(0))).toMatchObject({ ok: false, details: { location: 'path', field: 'product_id' } });
  });
  it('wants application/json bodies, no body on GET, and a known X-Service-Origin', () => {
    expect(validateRequest(capabilities.resolve_product, {}, '/x', { 'content-type': 'text/plain' }, body({ identifier: 'a' }))).toMatchObject({ ok: false, details: { field: 'content-type' } });
    expect(validateRequest(capabilities.resolve_product, {}, '/x', json, Buffer.from('{"identifier":'))).toMatchObject({ ok: false, details: { field: 'body' } });
    expect(validateRequest(capabilities.get_record_version, {}, '/x', json, body({}))).toMatchObject({ ok: false, details: { field: 'body' } });
    expect(validateRequest(capabilities.get_record_version, {}, '/x', { 'x-service-origin': 'browser' }, Buffer.alloc(0))).toMatchObject({ ok: false, details: { field: 'x-service-origin' } });
    expect(validateRequest(capabilities.get_record_version, {}, '/x', { 'x-service-origin': 'mcp' }, Buffer.alloc(0))).toMatchObject({ ok: true, origin: 'mcp' });
    expect(isJsonContentType('application/json; charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/json; charset=latin1')).toBe(false);
  });
  it('parses repeated query parameters as arrays', () => {
    expect(parseQuery('/x?a=1&a=2&b=3')).toEqual({ a: ['1', '2'], b: '3' });
  });
});

describe('what a request tells the extraction score', () => {
  const input = (over: Partial<{ params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> }>) => ({ params: {}, query: {}, body: undefined, ...over });
  it('a following cursor, a forward since and a plain lookup say nothing', () => {
    expect(observe(capabilities.list_signal_changes, input({ query: { since: '2026-01-01', cursor: 'c' } }), 200, null)).toBeNull();
    expect(observe(capabilities.list_signal_changes, input({ query: {} }), 200, null)).toBeNull();
    expect(observe(capabilities.get_product_record, input({ params: { product_id: 'prd_aaaaaaaaaaaa' } }), 200, null)).toBeNull();
    expect(observe(capabilities.get_category_snapshot, input({ query: { cursor: 'c' } }), 200, null)).toBeNull();
  });
  it('a since is passed on to be compared with the newest this key followed', () => {
    expect(observe(capabilities.list_signal_changes, input({ query: { since: '2026-01-01' } }), 200, null)).toEqual({ kind: 'since', value: '2026-01-01', filter: '|||' });
  });
  it('misses, identifiers and date windows are observed', () => {
    expect(observe(capabilities.get_product_record, input({ params: { product_id: 'prd_nf0000000001' } }), 404, 'not_found')).toEqual({ kind: 'not_found', value: 'prd_nf0000000001' });
    expect(observe(capabilities.resolve_product, input({ body: { identifier: '  Big  BRAND ' } }), 200, null)).toEqual({ kind: 'identifier', value: 'resolve:big brand' });
    expect(observe(capabilities.list_signal_changes, input({ query: { since: '2026-01-01', until: '2026-01-07' } }), 200, null)).toMatchObject({ kind: 'window' });
    expect(observe(capabilities.get_category_snapshot, input({ query: { from: '2026-01-01', to: '2026-01-07' } }), 200, null)).toEqual({ kind: 'window', value: 'snapshot:2026-01-01..2026-01-07' });
    expect(observe(capabilities.get_product_record, input({ params: { product_id: 'prd_aaaaaaaaaaaa' } }), 400, 'invalid_request')).toBeNull();
  });
  it('unwatching an id the Record does not hold is scored like a not-found id; a real unwatch is not', () => {
    const path = input({ params: { product_id: 'prd_zzzzzzzzzzzz' } });
    expect(observe(capabilities.unwatch_product, path, 200, null, 'unsupported')).toEqual({ kind: 'not_found', value: 'prd_zzzzzzzzzzzz' });
    expect(observe(capabilities.unwatch_product, path, 200, null, 'supported')).toBeNull();
  });
});

describe('SettledToday', () => {
  const answer = (over: Partial<Parameters<SettledToday['isRepeat']>[0]> = {}) => ({
    day: '2026-11-22',
    orgId: 'org_aaaaaaaaaaaa',
    keyId: 'key_one',
    kind: 'product' as const,
    limit: 15,
    entities: ['prd_aaaaaaaaaaaa'],
    observation: null,
    ...over,
  });

  it('knows a repeat only after Redis delivered it, for the same day, organisation, kind and limit', () => {
    const s = new SettledToday();
    expect(s.isRepeat(answer())).toBe(false);
    s.remember(answer({ entities: ['prd_aaaaaaaaaaaa', 'prd_bbbbbbbbbbbb'] }));
    expect(s.isRepeat(answer())).toBe(true);
    expect(s.isRepeat(answer({ entities: ['prd_bbbbbbbbbbbb', 'prd_aaaaaaaaaaaa'] }))).toBe(true);
    expect(s.isRepeat(answer({ entities: ['prd_aaaaaaaaaaaa', 'prd_cccccccccccc'] }))).toBe(false);
    expect(s.isRepeat(answer({ day: '2026-11-23' }))).toBe(false);
    expect(s.isRepeat(answer({ orgId: 'org_bbbbbbbbbbbb' }))).toBe(false);
    expect(s.isRepeat(answer({ kind: 'signal' }))).toBe(false);
    // A changed plan limit: Redis decides again.
    expect(s.isRepeat(answer({ limit: 30 }))).toBe(false);
    // A new day forgets the old one.
    s.remember(answer({ day: '2026-11-23', entities: ['prd_dddddddddddd'] }));
    expect(s.isRepeat(answer({ day: '2026-11-23' }))).toBe(false);
  });

  it('skips identifiers and windows seen by the same key, never a not-found id or a feed since', () => {
    const s = new SettledToday();
    const identifier = { kind: 'identifier' as const, value: 'resolve:alpha' };
    s.remember(answer({ observation: identifier }));
    expect(s.isRepeat(answer({ observation: identifier }))).toBe(true);
    expect(s.isRepeat(answer({ observation: identifier, keyId: 'key_two' }))).toBe(false);
    expect(s.isRepeat(answer({ observation: { kind: 'identifier', value: 'resolve:bravo' } }))).toBe(false);
    const notFound = { kind: 'not_found' as const, value: 'prd_zzzzzzzzzzzz' };
    s.remember(answer({ entities: [], observation: notFound }));
    expect(s.isRepeat(answer({ entities: [], observation: notFound }))).toBe(false);
    const since = { kind: 'since' as const, value: '2026-11-01', filter: '|||' };
    s.remember(answer({ kind: 'signal', entities: [], observation: since }));
    expect(s.isRepeat(answer({ kind: 'signal', entities: [], observation: since }))).toBe(false);
  });

  it('forgets what a key or organisation change names, everything on a flush, and skips nothing while the channel is down', () => {
    const s = new SettledToday();
    const identifier = { kind: 'identifier' as const, value: 'resolve:alpha' };
    s.remember(answer({ observation: identifier }));
    s.invalidate('key_one');
    expect(s.isRepeat(answer({ observation: identifier }))).toBe(false);
    expect(s.isRepeat(answer())).toBe(true);
    s.invalidate('org:org_aaaaaaaaaaaa');
    expect(s.isRepeat(answer())).toBe(false);
    s.remember(answer());
    s.setChannelHealthy(false);
    expect(s.isRepeat(answer())).toBe(false);
    s.setChannelHealthy(true);
    expect(s.isRepeat(answer())).toBe(true);
    s.flush();
    expect(s.isRepeat(answer())).toBe(false);
  });

  it('holds at most its bound, forgetting everything rather than growing', () => {
    const s = new SettledToday(3);
    s.remember(answer({ entities: ['prd_aaaaaaaaaaaa', 'prd_bbbbbbbbbbbb', 'prd_cccccccccccc'] }));
    expect(s.size).toBe(3);
    s.remember(answer({ entities: ['prd_dddddddddddd'] }));
    expect(s.size).toBe(1);
    expect(s.isRepeat(answer())).toBe(false);
    expect(s.isRepeat(answer({ entities: ['prd_dddddddddddd'] }))).toBe(true);
  });
});
