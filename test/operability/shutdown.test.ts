import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODOLOGY_VERSION, buildAnswer, capabilities, generateKey, streamNames } from '@evidence-record/contract';
import { Metrics, connectNats, createLogger, createServiceApp, createPool, finishServiceApp, mountCapability, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { NATS_URL, REDIS_URL } from '@evidence-record/test-support/infra';
import { freePort, type ServiceName } from '@evidence-record/test-support/stack';
import { callerHeaders, insertBrand, insertCustomer, insertProduct, insertWatch, relayOutbox, releaseSignal } from '@evidence-record/test-support/watch-fixtures';
import { deleteStreams, startFanout } from '@evidence-record/test-support/email-worker';
import { connectionRefused, gate, request, spawnService, waitFor, type HttpAnswer, type ServiceProcess } from './support';
import { signedAsGateway } from '@evidence-record/test-support/signing';
import { operatorCliArgs } from '@evidence-record/test-support/launcher';

/**
 * Every service's real entrypoint, as a process: SIGTERM while a request
 * (or, for the email worker, an SMTP send) is in flight. The process stops
 * accepting connections at once, finishes the work in hand, answers it with
 * Connection: close, and exits 0 well inside SHUTDOWN_GRACE_MS, rather than
 * waiting out the grace period or the keep-alive timeout.
 *
 * Requests are held open by real means: a Postgres lock on record_versions
 * (every capability reads its snapshot's record version from it), a slow
 * upstream behind the gateway, a slow gateway behind the MCP service, and
 * an SMTP server that delays its reply.
 */
const GRACE_MS = 10_000;
const exec = promisify(execFile);

let db: TestDatabase;
let pool: Pool;
const isolation = isolationPrefix('shutdown');
const running: ServiceProcess[] = [];
const closers: Array<() => Promise<void> | void> = [];

const common = (): NodeJS.ProcessEnv => ({ DATABASE_URL: db.url, SHUTDOWN_GRACE_MS: String(GRACE_MS), LOG_LEVEL: 'info' });

beforeAll(async () => {
  db = await emptyDatabase();
  pool = createPool(db.url, { max: 4 });
  closers.push(() => deleteStreams(NATS_URL, isolation.natsPrefix));
  closers.push(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${isolation.redisPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });
}, 60_000);

afterAll(async () => {
  for (const p of running) p.kill();
  for (const close of closers.reverse()) await close();
  await pool?.end();
  await db?.drop();
});

async function start(name: ServiceName, env: NodeJS.ProcessEnv, port?: number): Promise<ServiceProcess> {
  const proc = await spawnService(name, port ?? (await freePort()), { ...common(), ...env });
  running.push(proc);
  return proc;
}

/** Holds every snapshot read (they all begin with the record version) until released. */
async function holdRecordVersions(): Promise<{ waiting: () => Promise<boolean>; release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE record_versions IN ACCESS EXCLUSIVE MODE');
  return {
    waiting: async () => {
      const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      return rows[0]!.n > 0;
    },
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/**
 * The drain every HTTP service must show: SIGTERM with `inFlight` held;
 * new connections refused while it is held; once let go it is answered 200
 * with Connection: close, and the process exits 0 promptly.
 */
async function expectDrain(proc: ServiceProcess, inFlight: Promise<HttpAnswer>, held: () => Promise<boolean>, letGo: () => Promise<void>): Promise<HttpAnswer> {
  await waitFor(`a request held in ${proc.name}`, held, 10_000, 20);
  let settled = false;
  void inFlight.finally(() => (settled = true));
  const signalled = Date.now();
  proc.child.kill('SIGTERM');
  await waitFor(`${proc.name} to stop accepting connections`, () => connectionRefused(proc.port), 3_000, 20);
  // Still draining: the request in hand keeps the process alive while time passes.
  await new Promise((r) => setTimeout(r, 300));
  expect(settled).toBe(false);
  expect(proc.child.exitCode).toBeNull();

  await letGo();
  const answer = await inFlight;
  const answeredAt = Date.now();
  const { code, signal } = await proc.exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(answer.headers.connection).toBe('close');
  // Exits once the answer is out: not after the keep-alive timeout, nor the grace period.
  expect(Date.now() - answeredAt).toBeLessThan(2_500);
  expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
  expect(proc.lines.join('\n')).toContain('"msg":"shut down"');
  return answer;
}

/** A direct call to a backend, as the gateway makes it (its identity headers, its kept-alive agent). */
function call(proc: ServiceProcess, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  // Straight to the service, signed as the gateway signs what it forwards.
  return request(`http://127.0.0.1:${proc.port}${path}`, { headers: signedAsGateway(proc.name, 'GET', path, { headers: { 'x-request-id': `req_${randomBytes(12).toString('hex')}`, ...headers } }), agent: new http.Agent({ keepAlive: true }) });
}

describe('SIGTERM drains each service', () => {
  it('record: finishes a held snapshot read, then exits 0', async () => {
    const proc = await start('record', {});
    const lock = await holdRecordVersions();
    const answer = await expectDrain(proc, call(proc, '/api/v1/record/version'), lock.waiting, lock.release);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ capability: 'get_record_version', status: 'supported' });
  }, 60_000);

  it('signals: finishes a held feed read and stops its outbox relay, then exits 0', async () => {
    const proc = await start('signals', { NATS_URL, NATS_PREFIX: isolation.natsPrefix, CURSOR_SECRET: randomBytes(32).toString('hex') });
    const lock = await holdRecordVersions();
    const answer = await expectDrain(proc, call(proc, '/api/v1/signals?limit=1'), lock.waiting, lock.release);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ capability: 'list_signal_changes' });
  }, 60_000);

  it('ledger: finishes a held edition listing, then exits 0', async () => {
    const proc = await start('ledger', {});
    const lock = await holdRecordVersions();
    const answer = await expectDrain(proc, call(proc, '/api/v1/ledger'), lock.waiting, lock.release);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ capability: 'list_ledger_editions' });
  }, 60_000);

  it('watch: finishes a held watchlist read, stops its fan-out consumer, then exits 0', async () => {
    const customer = await insertCustomer(pool, 'pro');
    const proc = await start('watch', { NATS_URL, NATS_PREFIX: isolation.natsPrefix });
    const lock = await holdRecordVersions();
    const answer = await expectDrain(proc, call(proc, '/api/v1/watch', callerHeaders(customer, 10)), lock.waiting, lock.release);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ capability: 'list_watched_products', watch: { count: 0 } });
  }, 60_000);

  it('gateway: finishes a request waiting on a slow upstream, then exits 0', async () => {
    // The upstream: the platform's own service app, answering get_record_version only when let go.
    const arrived = gate();
    const release = gate();
    const opts = { name: 'record', log: createLogger('slow-upstream', 'silent'), metrics: new Metrics('record'), readiness: async () => undefined, recordVersion: async () => 'rv_00000000' };
    const upstream = createServiceApp(opts);
    mountCapability(upstream, opts, capabilities.get_record_version, async (_input, ctx) => {
      arrived.open();
      await release.promise;
      const record = { record_version: 'rv_00000001', record_as_of: '2026-01-01', record_timestamp: '2026-01-01T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };
      return { answer: buildAnswer({ request_id: ctx.requestId, capability: 'get_record_version', status: 'supported', summary: 'Slow.', confidence: { level: 'high', basis: 'test' }, coverage: {}, record }), entities: [] };
    });
    finishServiceApp(upstream, opts);
    const server = await new Promise<http.Server>((resolve) => {
      const s = upstream.listen(0, '127.0.0.1', () => resolve(s));
    });
    closers.push(() => {
      server.closeAllConnections();
      server.close();
    });

    const adminEnv = { ...process.env, DATABASE_URL: db.url, REDIS_URL, REDIS_PREFIX: isolation.redisPrefix };
    const admin = async (...args: string[]) => JSON.parse((await exec(process.execPath, operatorCliArgs([...args, '--json']), { env: adminEnv })).stdout.trim().split('\n').pop()!) as Record<string, string>;
    const org = await admin('org', 'create', '--name', 'Shutdown test', '--plan', 'free');
    const { key } = await admin('key', 'issue', '--org', org.org_id!, '--scopes', 'framework:read', '--env', 'test');

    const port = await freePort();
    const proc = await start('gateway', { REDIS_URL, REDIS_PREFIX: isolation.redisPrefix, GATEWAY_PORT: String(port), RECORD_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, port);
    let arrivedFlag = false;
    void arrived.promise.then(() => (arrivedFlag = true));
    const inFlight = request(`http://127.0.0.1:${port}/api/v1/record/version`, { headers: { authorization: `Bearer ${key}` }, agent: new http.Agent({ keepAlive: true }) });
    const answer = await expectDrain(proc, inFlight, async () => arrivedFlag, async () => release.open());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ capability: 'get_record_version', summary: 'Slow.' });
  }, 90_000);

  it('mcp: finishes a tool call waiting on a slow gateway, then exits 0', async () => {
    const arrived = gate();
    const release = gate();
    let arrivedFlag = false;
    void arrived.promise.then(() => (arrivedFlag = true));
    const slowGateway = http.createServer((req, res) => {
      req.resume();
      arrived.open();
      void release.promise.then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ request_id: String(req.headers['x-request-id'] ?? 'req_x'), capability: 'get_record_version', status: 'supported', summary: 'Slow gateway.' }));
      });
    });
    await new Promise<void>((r) => slowGateway.listen(0, '127.0.0.1', r));
    closers.push(() => {
      slowGateway.closeAllConnections();
      slowGateway.close();
    });

    const port = await freePort();
    const proc = await start('mcp', { GATEWAY_URL: `http://127.0.0.1:${(slowGateway.address() as AddressInfo).port}`, MCP_ALLOWED_HOSTS: `127.0.0.1:${port}` }, port);
    const { key } = generateKey('test');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'record.version', arguments: {} } });
    const inFlight = request(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      // Straight to the MCP service, signed as the gateway signs what it forwards.
      headers: signedAsGateway('mcp', 'POST', '/mcp', { headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body }),
      body,
      agent: new http.Agent({ keepAlive: true }),
    });
    const answer = await expectDrain(proc, inFlight, async () => arrivedFlag, async () => release.open());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ id: 1, result: { structuredContent: { summary: 'Slow gateway.' } } });
  }, 60_000);

  it('email worker: an SMTP send in progress at SIGTERM is delivered once, recorded and acknowledged, then the worker exits 0', async () => {
    const natsPrefix = `${isolation.natsPrefix}_mail`;
    closers.push(() => deleteStreams(NATS_URL, natsPrefix));
    const received: string[] = [];
    const arrived = gate();
    const release = gate();
    let sending = false;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          sending = true;
          arrived.open();
          // The reply to DATA is what the worker waits for: it comes only when the test lets it.
          void release.promise.then(() => {
            received.push(Buffer.concat(chunks).toString('utf8'));
            callback();
          });
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise<void>((r) => smtp.close(() => r())));
    const smtpPort = ((smtp as unknown as { server: http.Server }).server.address() as AddressInfo).port;

    const proc = await start('email-worker', { NATS_URL, NATS_PREFIX: natsPrefix, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });

    // A released Signal on a watched product becomes one alert, fanned out the way the watch service does it.
    const brand = await insertBrand(pool, `brd_shutdown${randomBytes(3).toString('hex')}`, 'Shutdown Labs');
    const product = await insertProduct(pool, brand);
    const customer = await insertCustomer(pool, 'pro');
    await insertWatch(pool, customer.accountId, product.productId);
    const fanout = await startFanout(db.url, NATS_URL, natsPrefix);
    closers.push(() => fanout.stop());
    const event = await releaseSignal(fanout.pool, product);
    expect(await relayOutbox(fanout.pool, fanout.nc, natsPrefix)).toBe(1);

    await waitFor('the SMTP send to start', async () => sending, 20_000, 20);
    proc.child.kill('SIGTERM');
    await waitFor('the worker to stop accepting connections', () => connectionRefused(proc.port), 3_000, 20);
    await new Promise((r) => setTimeout(r, 500)); // time passes: the send in hand keeps the worker alive meanwhile
    expect(proc.child.exitCode).toBeNull();
    release.open();

    const { code, signal } = await proc.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(event.signal_id);
    const alert = await pool.query<{ status: string }>('SELECT status FROM alerts WHERE signal_id = $1', [event.signal_id]);
    expect(alert.rows).toEqual([{ status: 'sent' }]);
    // Acknowledged before the connection was drained: nothing left for another worker to send again.
    const nc = await connectNats(NATS_URL, 'shutdown-test');
    try {
      const info = await (await nc.jetstreamManager()).consumers.info(streamNames(natsPrefix).alerts.stream, 'email-worker');
      expect(info.num_ack_pending + info.num_pending).toBe(0);
    } finally {
      await nc.close();
    }
    const log = proc.lines.join('\n');
    expect(log.indexOf('"msg":"alert email sent"')).toBeGreaterThan(-1);
    expect(log.indexOf('"msg":"alert email sent"')).toBeLessThan(log.indexOf('"msg":"shut down"'));
  }, 90_000);
});
