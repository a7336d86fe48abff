import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'nats';
import pg from 'pg';
import { AnswerEnvelope, scopes, streamNames } from '@evidence-record/contract';
import { createRedis, natsConnectOptions } from '@evidence-record/platform';
import { call as callGateway, releaseSignalOn } from '@evidence-record/test-support/client';
import { ENGINES, NATS_URL, REDIS_URL } from '@evidence-record/test-support/infra';
import { issueKey, startStack, type RunningStack } from '@evidence-record/test-support/stack';
import { waitFor } from '@evidence-record/test-support/wait';

/**
 * The representative end-to-end set on the multi-node engines (issue 24, a
 * step of `npm test`; decision 2360): one stack on a Redis Cluster (three
 * masters, three replicas), a Postgres primary with a streaming standby that
 * the snapshot reads go to, and a three-node NATS JetStream cluster with
 * streams at three replicas, driven as a client would: capabilities through
 * REST and MCP, a watch that reads its own write, a released Signal emailed
 * once, a key revoked. `npm run test:multi-node` runs every end-to-end test
 * (test/e2e) on the same engines.
 */
let stack: RunningStack;
let pro: Awaited<ReturnType<typeof issueKey>>;

const call = (key: string | null, method: string, path: string, body?: unknown) => callGateway(stack, key, method, path, body);

