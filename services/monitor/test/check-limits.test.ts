import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPool, type Pool } from '@evidence-record/platform';
import { addSource, leaseDue, performCheck, policyOf, runOnce, type MonitorSettings } from '@evidence-record/sources';
import { dsldLabel, startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { localhostOnly, product, testMonitor, testSettings } from './support';

/**
 * What bounds a check (issue 26): one deadline for its robots.txt reads, the
 * source and every redirect hop; robots.txt's own redirects; a 429 on
 * robots.txt; Retry-After kept to the host that sent it; the check's date
 * from the database's clock; and the DSLD key sent to DSLD's origin only.
 * Host names are resolved to the fixture servers by a test resolver and
 * admitted by the allow-list, so each name is a host of its own.
 */
let db: TestDatabase;
let pool: Pool;
let src: SourceServer;
let other: SourceServer;
let base: MonitorSettings;

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 8 });
  [src, other] = await Promise.all([startSourceServer(), startSourceServer()]);
  base = testSettings({ DSLD_BASE_URL: `${src.origin}/dsld/v9`, MONITOR_ALLOW_HOSTS: ['.limits.test'], MONITOR_LEASE_MS: 10_000 });
});

afterAll(async () => {
  await Promise.all([src?.close(), other?.close()]);
  await pool?.end();
  await db?.drop();
});

async function lastCheck(sourceId: number) {
  const { rows } = await pool.query('SELECT outcome, reason, http_status, duration_ms, checked_at FROM monitoring_checks WHERE source_id = $1 ORDER BY check_id DESC LIMIT 1', [sourceId]);
  return rows[0];
}

/** A label source on `host` (a name under .limits.test, or the fixture's 127.0.0.1), checked once now. */
async function labelSource(name: string, url: string, settings: MonitorSettings = base) {
  const p = await product(pool, name);
  const { source_id } = await addSource(pool, { product_id: p, kind: 'dsld_label', url }, policyOf(settings), localhostOnly);
  return { p, source_id };
}

describe('one deadline per check', () => {
  it('covers robots.txt and every redirect hop, and a check past it is a timeout', async () => {
    // The read timeout is raised above the suite's 700 ms so that a loaded machine (CI beside other suites) cannot
    // stretch a 600 ms read past it: only the deadline may end this check.
    const settings = { ...base, MONITOR_CHECK_DEADLINE_MS: 2_000, MONITOR_READ_TIMEOUT_MS: 1_500 };
    // Five hosts, each slow but never slow enough for a read timeout (1.5 s): its robots.txt takes 600 ms, and so
    // does its page, which redirects to the next host. Read to the end, the chain takes about 5.4 s.
    src.labels.set(9001, dsldLabel({ id: 9001, brand: 'Testbrand Labs', name: 'Slow Chain', caffeineMg: 100 }));
    src.behaviours.set('/robots.txt', { delayMs: 600, status: 404, body: '', times: 50 });
    for (let i = 0; i < 4; i++) {
      const next = i < 3 ? `http://h${i + 1}.limits.test:${src.port}/chain/${i + 1}` : `http://h4.limits.test:${src.port}/dsld/v9/label/9001`;
      src.behaviours.set(`/chain/${i}`, { delayMs: 600, redirectTo: next, times: 1 });
    }
    const { p, source_id } = await labelSource('Slow Chain', `http://h0.limits.test:${src.port}/chain/0`);
    const { deps } = testMonitor(pool, settings, { resolve: localhostOnly, realClock: true });
    try {
      await runOnce(deps, { productId: p, deadlineMs: 15_000 });
      const check = await lastCheck(source_id);
      expect(check).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^timeout: the check passed its deadline of 2000 ms/) });
      // Ended by the deadline (plus the time to record it), nowhere near the chain's 5.4 s.
      expect(check.duration_ms).toBeLessThan(3_000);
      expect(src.hits.get('/dsld/v9/label/9001') ?? 0).toBe(0);
    } finally {
      src.behaviours.clear();
      await deps.close();
    }
  });

  it('follows at most two redirects for robots.txt', async () => {
    const settings = { ...base, MONITOR_CHECK_DEADLINE_MS: 2_000 };
    src.labels.set(9002, dsldLabel({ id: 9002, brand: 'Testbrand Labs', name: 'Robots Hops', caffeineMg: 110 }));
    src.behaviours.set('/robots.txt', { redirectTo: '/robots-1.txt', times: 1 });
    src.behaviours.set('/robots-1.txt', { redirectTo: '/robots-2.txt', times: 1 });
    src.behaviours.set('/robots-2.txt', { redirectTo: '/robots-3.txt', times: 1 });
    src.behaviours.set('/robots-3.txt', { status: 404, body: '', times: 1 });
    const { p, source_id } = await labelSource('Robots Hops', `http://robots.limits.test:${src.port}/dsld/v9/label/9002`);
    const { deps } = testMonitor(pool, settings, { resolve: localhostOnly, realClock: true });
    try {
      await runOnce(deps, { productId: p, deadlineMs: 10_000 });
      // Two redirects followed, the third not: the file counts as unreachable (disallow, retried within a minute).
      expect(src.hits.get('/robots-2.txt')).toBe(1);
      expect(src.hits.get('/robots-3.txt') ?? 0).toBe(0);
      expect(await lastCheck(source_id)).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/robots\.txt/) });
      expect(src.hits.get('/dsld/v9/label/9002') ?? 0).toBe(0);
    } finally {
      src.behaviours.clear();
      await deps.close();
    }
  });

  it('reports a body still arriving at the deadline as a timeout, not a broken connection', async () => {
    // A byte every 100 ms never pauses long enough for the read timeout (700 ms); only the deadline ends it.
    const settings = { ...base, MONITOR_CHECK_DEADLINE_MS: 2_000 };
    src.behaviours.set('/dsld/v9/label/9006', { trickleMs: 100, body: JSON.stringify(dsldLabel({ id: 9006, brand: 'Testbrand Labs', name: 'Slow Body', caffeineMg: 110 })), times: 1 });
    const { p, source_id } = await labelSource('Slow Body', `http://body.limits.test:${src.port}/dsld/v9/label/9006`);
    const { deps } = testMonitor(pool, settings, { resolve: localhostOnly, realClock: true });
    try {
      await runOnce(deps, { productId: p, deadlineMs: 15_000 });
      expect(await lastCheck(source_id)).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/^timeout/) });
    } finally {
      src.behaviours.clear();
      await deps.close();
    }
  });
});

