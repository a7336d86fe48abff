import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { addSource, claimHost, leaseDue, performCheck, releaseHost, runOnce, startLoop, LeaseLost, policyOf, type CheckRecorder, type MonitorSettings } from '@evidence-record/sources';
import { dsldLabel, startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { waitFor } from '@evidence-record/test-support/wait';
import { localhostOnly, product, testMonitor, testSettings } from './support';

/**
 * The monitor against a real, empty Record and a local source server that
 * plays DSLD and a retailer, changing between checks.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
/** The local stack's settings, with DSLD at the fixture server (a dsld_label source elsewhere is refused). */
let settings: MonitorSettings;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 8 });
  src = await startSourceServer();
  settings = testSettings({ DSLD_BASE_URL: `${src.origin}/dsld/v9` });
  await pool.query(`INSERT INTO ingredients (ingredient_id, name) VALUES ('ing_caffeine', 'Caffeine'), ('ing_beta_alanine', 'Beta-Alanine')`);
  await pool.query(`INSERT INTO ingredient_synonyms (synonym, synonym_norm, ingredient_id) VALUES ('Caffeine Anhydrous', 'caffeine anhydrous', 'ing_caffeine')`);
});

afterAll(async () => {
  await src?.close();
  await pool?.end();
  await db?.drop();
});

async function states(productId: string) {
  const { rows } = await pool.query('SELECT state_id, observed_from, observed_to FROM history_states WHERE product_id = $1 ORDER BY observed_from, observed_to', [productId]);
  return rows;
}
async function checks(sourceId: number) {
  const { rows } = await pool.query('SELECT outcome, recovered, reason, http_status FROM monitoring_checks WHERE source_id = $1 ORDER BY check_id', [sourceId]);
  return rows;
}
async function candidates(productId: string) {
  const { rows } = await pool.query('SELECT dimension, status, before_state_id, after_state_id, before_price_id, after_price_id, window_start, window_end, exact_change_date, opened_by FROM candidates WHERE product_id = $1 ORDER BY candidate_id', [productId]);
  return rows;
}

