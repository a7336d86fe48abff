import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Cluster, Redis } from 'ioredis';
import { createLogger, createPool, type Pool, type RedisClient } from '@evidence-record/platform';
import { createGateway, type Gateway, type GatewayDeps } from '../../src/app';
import type { GatewayConfig } from '../../src/config';
import { nouns, parseFlags, type AdminContext } from '@evidence-record/admin';
import { REDIS_URL } from '@evidence-record/test-support/infra';
import { freePort } from '@evidence-record/test-support/launcher';

export { REDIS_URL };

/** The key gateway tests sign each service's requests with (one per service); a fake upstream given its own verifies like a real service. */
export const testSigningKeys: GatewayConfig['signingKeys'] = {
  record: 'gateway-test-record-signing-key-0123456789abcdef',
  signals: 'gateway-test-signals-signing-key-0123456789abcdef',
  ledger: 'gateway-test-ledger-signing-key-0123456789abcdef',
  watch: 'gateway-test-watch-signing-key-0123456789abcdef',
  mcp: 'gateway-test-mcp-signing-key-0123456789abcdef',
};

/** A gateway's configuration for a test; `mcpSite`, unless given, is the host it listens on (see startGateway). */
export type TestGatewayConfig = Omit<GatewayConfig, 'mcpSite'> & Partial<Pick<GatewayConfig, 'mcpSite'>>;

export function gatewayConfig(opts: { databaseUrl: string; redisPrefix: string; upstreams: GatewayConfig['upstreams']; redisUrl?: string } & Partial<GatewayConfig>): TestGatewayConfig {
  return {
    port: 0,
    redisUrl: REDIS_URL,
    upstreamTimeoutMs: 2000,
    mcpTimeoutMs: 2000,
    checks: true,
    nodeEnv: 'test',
    logLevel: process.env.GATEWAY_TEST_LOG_LEVEL ?? 'silent',
    shutdownGraceMs: 1000,
    publicBaseUrl: 'http://127.0.0.1:8080',
    signingKeys: testSigningKeys,
    ...opts,
  };
}

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  close: () => Promise<void>;
}

/** A gateway in-process on a port of its own; /mcp is served under that host (127.0.0.1 and localhost) unless the config says otherwise. */
export async function startGateway(test: TestGatewayConfig, deps: Omit<GatewayDeps, 'config'> = {}): Promise<RunningGateway> {
  const port = await freePort();
  const config: GatewayConfig = { ...test, mcpSite: test.mcpSite ?? { hosts: [`127.0.0.1:${port}`, `localhost:${port}`], origins: [] } };
  const gateway = await createGateway({ config, log: createLogger('gateway-test', config.logLevel), usage: { intervalMs: 100 }, ...deps });
  const server: Server = await new Promise((resolve) => {
    const s = createServer(gateway.listener).listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gateway,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await gateway.close();
    },
  };
}

/**
 * Runs an operator CLI verb in-process (the same code `npm run -s admin`
 * runs), returning its JSON object or throwing its error.
 */
export async function admin(env: { DATABASE_URL: string; REDIS_PREFIX: string; REDIS_URL?: string; REDIS_MODE?: string; REDIS_SENTINEL_NAME?: string }, ...argv: string[]): Promise<Record<string, unknown>> {
  const [nounName, verbName, ...rest] = argv;
  const verb = nouns.find((n) => n.noun === nounName)?.verbs[verbName ?? ''];
  if (!verb) throw new Error(`no verb ${argv.slice(0, 2).join(' ')}`);
  const closers: Array<() => Promise<void>> = [];
  const pool = createPool(env.DATABASE_URL, { max: 2 });
  closers.push(() => pool.end());
  const ctx: AdminContext = {
    pool,
    flags: parseFlags(rest),
    env: { REDIS_URL, ...env },
    onClose: (fn) => closers.push(fn),
  };
  try {
    return await verb.run(ctx);
  } finally {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  }
}

export interface IssuedKey {
  key: string;
  keyId: string;
  orgId: string;
  accountId: string | null;
}

/** An organisation on `plan`, optionally bound to one account, with one key. */
export async function orgWithKey(
  env: { DATABASE_URL: string; REDIS_PREFIX: string },
  opts: { plan?: string; scopes?: string; account?: boolean; envName?: 'live' | 'test'; expiresAt?: string } = {},
): Promise<IssuedKey> {
  const org = await admin(env, 'org', 'create', '--name', 'Test org', '--plan', opts.plan ?? 'free');
  const orgId = String(org.org_id);
  let accountId: string | null = null;
  if (opts.account) accountId = String((await admin(env, 'account', 'create', '--org', orgId, '--email', 'holder@example.test')).account_id);
  const issued = await admin(env, 'key', 'issue', '--org', orgId, '--scopes', opts.scopes ?? 'record:search,products:read,history:read,signals:read,comparisons:create,economics:read,research:read,regulatory:read,category:read,framework:read', '--env', opts.envName ?? 'live', ...(opts.expiresAt ? ['--expires-at', opts.expiresAt] : []));
  return { key: String(issued.key), keyId: String(issued.key_id), orgId, accountId };
}

/** Another key on an existing organisation. */
export async function anotherKey(env: { DATABASE_URL: string; REDIS_PREFIX: string }, orgId: string, scopes: string): Promise<IssuedKey> {
  const issued = await admin(env, 'key', 'issue', '--org', orgId, '--scopes', scopes);
  return { key: String(issued.key), keyId: String(issued.key_id), orgId, accountId: null };
}

/** A plan made for one test (e.g. generous windows with the free budgets). */
export async function createPlan(
  pool: Pool,
  id: string,
  p: { minute: number; hour: number; day: number; products?: number; signals?: number; ingredients?: number; capabilities?: string[]; selfService?: boolean },
): Promise<void> {
  await pool.query(
    `INSERT INTO plans VALUES ($1, $1, $2, $3, $4, $5, $6, $7, 10, coalesce($8::text[], (SELECT capabilities FROM plans WHERE plan_id = 'pro')), $9, 'test plan')`,
    [id, p.minute, p.hour, p.day, p.products ?? 15, p.signals ?? 15, p.ingredients ?? 25, p.capabilities ?? null, p.selfService ?? false],
  );
}

export function redisClient(): Redis {
  return new Redis(REDIS_URL, { lazyConnect: false });
}

/** Deletes every key under a test prefix (on a cluster, on every master: SCAN reads one node; one DEL per key, as keys of a page may sit on different slots). */
export async function dropPrefix(redis: RedisClient, prefix: string): Promise<void> {
  for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) {
        if (redis instanceof Cluster) await Promise.all(keys.map((k) => redis.del(k)));
        else await redis.del(...keys);
      }
    } while (cursor !== '0');
  }
}

export interface Call {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function call(url: string, init: RequestInit & { key?: string } = {}): Promise<Call> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('Authorization', `Bearer ${init.key}`);
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON; the test will say so
  }
  return { status: res.status, headers: res.headers, body, text };
}

export function errorCode(c: Call): string | undefined {
  return (c.body.error as { code?: string } | undefined)?.code;
}