describe('politeness', () => {
  it('takes a 429 on robots.txt as unreachable, not as "no rules"', async () => {
    src.labels.set(9003, dsldLabel({ id: 9003, brand: 'Testbrand Labs', name: 'Robots Busy', caffeineMg: 120 }));
    const { p, source_id } = await labelSource('Robots Busy', `http://busy.limits.test:${src.port}/dsld/v9/label/9003`);
    const { deps } = testMonitor(pool, base, { resolve: localhostOnly, realClock: true });
    src.robots.status = 429;
    try {
      await runOnce(deps, { productId: p, deadlineMs: 10_000 });
      expect(await lastCheck(source_id)).toMatchObject({ outcome: 'unreadable', reason: expect.stringMatching(/robots\.txt/) });
      expect(src.hits.get('/dsld/v9/label/9003') ?? 0).toBe(0);
    } finally {
      src.robots.status = 404;
      await deps.close();
    }
  });

  it("applies a Retry-After to the host that sent it, not to the hosts that redirected there", async () => {
    src.behaviours.set('/dsld/v9/label/9004', { redirectTo: `http://final.limits.test:${src.port}/moved/9004`, times: 1 });
    src.behaviours.set('/moved/9004', { status: 429, headers: { 'retry-after': '120' }, body: '', times: 1 });
    const { p, source_id } = await labelSource('Retry Chain', `http://first.limits.test:${src.port}/dsld/v9/label/9004`);
    const { deps } = testMonitor(pool, base, { resolve: localhostOnly, realClock: true });
    try {
      await runOnce(deps, { productId: p, deadlineMs: 10_000 });
      expect(await lastCheck(source_id)).toMatchObject({ outcome: 'unreadable', http_status: 429 });
      const { rows } = await pool.query(`SELECT host, next_allowed_at > now() + interval '100 seconds' AS waits FROM host_slots WHERE host = ANY($1) ORDER BY host`, [
        [`final.limits.test:${src.port}`, `first.limits.test:${src.port}`],
      ]);
      expect(rows).toEqual([
        { host: `final.limits.test:${src.port}`, waits: true },
        { host: `first.limits.test:${src.port}`, waits: false },
      ]);
    } finally {
      src.behaviours.clear();
      await deps.close();
    }
  });
});