describe('DSLD labels', () => {
  it('reads a label into a history state, extends it on the same reading (304), and opens one candidate when it changes', async () => {
    const p = await product(pool, 'Label Flow');
    src.labels.set(1001, dsldLabel({ id: 1001, brand: 'Testbrand Labs', name: 'Label Flow', caffeineMg: 200, blend: { name: 'Pump Matrix', totalMg: 1500, members: ['L-Citrulline', 'Agmatine Sulfate'] }, emptyQuantity: 'Black Pepper Extract' }));
    src.labels.set(1002, dsldLabel({ id: 1002, brand: 'Testbrand Labs', name: 'NP Flow', caffeineMg: null }));
    const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(1001) }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);

    day('2026-03-02');
    expect(await runOnce(deps, { productId: p })).toEqual({ checked: 1, valid: 1, empty: 0, unreadable: 0, recovered: 0, states_created: 1, prices_recorded: 0, candidates_opened: 0 });
    const [first] = await states(p);
    const lines = await pool.query('SELECT d.declared_name, d.ingredient_id, d.amount, d.unit, b.name AS blend, b.total_amount FROM declared_ingredients d LEFT JOIN declared_blends b ON b.blend_id = d.blend_id WHERE d.state_id = $1 ORDER BY position', [first.state_id]);
    expect(lines.rows).toEqual([
      { declared_name: 'Beta-Alanine', ingredient_id: 'ing_beta_alanine', amount: 3200, unit: 'mg', blend: null, total_amount: null },
      { declared_name: 'Caffeine Anhydrous', ingredient_id: 'ing_caffeine', amount: 200, unit: 'mg', blend: null, total_amount: null },
      // Undisclosed blend members: amount null, never 0.
      { declared_name: 'L-Citrulline', ingredient_id: null, amount: null, unit: null, blend: 'Pump Matrix', total_amount: 1500 },
      { declared_name: 'Agmatine Sulfate', ingredient_id: null, amount: null, unit: null, blend: 'Pump Matrix', total_amount: 1500 },
      // An empty quantity list: named, amount null.
      { declared_name: 'Black Pepper Extract', ingredient_id: null, amount: null, unit: null, blend: null, total_amount: null },
    ]);
    const facts = await pool.query(`SELECT source_facts FROM captures WHERE source_id = $1`, [source_id]);
    expect(facts.rows[0].source_facts).toMatchObject({ dsld_label_id: 1001, product_version_code: '1', events: [{ date: '2026-01-15', type: 'Date entered into DSLD' }], off_market: false });
    expect((await pool.query('SELECT depth_class FROM products WHERE product_id = $1', [p])).rows[0].depth_class).toBe('TRACKED');

    // The same label a week later: the server answers 304 to the kept ETag; nothing new, the state extends.
    day('2026-03-09');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, states_created: 0, candidates_opened: 0 });
    expect(await states(p)).toEqual([{ state_id: first.state_id, observed_from: '2026-03-02', observed_to: '2026-03-09' }]);
    expect((await checks(source_id)).map((c) => c.http_status)).toEqual([200, 304]);

    // The label changes: one new state, one formula candidate between the two, window from the last old reading to the first new one.
    src.labels.set(1001, dsldLabel({ id: 1001, brand: 'Testbrand Labs', name: 'Label Flow', caffeineMg: 250, blend: { name: 'Pump Matrix', totalMg: 1500, members: ['L-Citrulline', 'Agmatine Sulfate'] }, emptyQuantity: 'Black Pepper Extract' }));
    day('2026-03-16');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ checked: 1, valid: 1, states_created: 1, candidates_opened: 1 });
    const [, second] = await states(p);
    expect(await candidates(p)).toEqual([
      { dimension: 'formula', status: 'open', before_state_id: first.state_id, after_state_id: second.state_id, before_price_id: null, after_price_id: null, window_start: '2026-03-09', window_end: '2026-03-16', exact_change_date: null, opened_by: 'monitor' },
    ]);
    // Evidence: one row per distinct content read, however many checks read it.
    const ev = await pool.query(`SELECT count(*)::int AS n FROM evidence WHERE kind = 'dsld_label'`);
    expect(ev.rows[0].n).toBe(2);
    // Candidates stay invisible to answers until reviewed: nothing but the operator side sees them (no Signal exists).
    expect((await pool.query('SELECT count(*)::int AS n FROM signals WHERE product_id = $1', [p])).rows[0].n).toBe(0);

    // DSLD marks the product off the market: a candidate for review, never an automatic retirement.
    src.labels.set(1001, dsldLabel({ id: 1001, brand: 'Testbrand Labs', name: 'Label Flow', caffeineMg: 250, blend: { name: 'Pump Matrix', totalMg: 1500, members: ['L-Citrulline', 'Agmatine Sulfate'] }, emptyQuantity: 'Black Pepper Extract', offMarket: true }));
    day('2026-03-23');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, states_created: 1, candidates_opened: 1 });
    expect((await candidates(p)).map((c) => [c.dimension, c.opened_by])).toEqual([['formula', 'monitor'], ['identity', 'monitor']]);
    expect((await pool.query('SELECT retired_on FROM products WHERE product_id = $1', [p])).rows[0].retired_on).toBeNull();

    // "NP" with quantity 0 is amount null.
    const np = await product(pool, 'NP Flow');
    await addSource(pool, { product_id: np, kind: 'dsld_label', url: src.labelUrl(1002) }, policyOf(settings));
    await runOnce(deps, { productId: np });
    const npLines = await pool.query(`SELECT d.declared_name, d.amount FROM declared_ingredients d JOIN history_states h ON h.state_id = d.state_id WHERE h.product_id = $1 ORDER BY position`, [np]);
    expect(npLines.rows).toEqual([{ declared_name: 'Beta-Alanine', amount: 3200 }, { declared_name: 'Caffeine Anhydrous', amount: null }]);
    await deps.close();
  });
});

