import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdPattern, scopes } from '@evidence-record/contract';
import { ADMIN_DATABASE_URL } from '@evidence-record/test-support/infra';
import { startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { recordFigures, round } from './support/figures';
import { percentile, send, steadyStream, type Reply } from './support/http';
import { customer, query, type Customer } from './support/operator';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * "Postgres restarted", exercised without stopping the machine's Postgres
 * (other test runs share it): every backend of this stack's private
 * database is terminated (what a restart does to open connections), and
 * then connections are refused for a while (ALTER DATABASE … ALLOW_CONNECTIONS
 * false, which binds superusers too, unlike CONNECTION LIMIT 0) while the
 * backends are terminated again, before connections are allowed back.
 * Under a steady stream of requests to every service that reads Postgres:
 * no request hangs past its deadline, every failure is a 500 internal_error
 * with a request id, and every service serves again by itself.
 */
let stack: RunningStack;
let caller: Customer;
let productId: string;
let admin: pg.Client;

const UPSTREAM_TIMEOUT_MS = 10_000; // the gateway's default deadline for one upstream answer

beforeAll(async () => {
  stack = await startStack('res-pg', { services: ['record', 'signals', 'ledger', 'watch', 'gateway'] });
  caller = await customer(stack, { plan: 'demo', scopes, account: true });
  productId = (await query<{ product_id: string }>(stack, `SELECT product_id FROM products WHERE depth_class = 'TRACKED' ORDER BY product_id LIMIT 1`))[0]!.product_id;
  admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
}, 240_000);

afterAll(async () => {
  if (admin) {
    await admin.query(`ALTER DATABASE "${stack.db.name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin.end();
  }
  await stack?.stop();
});

const routes = [
  { service: 'record', method: 'GET', path: () => '/api/v1/record/version' },
  { service: 'record', method: 'GET', path: () => `/api/v1/products/${productId}` },
  { service: 'signals', method: 'GET', path: () => '/api/v1/signals?limit=3' },
  { service: 'ledger', method: 'GET', path: () => '/api/v1/ledger' },
  { service: 'watch', method: 'GET', path: () => '/api/v1/watch' },
] as const;

function nextRequest(i: number): Promise<Reply & { service: string }> {
  const r = routes[i % routes.length]!;
  // The client waits far longer than the gateway's deadline, so a hang would show as a long latency, not a client abort.
  return send(stack.baseUrl, r.method, r.path(), { key: caller.key, timeoutMs: 30_000 }).then((reply) => ({ ...reply, service: r.service }));
}

async function terminateBackends(): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [stack.db.name],
  );
  return rows[0]!.n;
}

describe('Postgres connections killed, then refused for a while', () => {
  it('never hangs a request past its deadline, fails with 500 internal_error and a request id, and every service reconnects by itself', async () => {
    const stream = steadyStream(nextRequest, { concurrency: 4, pauseMs: 10 });
    await waitFor('every service answering', () => routes.every((r) => stream.samples.some((s) => (s as Reply & { service: string }).service === r.service && s.status === 200)), 60_000);

    // 1. A restart's effect on open connections: every backend terminated, three times over.
    const killedAt = Date.now();
    let terminated = 0;
    for (let i = 0; i < 3; i++) {
      terminated += await terminateBackends();
      await new Promise((r) => setTimeout(r, 700)); // time between the kills: the services reconnect and serve meanwhile
    }
    expect(terminated).toBeGreaterThan(0);
    // 2. The server refusing connections for five seconds (as while it restarts), backends terminated again.
    await admin.query(`ALTER DATABASE "${stack.db.name}" ALLOW_CONNECTIONS false`);
    const blockedAt = Date.now();
    terminated += await terminateBackends();
    await new Promise((r) => setTimeout(r, 5000)); // the five seconds of refusal: time passes
    const unblockedAt = Date.now();
    await admin.query(`ALTER DATABASE "${stack.db.name}" ALLOW_CONNECTIONS true`);

    // Every service serves again, each measured from the moment connections are allowed.
    const recovery: Record<string, number> = {};
    for (const r of routes) {
      const first = await waitFor(
        `${r.service} serving again`,
        () => stream.since(unblockedAt).find((s) => (s as Reply & { service: string }).service === r.service && s.status === 200),
        30_000,
      ).catch(async (err: unknown) => {
        await stream.stop();
        const last = stream.samples.filter((s) => (s as Reply & { service: string }).service === r.service).slice(-3);
        throw new Error(`${String(err)}\nlast answers: ${last.map((s) => `${s.status} ${s.text.slice(0, 200)}`).join('\n')}\n${r.service} log:\n${(stack.logs.get(r.service as never) ?? []).slice(-15).join('\n')}`);
      });
      recovery[r.service] = Math.max(recovery[r.service] ?? 0, (first.endedAt - unblockedAt) / 1000);
    }
    const recoveredAt = unblockedAt + 1000 * Math.max(...Object.values(recovery));
    await waitFor('requests after recovery', () => stream.since(recoveredAt + 1000).length >= 50, 30_000);
    const samples = await stream.stop();

    for (const s of samples) {
      expect(s.transportError, 'a request with no answer').toBeNull();
      expect([200, 500], s.text.slice(0, 200)).toContain(s.status);
      if (s.status === 500) {
        expect(s.code).toBe('internal_error');
        expect(s.requestId).toMatch(requestIdPattern);
        expect(s.headers['x-request-id']).toBe(s.requestId);
      }
    }
    const faultWindow = samples.filter((s) => s.startedAt >= killedAt && s.startedAt <= unblockedAt);
    const blocked = samples.filter((s) => s.startedAt >= blockedAt + 500 && s.endedAt <= unblockedAt);
    // While connections are refused, the services cannot answer: they say so at once.
    expect(blocked.length).toBeGreaterThan(10);
    expect(blocked.filter((s) => s.status === 500).length).toBeGreaterThan(0);
    const maxLatency = Math.max(...faultWindow.map((s) => s.ms));
    expect(maxLatency).toBeLessThan(UPSTREAM_TIMEOUT_MS + 2000);
    const after = samples.filter((s) => s.startedAt >= recoveredAt + 1000);
    expect(after.filter((s) => s.status !== 200).map((s) => s.text.slice(0, 160))).toEqual([]);
    for (const seconds of Object.values(recovery)) expect(seconds).toBeLessThan(15);

    await recordFigures('postgres-outage', {
      requests: samples.length,
      backends_terminated: terminated,
      requests_during_faults: faultWindow.length,
      failed_during_faults: faultWindow.filter((s) => s.status !== 200).length,
      max_latency_ms_during_faults: round(maxLatency),
      p99_latency_ms_during_faults: round(percentile(faultWindow.map((s) => s.ms), 99)),
      max_latency_ms_while_connections_refused: round(Math.max(...blocked.map((s) => s.ms))),
      recovery_seconds_after_connections_allowed: Object.fromEntries(Object.entries(recovery).map(([k, v]) => [k, round(v, 2)])),
    });
  });
});
