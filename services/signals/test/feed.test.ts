import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerEnvelope, CURSOR_TTL_SECONDS, DEFAULT_PAGE_SIZE, ErrorEnvelope } from '@evidence-record/contract';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { correctSignal, importCaptures, openCandidate, refuseCandidate, releaseSignals, withdrawSignal } from '@evidence-record/curation';
import { issueCursor } from '../src/index';
import { approvedFormulaChanges, createCatalogue, preservedHash, preservedPath, priceCapture, type FixtureProduct } from '@evidence-record/test-support/signals-fixtures';
import { PUBLIC_BASE_URL, startSignals, type InProcessSignals } from './support/server';

/**
 * The Signal feed and explain_signal over HTTP, in process, against a real
 * Record built through the curation functions. Every 200 answer is checked
 * against the contract's envelope, every refusal against the error envelope.
 */
let db: TestDatabase;
let svc: InProcessSignals;
let products: FixtureProduct[];
const release = (date: string) => releaseSignals(svc.pool, { releasedBy: 'feed-test', publicBaseUrl: PUBLIC_BASE_URL, clock: () => new Date(`${date}T09:00:00Z`) });

type Signal = { signal_id: string; review: { released_at: string }; status: string; dimension: string; product: { product_id: string; brand_id: string }; signal_url: string; corrections: unknown[] };

async function answer(path: string): Promise<AnswerEnvelope & { signals: Signal[] }> {
  const res = await svc.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const parsed = AnswerEnvelope.parse(res.body);
  expect(res.headers.get('cache-control')).toBe('private, no-store, max-age=0, must-revalidate');
  return parsed as AnswerEnvelope & { signals: Signal[] };
}

async function refusal(path: string, status: number) {
  const res = await svc.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return ErrorEnvelope.parse(res.body);
}