describe('offer pages', () => {
  it('records list and promotional prices; only a list-price change opens a candidate', async () => {
    const p = await product(pool, 'Offer Flow');
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 49.99, listPrice: 49.99 });
    const { source_id } = await addSource(pool, { product_id: p, kind: 'offer_page', url: src.offerUrl('shelfwise', 'offer-flow'), retailer: 'Shelfwise' }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);
    const prices = async () => (await pool.query('SELECT observed_at, price_cents, price_basis FROM price_observations WHERE source_id = $1 ORDER BY observation_id', [source_id])).rows;

    day('2026-04-01');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, prices_recorded: 1, candidates_opened: 0 });
    // A promotion starts (sale price beside the marked list price), changes, and ends: recorded, never a candidate.
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 39.99, listPrice: 49.99, strikethrough: true });
    day('2026-04-08');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, prices_recorded: 2, candidates_opened: 0 });
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 34.99, listPrice: 49.99 });
    day('2026-04-15');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, prices_recorded: 2, candidates_opened: 0 });
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 49.99, listPrice: 49.99 });
    day('2026-04-22');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, prices_recorded: 1, candidates_opened: 0 });
    expect(await candidates(p)).toEqual([]);
    // The list price moves: one price candidate between the two list observations.
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 54.99, listPrice: 54.99 });
    day('2026-04-29');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ valid: 1, prices_recorded: 1, candidates_opened: 1 });
    expect(await prices()).toEqual([
      { observed_at: '2026-04-01', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-04-08', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-04-08', price_cents: 3999, price_basis: 'promotional' },
      { observed_at: '2026-04-15', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-04-15', price_cents: 3499, price_basis: 'promotional' },
      { observed_at: '2026-04-22', price_cents: 4999, price_basis: 'list' },
      { observed_at: '2026-04-29', price_cents: 5499, price_basis: 'list' },
    ]);
    expect(await candidates(p)).toMatchObject([{ dimension: 'price', status: 'open', window_start: '2026-04-22', window_end: '2026-04-29', opened_by: 'monitor' }]);

    // A lone unmarked price is observed, never called list; another currency is empty with a reason.
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 51.0 });
    day('2026-05-06');
    await runOnce(deps, { productId: p });
    expect((await prices()).at(-1)).toEqual({ observed_at: '2026-05-06', price_cents: 5100, price_basis: 'unspecified' });
    src.offers.set('shelfwise/offer-flow', { name: 'Offer Flow', price: 51.0, currency: 'EUR' });
    day('2026-05-13');
    expect(await runOnce(deps, { productId: p })).toMatchObject({ empty: 1 });
    expect((await checks(source_id)).at(-1)).toMatchObject({ outcome: 'empty', reason: expect.stringMatching(/EUR, not USD/) });
    await deps.close();
  });
});

describe('unreadable sources', () => {
  it('records 500, 429 with Retry-After, timeouts, malformed JSON, oversized bodies, redirect loops and robots disallow as unreadable, 404 as empty, and the first valid check after them as recovered', async () => {
    const p = await product(pool, 'Flaky Flow');
    src.labels.set(2001, dsldLabel({ id: 2001, brand: 'Testbrand Labs', name: 'Flaky Flow', caffeineMg: 180 }));
    const path = '/dsld/v9/label/2001';
    const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(2001) }, policyOf(settings));
    const { deps, day } = testMonitor(pool, settings);
    const step = async (d: string) => {
      day(d);
      await runOnce(deps, { productId: p, deadlineMs: 10_000 });
      return (await checks(source_id)).at(-1);
    };

    src.behaviours.set(path, { status: 500, body: 'oops', times: 1 });
    expect(await step('2026-06-01')).toMatchObject({ outcome: 'unreadable', http_status: 500, reason: 'server error (500)' });
    const health = await pool.query('SELECT health, consecutive_unreadable, last_outcome FROM sources WHERE source_id = $1', [source_id]);
    expect(health.rows[0]).toEqual({ health: 'unreadable', consecutive_unreadable: 1, last_outcome: 'unreadable' });

    src.behaviours.set(path, { status: 429, headers: { 'retry-after': '1' }, body: '', times: 1 });
    expect(await step('2026-06-02')).toMatchObject({ outcome: 'unreadable', http_status: 429, reason: 'rate limited (429)' });
    const slot = await pool.query(`SELECT next_allowed_at > now() + interval '500 milliseconds' AS waits FROM host_slots WHERE host = $1`, [`127.0.0.1:${src.port}`]);
    expect(slot.rows[0].waits).toBe(true);
    // Let the Retry-After second pass: the next check may not go to the host before it.
    await new Promise((r) => setTimeout(r, 1_100));

    src.behaviours.set(path, { delayMs: 2_000, status: 200, body: '{}', times: 1 });
    expect(await step('2026-06-03')).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^timeout/) });
    src.behaviours.set(path, { status: 200, body: '{"id": 2001, "ingredientRows": [', times: 1 });
    expect(await step('2026-06-04')).toMatchObject({ outcome: 'unreadable', reason: 'malformed JSON' });
    src.behaviours.set(path, { bytes: 1_000_000, times: 1 });
    expect(await step('2026-06-05')).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^oversized/) });
    src.behaviours.set(path, { redirectTo: path, times: 10 });
    expect(await step('2026-06-06')).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^too_many_redirects/) });
    src.behaviours.delete(path);
    src.robots.body = 'User-agent: EvidenceRecordMonitor\nDisallow: /dsld/\n';
    expect(await step('2026-06-07')).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/robots\.txt/) });
    expect(src.hits.get(path) ?? 0).toBeGreaterThan(0);
    const before = src.hits.get(path);
    src.robots.body = null;
    src.behaviours.set(path, { status: 404, body: '{"error":"not found"}', times: 1 });
    expect(await step('2026-06-08')).toMatchObject({ outcome: 'empty', http_status: 404 });
    expect(src.hits.get(path)).toBe((before ?? 0) + 1);
    expect(await step('2026-06-09')).toMatchObject({ outcome: 'valid', recovered: true });
    expect((await checks(source_id)).filter((c) => c.recovered)).toHaveLength(1);
    const after = await pool.query('SELECT health, consecutive_unreadable FROM sources WHERE source_id = $1', [source_id]);
    expect(after.rows[0]).toEqual({ health: 'readable', consecutive_unreadable: 0 });
    await deps.close();
  });
});

