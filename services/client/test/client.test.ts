import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes, selfServiceScopes } from '@evidence-record/contract';
import { releaseSignalOn } from '@evidence-record/test-support/client';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { EvidenceRecordClient, EvidenceRecordError, FilePollStore, pollSignals, type Signal } from '../src/index';

/**
 * The client against the whole stack as separate processes (real gateway,
 * services, Postgres, Redis, NATS), with keys issued by the operator CLI.
 */
let stack: RunningStack;
let pro: Awaited<ReturnType<typeof issueKey>>;
let dir: string;

beforeAll(async () => {
  // Only what the client talks to: the gateway and the services behind the capabilities it calls.
  stack = await startStack('client', { services: ['record', 'signals', 'ledger', 'gateway'] });
  pro = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'client pro' });
  dir = await mkdtemp(join(tmpdir(), 'er-client-'));
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const clientFor = (apiKey: string, extra: Partial<ConstructorParameters<typeof EvidenceRecordClient>[0]> = {}) =>
  new EvidenceRecordClient({ baseUrl: stack.baseUrl, apiKey, ...extra });

/** A fetch that counts what reaches the gateway and remembers the headers each request carried. */
function countingFetch() {
  const seen: Array<{ url: string; headers: Headers }> = [];
  const fetch = (request: Request) => {
    seen.push({ url: request.url, headers: request.headers });
    return globalThis.fetch(request);
  };
  return { seen, fetch };
}