async function mcp(key: string, method: string, params: unknown) {
  const res = await fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  // This file means nothing on one node: it runs under vitest.multi-node.config.ts only.
  expect(ENGINES).toBe('multi-node');
  const t0 = Date.now();
  stack = await startStack('multi', { services: ['record', 'signals', 'ledger', 'watch', 'email-worker', 'gateway', 'mcp'] });
  const t1 = Date.now();
  pro = await issueKey(stack, { plan: 'pro', scopes: [...scopes], account: true, name: 'multi-node pro' });
  console.log(`multi-node stack: services ready in ${((t1 - t0) / 1000).toFixed(1)} s, key issued in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the stack on the multi-node engines, driven as a client', () => {
  it('runs on the three clusters: Redis Cluster, a standby for snapshot reads, streams at three replicas', async () => {
    expect(stack.env).toMatchObject({ REDIS_MODE: 'cluster', REDIS_URL, NATS_URL, NATS_STREAM_REPLICAS: '3' });
    expect(REDIS_URL.split(',')).toHaveLength(6);
    expect(NATS_URL.split(',')).toHaveLength(3);
    expect(stack.env.DATABASE_READ_URL).toBeDefined();
    expect(new URL(stack.env.DATABASE_READ_URL!).port).not.toBe(new URL(stack.env.DATABASE_URL!).port);

    // The standby is one: in recovery, streaming, holding this stack's database.
    const standby = new pg.Client({ connectionString: stack.env.DATABASE_READ_URL });
    await standby.connect();
    try {
      expect((await standby.query('SELECT pg_is_in_recovery() AS r')).rows[0].r).toBe(true);
      expect((await standby.query('SELECT count(*)::int AS n FROM products')).rows[0].n).toBeGreaterThan(0);
    } finally {
      await standby.end();
    }

    // Every stream of this stack is replicated on three servers.
    const nc = await connect(natsConnectOptions(NATS_URL));
    try {
      const jsm = await nc.jetstreamManager();
      const names = streamNames(stack.env.NATS_PREFIX!);
      for (const name of [names.signals.stream, names.alerts.stream]) {
        const s = await jsm.streams.info(name);
        expect(s.config.num_replicas, name).toBe(3);
        expect(s.cluster?.replicas ?? [], name).toHaveLength(2);
      }
    } finally {
      await nc.close();
    }
  });

  it('answers capabilities through REST, each counted in the Redis Cluster', async () => {
    const resolved = await call(pro.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
    expect(resolved.status).toBe(200);
    const productId = resolved.body!.product.product_id as string;
    const requests: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/record/version'],
      ['GET', `/api/v1/products/${productId}`],
      ['GET', `/api/v1/products/${productId}/history`],
      ['GET', '/api/v1/signals?limit=3'],
      ['GET', '/api/v1/ledger'],
      ['POST', '/api/v1/record/search', { query: 'beta-alanine' }],
    ];
    const remaining: number[] = [];
    for (const [method, path, body] of requests) {
      const res = await call(pro.key, method, path, body);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body?.error ?? {})}`).toBe(200);
      expect(AnswerEnvelope.safeParse(res.body).success, `${method} ${path}`).toBe(true);
      remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    // Metered: every answer spent one of the key's requests.
    expect(new Set(remaining).size).toBe(remaining.length);

    // The key's day window lives in the cluster, on the node its hash tag maps to.
    const cluster = createRedis({ mode: 'cluster', url: REDIS_URL });
    try {
      const day = Number(await cluster.get(`${stack.env.REDIS_PREFIX}{k:${pro.keyId}}:rl:day`));
      expect(day).toBeGreaterThanOrEqual(requests.length + 1);
    } finally {
      cluster.disconnect();
    }
  });

  it('answers MCP tool calls with the REST envelope', async () => {
    const list = await mcp(pro.key, 'tools/list', {});
    expect(list.result.tools).toHaveLength(18);
    const ok = await mcp(pro.key, 'tools/call', { name: 'products.resolve', arguments: { identifier: 'IV Surge' } });
    expect(ok.result.isError).toBeFalsy();
    expect(AnswerEnvelope.safeParse(ok.result.structuredContent).success).toBe(true);
  });

  it('a watch reads its own write; a released Signal on it is emailed exactly once; record_version never goes back', async () => {
    const resolved = await call(pro.key, 'POST', '/api/v1/products/resolve', { identifier: 'IV Surge' });
    const productId = resolved.body!.product.product_id as string;
    const watched = await call(pro.key, 'POST', '/api/v1/watch', { product_id: productId });
    expect(watched.status).toBe(200);
    const listed = await call(pro.key, 'GET', '/api/v1/watch');
    expect(JSON.stringify(listed.body)).toContain(productId);

    const before = await call(pro.key, 'GET', '/api/v1/record/version');
    const { signalId } = await releaseSignalOn(stack, pro.key, productId);
    const versions: string[] = [before.body!.record_version as string];
    // Right after the release: every read, on whichever server answers it, is at least as new as the one before.
    for (let i = 0; i < 10; i++) versions.push((await call(pro.key, 'GET', '/api/v1/record/version')).body!.record_version as string);
    for (let i = 1; i < versions.length; i++) expect(versions[i]! >= versions[i - 1]!, versions.join(' ')).toBe(true);
    const explained = await call(pro.key, 'GET', `/api/v1/signals/${signalId}`);
    expect(explained.status).toBe(200);

    await waitFor('the alert email', () => stack.smtp.messages.some((m) => m.raw.includes(signalId)), 45_000, 250);
    await new Promise((r) => setTimeout(r, 1500)); // let any duplicate arrive before counting
    expect(stack.smtp.messages.filter((m) => m.raw.includes(signalId))).toHaveLength(1);
  }, 90_000);

  // Last: the key every test above used is revoked (one CLI run, not a new organisation and key).
  it('a revoked key is refused at once, and stays refused', async () => {
    expect((await call(pro.key, 'GET', '/api/v1/record/version')).status).toBe(200);
    const revoked = await stack.admin('key', 'revoke', pro.keyId);
    // Told through the cluster's pub/sub: at least this stack's gateway heard it.
    expect(revoked.gateways_notified).toBeGreaterThanOrEqual(1);
    await waitFor('the gateway refusing the revoked key', async () => (await call(pro.key, 'GET', '/api/v1/record/version')).status === 401, 2_000, 50);
    for (let i = 0; i < 5; i++) expect((await call(pro.key, 'GET', '/api/v1/record/version')).status).toBe(401);
  });
});