describe('SSRF guard', () => {
  it('refuses private, link-local and loopback addresses at source add, by name, and after a redirect', async () => {
    const p = await product(pool, 'Guard Flow');
    const policy = policyOf(settings);
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.8/label', 'http://[::1]:8080/', `http://[::127.0.0.1]:${src.port}/`, 'http://[::ffff:7f00:1]/', 'http://127.0.0.2/', 'file:///etc/passwd', `http://localhost:${src.port}/`]) {
      await expect(addSource(pool, { product_id: p, kind: 'offer_page', url }, policy)).rejects.toThrow(/public address|names this machine|only http/);
    }
    // A name that resolves to 127.0.0.1 is refused, even where http://127.0.0.1 itself is admitted.
    await expect(addSource(pool, { product_id: p, kind: 'offer_page', url: `http://shop.rebind.test:${src.port}/shop/a/b` }, policy, localhostOnly)).rejects.toThrow(/resolves to 127\.0\.0\.1/);

    // At fetch time: a redirect to the metadata address is refused before it is requested.
    src.labels.set(3001, dsldLabel({ id: 3001, brand: 'Testbrand Labs', name: 'Guard Flow', caffeineMg: 100 }));
    const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(3001) }, policy);
    src.behaviours.set('/dsld/v9/label/3001', { redirectTo: 'http://169.254.169.254/latest/meta-data/', times: 1 });
    const { deps } = testMonitor(pool, settings);
    await runOnce(deps, { productId: p });
    expect((await checks(source_id)).at(-1)).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^refused_address/) });
    // And a name that a resolver answers with 127.0.0.1 at fetch time (DNS rebinding after the add).
    const rebinding = testMonitor(pool, settings, { resolve: localhostOnly });
    const bad = await rebinding.deps.fetcher.get(`http://rebound.test:${src.port}/dsld/v9/label/3001`).catch((e: Error) => e);
    expect(bad).toMatchObject({ code: 'refused_address' });
    // IPv4-compatible IPv6 (::/96) at fetch time: as a redirect's literal, and as a name's answer.
    src.behaviours.set('/dsld/v9/label/3001', { redirectTo: `http://[::127.0.0.1]:${src.port}/dsld/v9/label/3001`, times: 1 });
    await pool.query('UPDATE sources SET next_check_due = now() WHERE source_id = $1', [source_id]);
    await runOnce(deps, { productId: p });
    expect((await checks(source_id)).at(-1)).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^refused_address: ::7f00:1 is not a public address/) });
    const compatible = testMonitor(pool, settings, { resolve: async () => [{ address: '::7f00:1', family: 6 }] });
    const refused = await compatible.deps.fetcher.get(`http://compatible.test:${src.port}/dsld/v9/label/3001`).catch((e: Error) => e);
    expect(refused).toMatchObject({ code: 'refused_address', message: expect.stringMatching(/resolves to ::7f00:1/) });
    await deps.close();
    await rebinding.deps.close();
    await compatible.deps.close();
  });
});