describe('the typed client', () => {
  it('sends the key in either header, never in the URL, and reads the answer with its headers', async () => {
    for (const auth of ['bearer', 'service-key'] as const) {
      const spy = countingFetch();
      const client = clientFor(pro.key, { auth, fetch: spy.fetch });
      const { answer, meta } = await client.call('resolve_product', { body: { identifier: 'IV Surge' } });
      expect(answer.status).toBe('supported');
      expect(answer.product?.product_id).toBe('prd_2ywha9ykwyqd');
      expect(answer.coverage?.identifier_normalized).toBe('iv surge');
      expect(meta.status).toBe(200);
      expect(meta.requestId).toBe(answer.request_id);
      expect(meta.rateLimit).toEqual({ limit: expect.any(Number), remaining: expect.any(Number), resetSeconds: expect.any(Number), policy: expect.stringMatching(/^(minute|hour|day)$/) });
      expect(meta.cacheControl).toBe('private, no-store, max-age=0, must-revalidate');
      expect(meta.retried).toBe(false);
      const sent = spy.seen[0]!;
      expect(sent.url).not.toContain(pro.keyId);
      expect(auth === 'bearer' ? sent.headers.get('authorization') : sent.headers.get('x-service-key')).toBe(auth === 'bearer' ? `Bearer ${pro.key}` : pro.key);
      expect(auth === 'bearer' ? sent.headers.get('x-service-key') : sent.headers.get('authorization')).toBeNull();
    }
  });

  it('types every capability from the document: path, query and body go where the operation takes them', async () => {
    const client = clientFor(pro.key);
    const history = await client.call('get_formula_history', { path: { product_id: 'prd_2ywha9ykwyqd' } });
    expect(history.answer.coverage?.depth_class).toBe('TRACKED');
    const compared = await client.call('compare_products', { body: { product_ids: ['prd_2ywha9ykwyqd', 'prd_r8lqu59yxwon'] } });
    expect(compared.answer.comparison?.ingredients.length).toBeGreaterThan(0);
    const editions = await client.call('list_ledger_editions');
    expect(editions.answer.ledger?.editions.map((e) => e.edition_id)).toContain('ed_2026_10');
    const version = await client.call('get_record_version');
    expect(version.answer.coverage?.supported_category).toBe('pre-workout');
  });

  it('throws a refusal with request_id, error.code, HTTP status and details', async () => {
    const client = clientFor(pro.key);
    const missing = await client.call('get_product_record', { path: { product_id: 'prd_zzzzzzzzzzzz' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(EvidenceRecordError);
    const notFound = missing as EvidenceRecordError;
    expect([notFound.status, notFound.code]).toEqual([404, 'not_found']);
    expect(notFound.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(notFound.requestId).toBe(notFound.meta.requestId);
    expect(notFound.details).toEqual({ field: 'product_id' });
    expect(notFound.documentation).toBe('/api/v1/openapi.json#/x-error-codes/not_found');

    const invalid = (await client.call('list_signal_changes', { query: { limit: 26 } }).catch((e: unknown) => e)) as EvidenceRecordError;
    expect([invalid.status, invalid.code, invalid.details.field]).toEqual([400, 'invalid_request', 'limit']);

    // A key of the right shape with a wrong secret: the same 401 as any bad key.
    const wrong = `${pro.key.slice(0, -4)}${pro.key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const refused = (await clientFor(wrong).call('get_record_version').catch((e: unknown) => e)) as EvidenceRecordError;
    expect([refused.status, refused.code]).toEqual([401, 'invalid_credentials']);
    expect(refused.message).not.toContain(wrong);
  });

  it('retries rate_limited exactly once, after Retry-After', async () => {
    const free = await issueKey(stack, { plan: 'free', scopes: [...selfServiceScopes], name: 'client rate' });
    const sleeps: number[] = [];
    const spy = countingFetch();
    // The test's sleep returns at once, so the one retry meets the same full window and is refused again.
    const client = clientFor(free.key, { fetch: spy.fetch, sleep: async (ms) => void sleeps.push(ms) });
    let refusal: EvidenceRecordError | undefined;
    for (let i = 0; i < 40 && !refusal; i++) {
      await client.call('get_record_version').catch((e: unknown) => {
        if (e instanceof EvidenceRecordError) refusal = e;
        else throw e;
      });
    }
    expect(refusal?.code).toBe('rate_limited');
    expect(refusal!.status).toBe(429);
    expect(refusal!.meta.retried).toBe(true);
    expect(refusal!.retryAfterSeconds).toBeGreaterThan(0);
    expect(refusal!.meta.rateLimit?.remaining).toBe(0);
    // Free plan: 30 a minute. The 31st call was refused, slept once for Retry-After, retried once and stopped.
    expect(spy.seen).toHaveLength(32);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect(sleeps[0]! / 1000).toBeLessThanOrEqual(60);
  });

  it('does not retry extraction_limit_reached; it says when the daily budget resets', async () => {
    const free = await issueKey(stack, { plan: 'free', scopes: [...selfServiceScopes], name: 'client budget' });
    const feed = await clientFor(pro.key).call('list_signal_changes', { query: { limit: 25 } });
    const productIds = [...new Set((feed.answer.signals ?? []).map((s) => s.product.product_id))];
    expect(productIds.length).toBeGreaterThan(15);
    const sleeps: number[] = [];
    const spy = countingFetch();
    const client = clientFor(free.key, { fetch: spy.fetch, sleep: async (ms) => void sleeps.push(ms) });
    let refusal: EvidenceRecordError | undefined;
    let calls = 0;
    for (const id of productIds.slice(0, 20)) {
      calls += 1;
      const r = await client.call('get_product_record', { path: { product_id: id } }).catch((e: unknown) => e);
      if (r instanceof EvidenceRecordError) {
        refusal = r;
        break;
      }
    }
    expect(refusal?.code).toBe('extraction_limit_reached');
    expect(refusal!.details).toMatchObject({ budget: 'product', limit: 15 });
    expect(spy.seen).toHaveLength(calls);
    expect(sleeps).toEqual([]);
    const now = new Date();
    const nextUtcMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(Math.abs(refusal!.budgetResetsAt!.getTime() - nextUtcMidnight)).toBeLessThan(5_000);
  });
});

describe('pollSignals', () => {
  it('follows next_cursor to null and never yields a Signal twice across a restart, a new release included', async () => {
    const client = clientFor(pro.key);
    // Start a few pages below the top of the demo feed, so the pass is several pages long.
    const top = (await client.call('list_signal_changes', { query: { limit: 12 } })).answer.signals ?? [];
    const since = top.at(-1)!.review.released_at;
    const expected = (await client.call('list_signal_changes', { query: { since, limit: 25 } })).answer.signals!.map((s) => s.signal_id);
    expect(expected.length).toBeGreaterThanOrEqual(7);

    const file = join(dir, 'poll-state.json');
    const first: Signal[] = [];
    for await (const signal of pollSignals(client, { since, store: new FilePollStore(file), limit: 3 })) {
      first.push(signal);
      if (first.length === 4) break; // stop mid-way, inside the second page
    }
    expect(first.map((s) => s.signal_id)).toEqual(expected.slice(0, 4));

    // A Signal is released while the poller is down.
    const { signalId } = await releaseSignalOn(stack, pro.key, 'prd_2ywha9ykwyqd');

    // A new process: a new client and store on the same file. It finishes the interrupted pass from its cursor.
    const resumed: string[] = [];
    for await (const signal of pollSignals(clientFor(pro.key), { store: new FilePollStore(file), limit: 3 })) resumed.push(signal.signal_id);
    expect(resumed).toEqual(expected.slice(4));

    // The next pass gets exactly the new Signal; the one after gets nothing.
    const next: string[] = [];
    for await (const signal of pollSignals(clientFor(pro.key), { store: new FilePollStore(file), limit: 3 })) next.push(signal.signal_id);
    expect(next).toEqual([signalId]);
    const after: string[] = [];
    for await (const signal of pollSignals(clientFor(pro.key), { store: new FilePollStore(file) })) after.push(signal.signal_id);
    expect(after).toEqual([]);

    const all = [...first.map((s) => s.signal_id), ...resumed, ...next];
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(new Set([...expected, signalId]));
    expect(await new FilePollStore(file).load()).toMatchObject({ since: new Date().toISOString().slice(0, 10), pass: null });
  }, 90_000);
});

describe('pollSignals with a cursor the API no longer accepts', () => {
  it('reads on from the oldest release it yielded, not from the top, and still yields nothing twice', async () => {
    const client = clientFor(pro.key);
    const top = (await client.call('list_signal_changes', { query: { limit: 15 } })).answer.signals ?? [];
    const since = top.at(-1)!.review.released_at;
    const expected = (await client.call('list_signal_changes', { query: { since, limit: 25 } })).answer.signals!.map((s) => s.signal_id);
    const file = join(dir, 'expired-cursor.json');
    const first: Signal[] = [];
    for await (const signal of pollSignals(client, { since, store: new FilePollStore(file), limit: 3 })) {
      first.push(signal);
      if (first.length === 5) break;
    }
    // Stand in for an expired cursor: one the service did not issue is refused the same way (invalid_request).
    const store = new FilePollStore(file);
    const state = (await store.load())!;
    expect(state.pass?.cursor).toBeTruthy();
    await store.save({ ...state, pass: { ...state.pass!, cursor: 'c1.expired.cursor' } });

    const spy = countingFetch();
    const resumed: string[] = [];
    for await (const signal of pollSignals(clientFor(pro.key, { fetch: spy.fetch }), { store: new FilePollStore(file), limit: 3 })) resumed.push(signal.signal_id);
    expect([...first.map((s) => s.signal_id), ...resumed]).toEqual(expected);
    const oldest = first.map((s) => s.review.released_at).sort()[0]!;
    const urls = spy.seen.map((r) => new URL(r.url));
    expect(urls[0]!.searchParams.get('cursor')).toBe('c1.expired.cursor');
    expect(urls.slice(1).every((u) => u.searchParams.get('until') === oldest)).toBe(true);
  }, 60_000);
});

describe('examples/poll-signals.ts', () => {
  it('runs as a newcomer runs it: prints the Signals released since, then nothing new', async () => {
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/poll-signals.ts'], {
        env: { ...process.env, EVIDENCE_RECORD_URL: stack.baseUrl, EVIDENCE_RECORD_KEY: pro.key, SINCE: '2026-11-01', POLL_STATE: join(dir, 'example-state.json') },
      });
    const expected = (await clientFor(pro.key).call('list_signal_changes', { query: { since: '2026-11-01', limit: 25 } })).answer.signals!;
    expect(expected.length).toBeGreaterThan(0);
    const first = await run();
    for (const s of expected) expect(first.stdout).toContain(s.signal_id);
    expect(first.stdout).toContain(`${expected.length} Signal`);
    expect(first.stdout).not.toContain(pro.key);
    const second = await run();
    expect(second.stdout.trim()).toBe('Nothing new since the last run.');
  }, 60_000);
});

describe('FilePollStore', () => {
  it('answers null before the first save, then what was saved, and leaves no temporary file behind', async () => {
    const store = new FilePollStore(join(dir, 'nested', 'state.json'));
    expect(await store.load()).toBeNull();
    const state = { version: 1 as const, filters: {}, since: '2026-11-01', pass: null };
    await store.save(state);
    await store.save({ ...state, since: '2026-11-02' });
    expect(await store.load()).toEqual({ ...state, since: '2026-11-02' });
    expect(await readdir(join(dir, 'nested'))).toEqual(['state.json']);
  });

  it('refuses a store written for other filters (a cursor is bound to its filters)', async () => {
    const store = new FilePollStore(join(dir, 'filters.json'));
    await store.save({ version: 1, filters: { dimension: 'price' }, since: null, pass: null });
    const poll = pollSignals(clientFor(pro.key), { store, dimension: 'formula' });
    await expect(poll.next()).rejects.toThrow(/other filters/);
  });
});
