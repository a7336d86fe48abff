import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { scopes, selfServiceScopes } from '@evidence-record/contract';
import { runMigrations } from '@evidence-record/record-store/migrations';
import { seedDemoRecord } from '@evidence-record/demo-record/seed';
import { startPostgresPrimaryWithStandby, type PostgresPair } from '@evidence-record/test-support/postgres-replica';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';
import { recordFigures, round } from './support/figures';
import { send, steadyStream, type Reply } from './support/http';
import { comparableProducts, customer, operator, query, releaseNewSignals, type Customer } from './support/operator';

/**
 * The snapshot reads on a streaming standby (DATABASE_READ_URL), and the
 * standby failing (issue 24, item 6). Its replay paused while the Record
 * changes: reads fall back to the primary, record_version never goes
 * backwards for a client, a watch reads its own write, a revoked key stays
 * revoked (even for a gateway that loads it afresh). The standby stopped:
 * reads go on from the primary without waiting on it; started again, it
 * serves again. The primary and standby are private to this test.
 */
let pair: PostgresPair;
let stack: RunningStack;
let client: Customer;
let productIds: string[];

async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  pair = await startPostgresPrimaryWithStandby();
  const name = 'er_replica_stack';
  const url = pair.primaryUrl(name);
  const readUrl = pair.standbyUrl(name);
  await sql(pair.primaryUrl(), `CREATE DATABASE ${name}`);
  await runMigrations(url);
  await seedDemoRecord(url);
  // The standby has replayed the seeded Record before any service starts.
  await pair.waitForReplay(60_000);
  stack = await startStack('res-pgreplica', {
    database: { name, url, readUrl, drop: async () => undefined },
    services: ['record', 'signals', 'ledger', 'watch', 'gateway'],
  });
  client = await customer(stack, { plan: 'demo', scopes, account: true });
  productIds = (await comparableProducts(stack)).slice(0, 3);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await pair?.stop();
});

const versionOf = (r: Reply) => r.body?.record_version as string | undefined;

function read(i: number): Promise<Reply> {
  const opts = { key: client.key, timeoutMs: 15_000 };
  switch (i % 4) {
    case 0:
      return send(stack.baseUrl, 'GET', '/api/v1/record/version', opts);
    case 1:
      return send(stack.baseUrl, 'GET', `/api/v1/products/${productIds[i % productIds.length]}`, opts);
    case 2:
      return send(stack.baseUrl, 'GET', '/api/v1/signals?limit=2', opts);
    default:
      return send(stack.baseUrl, 'GET', '/api/v1/ledger', opts);
  }
}

/** One client's consecutive answers: each record_version at least the one before. */
function expectNeverBackwards(samples: Reply[]) {
  const ordered = [...samples].filter((s) => s.status === 200).sort((a, b) => a.startedAt - b.startedAt);
  let newest = '';
  for (const s of ordered) {
    const v = versionOf(s)!;
    // A request that began after an answer ended must not see an older version than that answer's.
    const seenBefore = ordered.filter((o) => o.endedAt < s.startedAt).map((o) => versionOf(o)!);
    const floor = seenBefore.reduce((m, x) => (x > m ? x : m), '');
    expect(v >= floor, `${v} after ${floor}`).toBe(true);
    if (v > newest) newest = v;
  }
  return newest;
}