describe('redirects to another host', () => {
  it("take that host's politeness slot and obey its robots.txt; a busy one gives the check back, still due", async () => {
    const p = await product(pool, 'Hop Flow');
    const hops = testSettings({ MONITOR_ALLOW_HOSTS: ['.hop.test'], MONITOR_ALLOW_LOCALHOST: false });
    const path = '/dsld/v9/label/7001';
    src.labels.set(7001, dsldLabel({ id: 7001, brand: 'Testbrand Labs', name: 'Hop Flow', caffeineMg: 150 }));
    const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url: `http://a.hop.test:${src.port}${path}` }, policyOf(hops), localhostOnly);
    const other = `b.hop.test:${src.port}`;
    const { deps } = testMonitor(pool, hops, { resolve: localhostOnly, realClock: true });
    const take = async () => (await leaseDue(pool, { owner: 'test-replica', limit: 1, leaseMs: 10_000, productId: p }))[0]!;

    // Another check holds b's slot: the read stops at the redirect, b is not requested, the check is given back.
    expect(await claimHost(pool, other, 'another-replica', 60_000)).toBe(true);
    src.behaviours.set(path, { redirectTo: `http://${other}${path}`, times: 1 });
    const hitsBefore = src.hits.get(path) ?? 0;
    expect(await performCheck(deps, await take())).toBeNull();
    expect(src.hits.get(path)).toBe(hitsBefore + 1);
    expect(await checks(source_id)).toEqual([]);
    const given = await pool.query(`SELECT lease_token, next_check_due <= now() AS due FROM sources WHERE source_id = $1`, [source_id]);
    expect(given.rows[0]).toEqual({ lease_token: null, due: true });

    // b free: the redirect takes its slot for the read and gives it back after, as the source's own.
    await releaseHost(pool, other, 'another-replica', 0);
    src.behaviours.set(path, { redirectTo: `http://${other}${path}`, times: 1 });
    expect(await performCheck(deps, await take())).toMatchObject({ outcome: 'valid' });
    const slots = await pool.query(`SELECT host, busy_owner FROM host_slots WHERE host = ANY($1) ORDER BY host`, [[`a.hop.test:${src.port}`, other]]);
    expect(slots.rows).toEqual([
      { host: `a.hop.test:${src.port}`, busy_owner: null },
      { host: other, busy_owner: null },
    ]);

    // b's robots.txt disallows where the redirect leads: unreadable, and that address is never requested.
    await pool.query(`UPDATE sources SET next_check_due = now() WHERE source_id = $1`, [source_id]);
    src.behaviours.set(path, { redirectTo: `http://${other}/private${path}`, times: 1 });
    src.robots.body = 'User-agent: EvidenceRecordMonitor\nDisallow: /private/\n';
    try {
      expect(await performCheck(deps, await take())).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^robots_disallowed/) });
      expect(src.hits.get(`/private${path}`) ?? 0).toBe(0);
    } finally {
      src.robots.body = null;
    }
    await deps.close();
  });
});