describe("a check's date", () => {
  it("comes from the database's clock, like its lease, whatever the replica's clock says", async () => {
    src.labels.set(9005, dsldLabel({ id: 9005, brand: 'Testbrand Labs', name: 'Skewed Clock', caffeineMg: 130 }));
    const { p, source_id } = await labelSource('Skewed Clock', src.labelUrl(9005));
    const { deps } = testMonitor(pool, base, { realClock: true });
    const [leased] = await leaseDue(pool, { owner: 'test-replica', limit: 1, leaseMs: 10_000, productId: p });
    // This replica's clock runs three days ahead; only Date is faked (timers and the network run as usual).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3 * 86_400_000 });
    try {
      expect(await performCheck(deps, leased!)).toMatchObject({ outcome: 'valid' });
    } finally {
      vi.useRealTimers();
      await deps.close();
    }
    const { rows } = await pool.query(
      `SELECT abs(extract(epoch FROM c.checked_at - now())) < 60 AS near, s.observed_from = (now() AT TIME ZONE 'UTC')::date AS today,
              abs(extract(epoch FROM src.next_check_due - (now() + interval '7 days'))) < 60 AS due
         FROM monitoring_checks c JOIN history_states s ON s.product_id = c.product_id JOIN sources src ON src.source_id = c.source_id
        WHERE c.source_id = $1`,
      [source_id],
    );
    expect(rows).toEqual([{ near: true, today: true, due: true }]);
  });
});

describe('the DSLD key', () => {
  const key = 'dsld-test-key-0123456789';
  const keyed = () => ({ ...base, DSLD_API_KEY: key });
  const sentTo = (server: SourceServer, path: string) => server.requests.filter((r) => r.path === path).map((r) => new URL(r.url, 'http://x').searchParams.get('api_key'));

  it('refuses a dsld_label source outside the origin of DSLD_BASE_URL unless its host is allow-listed', async () => {
    const p = await product(pool, 'Key Refusal');
    // Another origin (the same address, another port) is not DSLD, even where the local stack admits 127.0.0.1.
    await expect(addSource(pool, { product_id: p, kind: 'dsld_label', url: other.labelUrl(9101) }, policyOf(keyed()))).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/DSLD_BASE_URL/),
    });
    // An offer page there is fine: the rule is about labels. So is a mirror whose host is allow-listed.
    await expect(addSource(pool, { product_id: p, kind: 'offer_page', url: other.offerUrl('shelf', 'key-refusal') }, policyOf(keyed()))).resolves.toMatchObject({ kind: 'offer_page' });
    await expect(addSource(pool, { product_id: p, kind: 'dsld_label', url: `http://mirror.limits.test:${other.port}/dsld/v9/label/9101` }, policyOf(keyed()), localhostOnly)).resolves.toMatchObject({ kind: 'dsld_label' });
  });

  it('is sent to the origin of DSLD_BASE_URL only: never to a mirror, nor along a redirect away from it', async () => {
    const p = await product(pool, 'Key Flow');
    for (const [id, server] of [[9102, src], [9103, other], [9104, src]] as const) server.labels.set(id, dsldLabel({ id, brand: 'Testbrand Labs', name: `Key Flow ${id}`, caffeineMg: 140 }));
    const own = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(9102) }, policyOf(keyed()));
    // A mirror, allow-listed by name: read, and never given the key.
    const mirror = await addSource(pool, { product_id: p, kind: 'dsld_label', url: `http://mirror.limits.test:${other.port}/dsld/v9/label/9103` }, policyOf(keyed()), localhostOnly);
    // DSLD redirecting elsewhere with the key in its Location: the hop goes without it.
    const moved = await addSource(pool, { product_id: p, kind: 'dsld_label', url: src.labelUrl(9104) }, policyOf(keyed()));
    src.behaviours.set('/dsld/v9/label/9104', { redirectTo: `http://mirror.limits.test:${other.port}/dsld/v9/label/9103?api_key=${key}&from=9104`, times: 1 });
    const { deps } = testMonitor(pool, keyed(), { resolve: localhostOnly, realClock: true });
    try {
      expect(await runOnce(deps, { productId: p, deadlineMs: 10_000 })).toMatchObject({ checked: 3 });
      expect(sentTo(src, '/dsld/v9/label/9102')).toEqual([key]);
      expect(sentTo(src, '/dsld/v9/label/9104')).toEqual([key]);
      expect(sentTo(other, '/dsld/v9/label/9103')).toEqual([null, null]);
      const stored = await pool.query('SELECT url FROM sources WHERE source_id = ANY($1)', [[own.source_id, mirror.source_id, moved.source_id]]);
      expect(stored.rows.every((r) => !String(r.url).includes(key))).toBe(true);
    } finally {
      src.behaviours.clear();
      await deps.close();
    }
  });
});
