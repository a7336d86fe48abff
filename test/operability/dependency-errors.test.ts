import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics, createLogger, createPool, type Pool } from '@evidence-record/platform';
import { connectRedis } from '@evidence-record/gateway';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { ADMIN_DATABASE_URL, NATS_URL } from '@evidence-record/test-support/infra';
import { signedAsGateway, testSigningEnv } from '@evidence-record/test-support/signing';
import { freePort, type ServiceName } from '@evidence-record/test-support/stack';
import { insertBrand, insertCustomer, insertProduct, insertWatch, relayOutbox, releaseSignal } from '@evidence-record/test-support/watch-fixtures';
import { deleteStreams, startFanout } from '@evidence-record/test-support/email-worker';
import { parseMetrics, request, scrape, startProcess, valueOf, waitFor, type ServiceProcess } from './support';

/**
 * er_dependency_errors_total is incremented where the errors happen, in the
 * real processes: Postgres refusing a service, NATS unreachable for the
 * outbox relay, SMTP unreachable for the email worker, Redis unreachable
 * for the gateway's connection.
 */
let db: TestDatabase;
let pool: Pool;
const natsPrefix = isolationPrefix('deperrors').natsPrefix;
const processes: ServiceProcess[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
}, 60_000);

afterAll(async () => {
  for (const p of processes) p.kill();
  for (const close of closers.reverse()) await close();
  await pool?.end();
  await db?.drop();
});

/** A closed port: connections to it are refused at once. */
const closedPort = () => freePort();

async function spawnListening(name: ServiceName, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const port = await freePort();
  const proc = { ...startProcess(name, { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', PORT: String(port), LOG_LEVEL: 'warn', ...testSigningEnv(name), ...env }), port };
  processes.push(proc);
  // /healthz answers as soon as it listens, whatever its dependencies do.
  await waitFor(`${name} to listen`, async () => (await request(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200, 30_000, 100);
  return proc;
}

describe('dependency errors are counted where they happen', () => {
  it('postgres: a service whose database refuses it counts every failed round trip and answers 500', async () => {
    const gone = new URL(ADMIN_DATABASE_URL);
    gone.pathname = `/er_missing_${randomBytes(4).toString('hex')}`;
    const proc = await spawnListening('record', { DATABASE_URL: gone.toString() });
    expect((await request(`http://127.0.0.1:${proc.port}/readyz`)).status).toBe(503);
    const answer = await request(`http://127.0.0.1:${proc.port}/api/v1/record/version`, { headers: signedAsGateway('record', 'GET', '/api/v1/record/version', { headers: { 'x-request-id': `req_${randomBytes(12).toString('hex')}` } }) });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'internal_error' } });
    const { samples } = await scrape(proc.port);
    // readiness, the capability's snapshot, and the refusal's record version lookup
    expect(valueOf(samples, 'er_dependency_errors_total', { dependency: 'postgres' })).toBeGreaterThanOrEqual(3);
    expect(valueOf(samples, 'er_requests_total', { capability: 'get_record_version', status: '500', code: 'internal_error' })).toBe(1);
  }, 60_000);

  it('nats: the signals outbox relay counts failed connection attempts while NATS is unreachable, and keeps serving', async () => {
    const proc = await spawnListening('signals', { DATABASE_URL: db.url, NATS_URL: `nats://127.0.0.1:${await closedPort()}`, CURSOR_SECRET: randomBytes(32).toString('hex'), OUTBOX_RELAY_INTERVAL_MS: '200' });
    expect((await request(`http://127.0.0.1:${proc.port}/readyz`)).status).toBe(200);
    const errors = await waitFor('NATS errors to be counted', async () => {
      const n = valueOf((await scrape(proc.port)).samples, 'er_dependency_errors_total', { dependency: 'nats' }) ?? 0;
      return n >= 2 ? n : null;
    }, 20_000, 200);
    expect(errors).toBeGreaterThanOrEqual(2);
    const { samples } = await scrape(proc.port);
    expect(valueOf(samples, 'er_dependency_errors_total', { dependency: 'postgres' })).toBe(0);
    expect(valueOf(samples, 'er_nats_connected')).toBe(0);
  }, 60_000);

  it('smtp: the email worker counts a send that cannot reach the SMTP server, and retries it', async () => {
    closers.push(() => deleteStreams(NATS_URL, natsPrefix));
    const proc = await spawnListening('email-worker', {
      DATABASE_URL: db.url,
      NATS_URL,
      NATS_PREFIX: natsPrefix,
      SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
      SMTP_TIMEOUT_MS: '1000',
      EMAIL_BACKOFF_BASE_MS: '200',
      EMAIL_BACKOFF_MAX_MS: '500',
    });
    await waitFor('the worker to be ready', async () => (await request(`http://127.0.0.1:${proc.port}/readyz`).catch(() => null))?.status === 200, 20_000, 100);
    const brand = await insertBrand(pool, `brd_deperr${randomBytes(3).toString('hex')}`, 'Dependency Labs');
    const product = await insertProduct(pool, brand);
    const customer = await insertCustomer(pool, 'pro');
    await insertWatch(pool, customer.accountId, product.productId);
    const fanout = await startFanout(db.url, NATS_URL, natsPrefix);
    closers.push(() => fanout.stop());
    await releaseSignal(fanout.pool, product);
    expect(await relayOutbox(fanout.pool, fanout.nc, natsPrefix)).toBe(1);

    const samples = await waitFor('an SMTP error to be counted', async () => {
      const s = (await scrape(proc.port)).samples;
      return (valueOf(s, 'er_dependency_errors_total', { dependency: 'smtp' }) ?? 0) >= 2 ? s : null;
    }, 30_000, 200);
    expect(valueOf(samples, 'er_emails_failed_total', { kind: 'unavailable' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, 'er_emails_sent_total')).toBe(0);
    expect(valueOf(samples, 'er_dependency_errors_total', { dependency: 'postgres' })).toBe(0);
  }, 90_000);

  it("redis: the gateway's connection counts each failed attempt", async () => {
    const metrics = new Metrics('gateway').dependsOn('redis');
    const redis = connectRedis(`redis://127.0.0.1:${await closedPort()}`, createLogger('test', 'silent'), 'dependency-test', metrics);
    try {
      await expect(redis.connect()).rejects.toThrow();
      await waitFor('two failed attempts', async () => (valueOf(parseMetrics(await metrics.registry.metrics()), 'er_dependency_errors_total', { dependency: 'redis' }) ?? 0) >= 2, 10_000, 50);
    } finally {
      redis.disconnect();
    }
  });
});