describe('replicas', () => {
  it('runs every due check exactly once across two replicas, and retakes the lease of a replica that died mid-check without a duplicate', async () => {
    const p = await product(pool, 'Replica Flow');
    // Many hosts: names resolved to the fixture server by an admitted resolver.
    const many = testSettings({ MONITOR_ALLOW_HOSTS: ['.replica.test'], MONITOR_ALLOW_LOCALHOST: false });
    for (let i = 0; i < 24; i++) {
      src.offers.set(`r${i}/replica-flow`, { name: 'Replica Flow', price: 20 + i, listPrice: 20 + i });
      await addSource(pool, { product_id: p, kind: 'offer_page', url: `http://h${i}.replica.test:${src.port}/shop/r${i}/replica-flow` }, policyOf(many), localhostOnly);
    }
    // Earlier tests' sources were read on a test clock in the past, so they are due too: out of the way.
    await pool.query(`UPDATE sources SET next_check_due = now() + interval '30 days' WHERE product_id <> $1`, [p]);
    const a = testMonitor(pool, many, { owner: 'replica-a', resolve: localhostOnly, realClock: true });
    const b = testMonitor(pool, many, { owner: 'replica-b', resolve: localhostOnly, realClock: true });
    const [ta, tb] = await Promise.all([runOnce(a.deps), runOnce(b.deps)]);
    expect(ta.checked + tb.checked).toBe(24);
    const per = await pool.query(`SELECT source_id, count(*)::int AS n FROM monitoring_checks WHERE product_id = $1 GROUP BY source_id`, [p]);
    expect(per.rows).toHaveLength(24);
    expect(per.rows.every((r) => r.n === 1)).toBe(true);

    // Replica A takes a check and stalls past its lease; B retakes it after expiry and records it; A's late write is
    // refused. A's network reads cannot outlive its lease (the check's deadline is at most half of it), so A stalls
    // between its read and its write, as a frozen process or a long pause would.
    await pool.query(`UPDATE sources SET next_check_due = now() - interval '1 second' WHERE product_id = $1 AND url LIKE '%/shop/r0/%'`, [p]);
    await pool.query(`DELETE FROM host_slots`);
    const shortLease = { ...many, MONITOR_LEASE_MS: 800 };
    const a2 = testMonitor(pool, shortLease, { owner: 'replica-a', resolve: localhostOnly, realClock: true });
    const b2 = testMonitor(pool, shortLease, { owner: 'replica-b', resolve: localhostOnly, realClock: true });
    let thaw!: () => void;
    const thawed = new Promise<void>((r) => (thaw = r));
    let stalled = false;
    const frozen = {
      ...a2.deps,
      recorder: {
        record: async (...args: Parameters<CheckRecorder['record']>) => {
          stalled = true;
          await thawed;
          return a2.deps.recorder.record(...args);
        },
      } as unknown as CheckRecorder,
    };
    const [leased] = await leaseDue(pool, { owner: 'replica-a', limit: 1, leaseMs: 800, productId: null });
    expect(leased).toBeDefined();
    const dying = performCheck(frozen, leased!).catch((e: unknown) => e);
    await waitFor('replica A to have read, and stalled', () => stalled, 5_000, 20);
    await waitFor('replica A\'s lease to expire', async () => (await pool.query(`SELECT lease_expires_at < now() AS expired FROM sources WHERE source_id = $1`, [leased!.source_id])).rows[0].expired === true, 5_000, 50);
    const taken = await runOnce(b2.deps, { deadlineMs: 5_000 });
    expect(taken.checked).toBe(1);
    thaw();
    expect(await dying).toBeInstanceOf(LeaseLost);
    const counts = await pool.query(
      `SELECT (SELECT count(*)::int FROM monitoring_checks WHERE source_id = $1) AS checks, (SELECT count(*)::int FROM price_observations WHERE source_id = $1) AS prices, (SELECT count(*)::int FROM captures WHERE source_id = $1) AS captures`,
      [leased!.source_id],
    );
    // Two checks and two captures (the first run's and B's), never A's late third; the same price read twice the
    // same day is one observation (decision 1008).
    expect(counts.rows[0]).toEqual({ checks: 2, prices: 1, captures: 2 });
    for (const m of [a, b, a2, b2]) await m.deps.close();
  });
});