/** Reads every page of the feed for one query, following next_cursor until null. */
async function readAll(query: string, limit: number, between?: (page: number) => Promise<void>): Promise<Signal[]> {
  const out: Signal[] = [];
  let cursor: string | null = null;
  let page = 0;
  do {
    const sep = query ? '&' : '';
    const a = await answer(`/api/v1/signals?${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(a.signals.length).toBeLessThanOrEqual(limit);
    out.push(...a.signals);
    cursor = a.next_cursor ?? null;
    page++;
    if (between) await between(page);
  } while (cursor);
  return out;
}

beforeAll(async () => {
  db = await emptyDatabase();
  svc = await startSignals(db.url);
  products = await createCatalogue(svc.pool, { brands: 2, productsPerBrand: 2 });
});

afterAll(async () => {
  await svc?.close();
  await db?.drop();
});

describe('polling with since: every Signal once, none twice, under interleaved releases', () => {
  it('delivers each released Signal exactly once to a since-poller, including releases during pagination and later the same day', async () => {
    const delivered: string[] = [];
    let since: string | null = null;
    const poll = async (limit: number, between?: (page: number) => Promise<void>) => {
      const got = await readAll(since ? `since=${since}` : '', limit, between);
      delivered.push(...got.map((s) => s.signal_id));
      // The documented pattern: store the newest review.released_at processed.
      for (const s of got) if (!since || s.review.released_at > since) since = s.review.released_at;
      return got;
    };

    expect(await poll(3)).toEqual([]);

    const b1 = await approvedFormulaChanges(svc.pool, [products[0]!], 4, '2026-01-05');
    await release('2031-05-01');
    expect((await poll(3)).map((s) => s.signal_id).sort()).toEqual([...b1.signal_ids].sort());

    // Approved later the same day: the day's batch is final, so they wait for the next date.
    const b2 = await approvedFormulaChanges(svc.pool, [products[1]!], 3, '2026-01-05');
    await expect(releaseSignals(svc.pool, { releasedBy: 'x', publicBaseUrl: PUBLIC_BASE_URL, clock: () => new Date('2031-05-01T18:00:00Z') })).rejects.toThrow(/already has a release batch/);
    expect(await poll(3)).toEqual([]);
    await release('2031-05-02');

    // A release lands while the poller is between pages: the keyset cursor is unaffected,
    // the new batch (a later date) is only at the top, and the next poll picks it up.
    const b3 = await approvedFormulaChanges(svc.pool, [products[2]!], 2, '2026-01-05');
    let b3Released = false;
    const got2 = await poll(2, async (page) => {
      if (page === 1 && !b3Released) {
        await release('2031-05-03');
        b3Released = true;
      }
    });
    expect(b3Released).toBe(true);
    expect(got2.map((s) => s.signal_id).sort()).toEqual([...b2.signal_ids].sort());
    expect(since).toBe('2031-05-02');
    expect((await poll(2)).map((s) => s.signal_id).sort()).toEqual([...b3.signal_ids].sort());

    // Corrections and withdrawals keep the release date: nothing reappears.
    await correctSignal(svc.pool, { signal_id: b1.signal_ids[0]!, note: 'The new amount is 165 mg.', operatorNote: 'operator-only remark' });
    await withdrawSignal(svc.pool, { signal_id: b2.signal_ids[0]!, note: 'Withdrawn: duplicate.' });
    expect(await poll(2)).toEqual([]);

    const all = [...b1.signal_ids, ...b2.signal_ids, ...b3.signal_ids];
    expect(delivered).toHaveLength(all.length);
    expect(new Set(delivered).size).toBe(all.length);
    expect([...delivered].sort()).toEqual([...all].sort());
  });

  it('orders the feed by release date, newest first, ties by Signal id descending, with no gap or repeat across pages', async () => {
    const pages = await readAll('', 4);
    const whole = await answer('/api/v1/signals?limit=25');
    expect(pages.map((s) => s.signal_id)).toEqual(whole.signals.map((s) => s.signal_id));
    const keys = pages.map((s) => `${s.review.released_at}|${s.signal_id}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(whole.next_cursor).toBeNull();
  });

  it(`defaults to ${DEFAULT_PAGE_SIZE} per page and refuses more than 25`, async () => {
    await approvedFormulaChanges(svc.pool, [products[2]!], 2, '2026-02-02');
    await release('2031-05-04');
    expect((await readAll('', 25)).length).toBeGreaterThan(DEFAULT_PAGE_SIZE);
    const a = await answer('/api/v1/signals');
    expect(a.signals).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(typeof a.next_cursor).toBe('string');
    const r = await refusal('/api/v1/signals?limit=26', 400);
    expect(r.error.code).toBe('invalid_request');
    expect(r.error.details.field).toBe('limit');
  });
});