describe('the standby behind: replay paused while the Record changes', () => {
  it('falls back to the primary: record_version never goes backwards, a watch reads its own write, a revoked key stays revoked', async () => {
    // Before: the Record as the standby has it.
    const before = await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: client.key });
    expect(before.status).toBe(200);
    const revokedLater = await customer(stack, { plan: 'free', scopes: selfServiceScopes });
    expect((await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: revokedLater.key })).status).toBe(200);

    await pair.pauseReplay();
    const pausedAt = Date.now();
    const stream = steadyStream(read, { concurrency: 2, pauseMs: 30 });
    let firstFreshAt = 0;
    let changedAt = 0;
    try {
      // The Record changes on the primary; the standby does not see it.
      await releaseNewSignals(stack, [productIds[0]!], 'replica-paused');
      const primaryHead = (await query<{ v: string }>(stack, 'SELECT version AS v FROM record_versions ORDER BY id DESC LIMIT 1'))[0]!.v;
      const standbyHead = (await sql<{ v: string }>(stack.env.DATABASE_READ_URL!, 'SELECT version AS v FROM record_versions ORDER BY id DESC LIMIT 1'))[0]!.v;
      expect(standbyHead < primaryHead, `standby ${standbyHead}, primary ${primaryHead}`).toBe(true);
      changedAt = Date.now();

      // Reads fall back to the primary: the new version is answered (the standby cannot have it), and once a
      // client has seen it, every later answer has it too.
      const firstFresh = await waitFor('an answer at the new version', () => stream.since(changedAt).find((s) => versionOf(s) === primaryHead), 10_000);
      firstFreshAt = firstFresh.endedAt;
      await waitFor('reads after the change', () => stream.since(firstFresh.endedAt).filter((s) => s.status === 200).length >= 30, 30_000);
      for (const s of stream.since(firstFresh.endedAt).filter((x) => x.status === 200)) expect(versionOf(s), `${s.body?.capability}`).toBe(primaryHead);

      // A watch reads its own write.
      const watched = await send(stack.baseUrl, 'POST', '/api/v1/watch', { key: client.key, body: { product_id: productIds[1] } });
      expect(watched.status).toBe(200);
      const listed = await send(stack.baseUrl, 'GET', '/api/v1/watch', { key: client.key });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain(productIds[1]!);

      // A key revoked while the standby lags stays revoked, even for a gateway that loads it afresh.
      await operator(stack, 'key', 'revoke', revokedLater.keyId);
      await waitFor('the revoked key refused', async () => (await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: revokedLater.key })).status === 401, 2000, 50);
      await stack.stopService('gateway');
      await stack.startService('gateway');
      for (let i = 0; i < 5; i++) expect((await send(stack.baseUrl, 'GET', '/api/v1/record/version', { key: revokedLater.key })).status).toBe(401);
    } finally {
      await pair.resumeReplay();
    }
    const resumedAt = Date.now();
    await waitFor('reads after replay resumed', () => stream.since(resumedAt).filter((s) => s.status === 200).length >= 20, 30_000);
    const samples = await stream.stop();

    // Across the whole episode, one client: never backwards, nothing refused but around the gateway's restart.
    expectNeverBackwards(samples);
    const refused = samples.filter((s) => s.status !== 200 && s.transportError === null);
    expect(refused.map((s) => `${s.status} ${s.text.slice(0, 120)}`)).toEqual([]);
    await recordFigures('postgres-replica-paused', {
      seconds_release_done_to_new_version_answered: round((firstFreshAt - changedAt) / 1000, 2),
      seconds_replay_paused: round((resumedAt - pausedAt) / 1000, 1),
      reads: samples.length,
      reads_answered: samples.filter((s) => s.status === 200).length,
      versions_seen: [...new Set(samples.filter((s) => s.status === 200).map(versionOf))].length,
    });
  }, 180_000);
});

describe('the standby stopped', () => {
  it('reads go on from the primary without waiting on it, and the standby serves again once back', async () => {
    const stream = steadyStream(read, { concurrency: 3, pauseMs: 20 });
    await waitFor('a warm stream', () => stream.samples.filter((s) => s.status === 200).length >= 20, 30_000);
    const readUrl = stack.env.DATABASE_READ_URL!;
    const dbName = new URL(readUrl).pathname.slice(1);

    await pair.stopStandby('immediate');
    const stoppedAt = Date.now();
    await waitFor('reads while the standby is down', () => stream.since(stoppedAt + 200).length >= 60, 30_000);
    await new Promise((r) => setTimeout(r, 3000)); // the outage lasts
    const restartAt = Date.now();
    await pair.startStandby();
    const upAt = Date.now();
    // The services use the standby again: it has client sessions on this stack's database.
    const backAt = await waitFor('the standby serving reads again', async () => {
      const rows = await sql<{ n: number }>(readUrl.replace(`/${dbName}`, '/postgres'), `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [dbName]).catch(() => [{ n: 0 }]);
      return rows[0]!.n > 0 ? Date.now() : null;
    }, 60_000, 200);
    await waitFor('reads after the standby returned', () => stream.since(backAt).length >= 40, 30_000);
    const samples = await stream.stop();

    const during = samples.filter((s) => s.startedAt >= stoppedAt && s.endedAt <= restartAt);
    expect(during.length).toBeGreaterThanOrEqual(60);
    // A reader never waits on the broken replica: answered, promptly.
    for (const s of samples) expect(s.transportError).toBeNull();
    const failed = samples.filter((s) => s.status !== 200);
    const firstAfterStop = during.find((s) => s.status === 200);
    const maxLatency = Math.max(...during.map((s) => s.ms));
    expect(failed.map((s) => `${s.status} ${s.text.slice(0, 120)}`)).toEqual([]);
    expect(maxLatency).toBeLessThan(3000);
    expectNeverBackwards(samples);

    await recordFigures('postgres-replica-stopped', {
      reads: samples.length,
      reads_while_standby_down: during.length,
      failed_reads: failed.length,
      max_latency_ms_while_standby_down: round(maxLatency),
      seconds_standby_stopped_to_first_answer: firstAfterStop ? round((firstAfterStop.endedAt - stoppedAt) / 1000, 2) : null,
      seconds_standby_ready_to_serving_again: round((backAt - upAt) / 1000, 2),
    });
  }, 180_000);
});