describe('robots.txt across replicas', () => {
  it('is read once per TTL whatever the number of replicas, and its expiry is shared too', async () => {
    const kept = { ...settings, MONITOR_ROBOTS_TTL_MS: 3_600_000 };
    const [p1, p2] = [await product(pool, 'Robots One'), await product(pool, 'Robots Two')];
    src.labels.set(1301, dsldLabel({ id: 1301, brand: 'Testbrand Labs', name: 'Robots One', caffeineMg: 150 }));
    src.labels.set(1302, dsldLabel({ id: 1302, brand: 'Testbrand Labs', name: 'Robots Two', caffeineMg: 160 }));
    await addSource(pool, { product_id: p1, kind: 'dsld_label', url: src.labelUrl(1301) }, policyOf(kept));
    await addSource(pool, { product_id: p2, kind: 'dsld_label', url: src.labelUrl(1302) }, policyOf(kept));
    const robotsReads = () => src.requests.filter((r) => r.path === '/robots.txt').length;
    const replica = (owner: string) => testMonitor(pool, kept, { owner, realClock: true }).deps;
    src.robots.body = 'User-agent: EvidenceRecordMonitor\nDisallow: /private/\n';
    try {
      const before = robotsReads();
      const [a, b, c, d] = [replica('robots-a'), replica('robots-b'), replica('robots-c'), replica('robots-d')];
      expect(await runOnce(a, { productId: p1 })).toMatchObject({ checked: 1, valid: 1 });
      expect(await runOnce(b, { productId: p2 })).toMatchObject({ checked: 1, valid: 1 });
      // Replica B used what A read: the host was asked once.
      expect(robotsReads()).toBe(before + 1);
      const stored = await pool.query(`SELECT verdict, body, expires_at > now() + interval '50 minutes' AS fresh FROM monitor_robots WHERE origin = $1`, [`http://127.0.0.1:${src.port}`]);
      expect(stored.rows).toEqual([{ verdict: 'rules', body: src.robots.body, fresh: true }]);

      // The file now disallows the labels; a third replica still follows the shared reading until it expires.
      src.robots.body = 'User-agent: EvidenceRecordMonitor\nDisallow: /dsld/\n';
      expect(await runOnce(c, { productId: p1 })).toMatchObject({ checked: 1, valid: 1 });
      expect(robotsReads()).toBe(before + 1);
      // Expired for everyone: the next replica to need it reads it again and obeys it.
      await pool.query(`UPDATE monitor_robots SET expires_at = now() - interval '1 second'`);
      expect(await runOnce(d, { productId: p2 })).toMatchObject({ checked: 1, unreadable: 1 });
      expect(robotsReads()).toBe(before + 2);
      expect((await pool.query(`SELECT body FROM monitor_robots`)).rows).toEqual([{ body: src.robots.body }]);
      for (const m of [a, b, c, d]) await m.close();
    } finally {
      src.robots.body = null;
      await pool.query('DELETE FROM monitor_robots');
    }
  });
});

describe('the service loop', () => {
  it('checks due sources as they come due, and on stop finishes what it holds and leaves no lease behind', async () => {
    const p = await product(pool, 'Loop Flow');
    await pool.query(`UPDATE sources SET next_check_due = now() + interval '30 days' WHERE product_id <> $1`, [p]);
    src.labels.set(5001, dsldLabel({ id: 5001, brand: 'Testbrand Labs', name: 'Loop Flow', caffeineMg: 120 }));
    const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(5001) }, policyOf(settings));
    const { deps } = testMonitor(pool, { ...settings, MONITOR_POLL_MS: 100 }, { realClock: true });
    const loop = startLoop(deps);
    await waitFor('the loop to check the due source', async () => (await checks(source_id)).length > 0, 10_000);
    expect(await checks(source_id)).toMatchObject([{ outcome: 'valid' }]);
    // Due again: a slow read is in flight when the stop comes; it is finished and recorded, not abandoned.
    src.behaviours.set('/dsld/v9/label/5001', { delayMs: 400, status: 200, body: JSON.stringify(dsldLabel({ id: 5001, brand: 'Testbrand Labs', name: 'Loop Flow', caffeineMg: 120 })), times: 1 });
    await pool.query('UPDATE sources SET next_check_due = now() WHERE source_id = $1', [source_id]);
    await waitFor('the slow read to be in flight', () => src.behaviours.get('/dsld/v9/label/5001')!.times === 0, 10_000, 20);
    await loop.stop();
    expect(await checks(source_id)).toHaveLength(2);
    const leases = await pool.query('SELECT count(*)::int AS n FROM sources WHERE lease_owner IS NOT NULL');
    expect(leases.rows[0].n).toBe(0);
    expect(loop.totals.checked).toBe(2);
    await deps.close();
  });
});