describe('filters', () => {
  it('since is exclusive and until inclusive; product, brand, dimension and category narrow the feed', async () => {
    const onDay = await readAll('since=2031-05-01&until=2031-05-02', 25);
    expect(new Set(onDay.map((s) => s.review.released_at))).toEqual(new Set(['2031-05-02']));
    const p = products[0]!;
    const byProduct = await readAll(`product_id=${p.product_id}`, 25);
    expect(byProduct.length).toBe(4);
    expect(byProduct.every((s) => s.product.product_id === p.product_id)).toBe(true);
    const byBrand = await readAll(`brand=${products[2]!.brand_id}`, 25);
    expect(byBrand.length).toBe(4);
    expect(byBrand.every((s) => s.product.brand_id === products[2]!.brand_id)).toBe(true);
    expect((await readAll('dimension=formula&category=pre-workout', 25)).length).toBe(11);
    // An unknown value is a fact about the Record (nothing matches), not an error.
    const none = await answer('/api/v1/signals?dimension=colour');
    expect(none.signals).toEqual([]);
    expect(none.status).toBe('supported');
    expect((await refusal('/api/v1/signals?brand=Fixture%20Brand', 400)).error.details.field).toBe('brand');
    expect((await refusal('/api/v1/signals?since=2031-05-03&until=2031-05-01', 400)).error.code).toBe('invalid_request');
    expect((await refusal('/api/v1/signals?sort=asc', 400)).error.code).toBe('invalid_request');
  });

  it('answers every combination of filters, paged one Signal at a time, exactly as the unfiltered feed narrowed by hand', async () => {
    const everything = await readAll('', 25);
    const p = products[0]!;
    const brand = products[2]!.brand_id;
    const options: Array<[string, (s: Signal) => boolean]> = [
      ['since=2031-05-01', (s) => s.review.released_at > '2031-05-01'],
      ['until=2031-05-02', (s) => s.review.released_at <= '2031-05-02'],
      [`product_id=${p.product_id}`, (s) => s.product.product_id === p.product_id],
      [`brand=${brand}`, (s) => s.product.brand_id === brand],
      ['dimension=formula', (s) => s.dimension === 'formula'],
    ];
    for (let mask = 0; mask < 1 << options.length; mask++) {
      const chosen = options.filter((_, i) => mask & (1 << i));
      const query = chosen.map(([q]) => q).join('&');
      const expected = everything.filter((s) => chosen.every(([, keep]) => keep(s))).map((s) => s.signal_id);
      expect((await readAll(query, 1)).map((s) => s.signal_id), query || '(no filter)').toEqual(expected);
    }
  });

  it('follows a product filed under another brand: its Signals leave the old brand and join the new one', async () => {
    const moved = products[0]!;
    const otherBrand = products[2]!.brand_id;
    const before = (await readAll(`brand=${otherBrand}`, 25)).length;
    const ofMoved = (await readAll(`product_id=${moved.product_id}`, 25)).length;
    expect(ofMoved).toBeGreaterThan(0);
    await svc.pool.query('UPDATE products SET brand_id = $1 WHERE product_id = $2', [otherBrand, moved.product_id]);
    try {
      const after = await readAll(`brand=${otherBrand}`, 25);
      expect(after.length).toBe(before + ofMoved);
      expect(after.every((s) => s.product.brand_id === otherBrand)).toBe(true);
      expect((await readAll(`brand=${moved.brand_id}`, 25)).some((s) => s.product.product_id === moved.product_id)).toBe(false);
    } finally {
      await svc.pool.query('UPDATE products SET brand_id = $1 WHERE product_id = $2', [moved.brand_id, moved.product_id]);
    }
    expect((await readAll(`brand=${otherBrand}`, 25)).length).toBe(before);
  });
});

describe('cursors the service did not issue for this request', () => {
  it('refuses forged, tampered, other-filter, other-capability and stale cursors with invalid_request naming the cursor', async () => {
    const first = await answer('/api/v1/signals?dimension=formula&limit=2');
    const good = first.next_cursor!;
    expect((await answer(`/api/v1/signals?dimension=formula&limit=2&cursor=${encodeURIComponent(good)}`)).signals).toHaveLength(2);

    const position = { released_on: '2031-05-02', signal_id: first.signals[1]!.signal_id };
    const [body, sig] = good.split('.') as [string, string];
    const moved = JSON.parse(Buffer.from(body, 'base64url').toString());
    moved.r = '2031-06-01';
    const cases: Record<string, [string, string]> = {
      forged: ['dimension=formula', issueCursor({ secret: 'f'.repeat(64), kind: 'feed', filters: { dimension: 'formula' } }, position)],
      tampered: ['dimension=formula', `${Buffer.from(JSON.stringify(moved)).toString('base64url')}.${sig}`],
      other_filters: ['dimension=serving', good],
      filters_dropped: ['', good],
      other_capability: ['dimension=formula', issueCursor({ secret: svc.cursorSecret, kind: 'snapshot', filters: { dimension: 'formula' } }, position)],
      stale: ['dimension=formula', issueCursor({ secret: svc.cursorSecret, kind: 'feed', filters: { dimension: 'formula' }, nowSeconds: Math.floor(Date.now() / 1000) - CURSOR_TTL_SECONDS - 3600 }, position)],
      garbage: ['dimension=formula', 'not-a-cursor'],
    };
    for (const [name, [query, cursor]] of Object.entries(cases)) {
      const r = await refusal(`/api/v1/signals?${query}${query ? '&' : ''}cursor=${encodeURIComponent(cursor)}`, 400);
      expect(r.error.code, name).toBe('invalid_request');
      expect(r.error.details.field, name).toBe('cursor');
    }
    // The same cursor, re-signed with the service's own secret and fresh, is accepted: the refusals above are about provenance.
    const fresh = issueCursor({ secret: svc.cursorSecret, kind: 'feed', filters: { dimension: 'formula' } }, position);
    expect((await answer(`/api/v1/signals?dimension=formula&cursor=${encodeURIComponent(fresh)}`)).status).toBe('supported');
  });
});

