import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertChecksAllowed, loadGatewayConfig } from '../src/config';
import { call, gatewayConfig, startGateway, type RunningGateway } from './support/harness';
import { startFakeUpstreams, type FakeUpstreams } from './support/upstreams';

const exec = promisify(execFile);

/**
 * GATEWAY_CHECKS=off exists for the benchmark only: the same proxy path with
 * no checks. It must never run in production.
 */
let up: FakeUpstreams;
let gw: RunningGateway;

beforeAll(async () => {
  up = await startFakeUpstreams();
  // No Postgres or Redis is even contacted in this mode.
  gw = await startGateway(gatewayConfig({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', redisPrefix: 'unused:', redisUrl: 'redis://127.0.0.1:1', upstreams: up.urls, checks: false }));
});
afterAll(async () => {
  await gw?.close();
  await up?.close();
});

describe('GATEWAY_CHECKS=off', () => {
  it('forwards without a key, still with a request id, and still strips the entities header', async () => {
    const r = await call(`${gw.url}/api/v1/products/prd_aaaaaaaaaaaa`);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
    expect(r.headers.get('x-budget-entities')).toBeNull();
    expect(r.headers.get('ratelimit-limit')).toBeNull();
    expect((await call(`${gw.url}/api/v1/export`)).status).toBe(404);
  });

  it('is refused in production, by the config check and by the entrypoint', async () => {
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x', REDIS_URL: 'redis://127.0.0.1:6379', GATEWAY_CHECKS: 'off', UNSUBSCRIBE_SIGNING_KEY: 'k'.repeat(32), ...Object.fromEntries(['RECORD', 'SIGNALS', 'LEDGER', 'WATCH', 'MCP'].map((s) => [`${s}_SIGNING_KEYS`, 'k'.repeat(40)])) };
    expect(() => assertChecksAllowed(loadGatewayConfig({ ...base, NODE_ENV: 'production' }))).toThrow(/refused when NODE_ENV=production/);
    expect(() => assertChecksAllowed(loadGatewayConfig({ ...base, NODE_ENV: 'development' }))).not.toThrow();
    const run = exec(process.execPath, ['--import', 'tsx', 'gateway/src/main.ts'], { env: { PATH: process.env.PATH, ...base, NODE_ENV: 'production', PORT: '18999' }, timeout: 20_000 });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/GATEWAY_CHECKS=off is refused/) });
  });
});