describe('explain_signal', () => {
  it('answers an unreleased, refused, open or invented id with the same 404, apart from the request id', async () => {
    const pending = await approvedFormulaChanges(svc.pool, [products[3]!], 2, '2026-03-02');
    const [approvedUnreleased] = pending.signal_ids as [string];
    const { rows } = await svc.pool.query<{ state_id: string }>('SELECT state_id FROM history_states WHERE product_id = $1 ORDER BY observed_from', [products[3]!.product_id]);
    // A refused candidate and an open one: neither is ever a Signal.
    const refused = await openCandidate(svc.pool, { product_id: products[3]!.product_id, dimension: 'formula', before_state_id: rows[0]!.state_id, after_state_id: rows[2]!.state_id, summary: 'Caffeine 150 → 170 mg over two steps.' });
    await refuseCandidate(svc.pool, { candidate_id: refused.candidate_id, reviewer: 'r', note: 'Not one change.' });

    const bodies = [];
    for (const id of [approvedUnreleased, 'sig_zzzzzzzzzzzz', `sig_${String(refused.candidate_id).padStart(12, '0')}`]) {
      const res = await svc.get(`/api/v1/signals/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('x-budget-entities')).toBeNull();
      const { request_id: _ignored, ...rest } = ErrorEnvelope.parse(res.body);
      bodies.push(rest);
    }
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[2]).toEqual(bodies[1]);
    expect(bodies[1]!.error.code).toBe('not_found');
    // The unreleased Signal is not in the feed either.
    expect((await readAll('', 25)).map((s) => s.signal_id)).not.toContain(approvedUnreleased);
  });

  it('explains a released Signal: both sides, the differing declarations, window, evidence, release date and permanent address', async () => {
    const [s] = (await readAll(`product_id=${products[0]!.product_id}`, 25)).filter((x) => x.status === 'released');
    const res = await svc.get(`/api/v1/signals/${s!.signal_id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-budget-entities')).toBe(s!.signal_id);
    const a = AnswerEnvelope.parse(res.body);
    const sig = a.signals![0]!;
    expect(sig.signal_url).toBe(`${PUBLIC_BASE_URL}/api/v1/signals/${s!.signal_id}`);
    expect(sig.review.released_at).toBe('2031-05-01');
    expect(sig.observation_window.exact_change_date).toBeNull();
    expect(sig.before!.state!.observed_to).toBe(sig.observation_window.start);
    expect(sig.after!.state!.observed_from).toBe(sig.observation_window.end);
    expect(sig.before!.declared_ingredients!.map((d) => d.value.ingredient_id)).toEqual(['ing_caffeine']);
    expect(sig.after!.declared_ingredients!.map((d) => d.value.ingredient_id)).toEqual(['ing_caffeine']);
    expect(sig.before!.declared_ingredients![0]!.value.amount).not.toBe(sig.after!.declared_ingredients![0]!.value.amount);
    expect(sig.evidence!.map((e) => e.observed_at)).toEqual(expect.arrayContaining([sig.observation_window.start, sig.observation_window.end]));
    expect(sig.evidence!.every((e) => e.url.startsWith('https://fixture.example/'))).toBe(true);
    expect(a.history!.map((h) => h.state_id)).toEqual([sig.before!.state_id, sig.after!.state_id]);
  });

  it('after a correction or withdrawal keeps id, address and release date and says what happened, never the operator note', async () => {
    const corrected = (await readAll(`product_id=${products[0]!.product_id}`, 25)).find((x) => x.status === 'corrected')!;
    const withdrawn = (await readAll(`product_id=${products[1]!.product_id}`, 25)).find((x) => x.status === 'withdrawn')!;
    for (const [s, kind] of [[corrected, 'correction'], [withdrawn, 'withdrawal']] as const) {
      const res = await svc.get(`/api/v1/signals/${s.signal_id}`);
      const a = AnswerEnvelope.parse(res.body);
      const sig = a.signals![0]!;
      expect(sig.signal_id).toBe(s.signal_id);
      expect(sig.signal_url).toBe(`${PUBLIC_BASE_URL}/api/v1/signals/${s.signal_id}`);
      expect(sig.review.released_at).toBe(s.review.released_at);
      expect(sig.corrections.map((c) => c.kind)).toEqual([kind]);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain('operator-only remark');
      expect(text).not.toContain('review note');
      expect(text).not.toContain('s3://preserved-sources');
      expect(text).not.toMatch(/[0-9a-f]{64}/);
    }
  });

  it('explains a price Signal with the two list prices and price per serving as calculations', async () => {
    const p = products[3]!;
    await importCaptures(svc.pool, {
      captures: [priceCapture(p, '2026-04-01', 'shelfwise', 4500, 'list'), priceCapture(p, '2026-04-08', 'shelfwise', 2999, 'promotional'), priceCapture(p, '2026-05-01', 'shelfwise', 5100, 'list')],
    });
    const { rows } = await svc.pool.query<{ observation_id: number }>(`SELECT observation_id FROM price_observations WHERE product_id = $1 AND price_basis = 'list' ORDER BY observed_at`, [p.product_id]);
    const c = await openCandidate(svc.pool, { product_id: p.product_id, dimension: 'price', before_price_id: rows[0]!.observation_id, after_price_id: rows[1]!.observation_id, summary: 'List price $45.00 → $51.00 at Shelfwise.' });
    const { approveCandidate } = await import('@evidence-record/curation');
    const { signal_id } = await approveCandidate(svc.pool, { candidate_id: c.candidate_id, reviewer: 'r', note: 'list prices both sides' });
    await release('2031-05-06');
    const a = AnswerEnvelope.parse((await svc.get(`/api/v1/signals/${signal_id}`)).body);
    const sig = a.signals![0]!;
    expect(sig.dimension).toBe('price');
    expect(sig.before!.list_prices!.map((x) => [x.price.amount, x.price_basis])).toEqual([[45, 'list']]);
    expect(sig.after!.list_prices!.map((x) => [x.price.amount, x.price_basis])).toEqual([[51, 'list']]);
    expect(a.commercial_facts.every((f) => f.price_basis === 'list')).toBe(true);
    expect(a.calculations.map((x) => x.result)).toEqual([1.5, 1.7]);
    expect(a.calculations.every((x) => x.name === 'price_per_serving' && x.operands.length === 2)).toBe(true);
    expect(JSON.stringify(a)).not.toContain(preservedPath(p.product_id, '2026-04-01-shelfwise'));
    expect(JSON.stringify(a)).not.toContain(preservedHash(p.product_id, '2026-04-01-shelfwise'));
  });

  it('refuses a malformed id as invalid_request naming the field', async () => {
    expect((await refusal('/api/v1/signals/Ironvale', 400)).error.details.field).toBe('signal_id');
  });
});
