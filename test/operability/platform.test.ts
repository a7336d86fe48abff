import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { METHODOLOGY_VERSION, buildAnswer, capabilities, generateKey } from '@evidence-record/contract';
import {
  ConfigError,
  Metrics,
  baseEnv,
  createPool,
  createServiceApp,
  env,
  finishServiceApp,
  loadConfig,
  mountCapability,
  startService,
  type ServiceAppOptions,
} from '@evidence-record/platform';
import { ADMIN_DATABASE_URL } from '@evidence-record/test-support/infra';
import { connectionRefused, gate, parseMetrics, request, valueOf, waitFor } from './support';

/**
 * The runtime every service shares, in-process: how it drains on shutdown,
 * what its one access-log line holds, and what it counts as a dependency
 * error. The per-service process tests (shutdown.test.ts) prove the same on
 * the real entrypoints.
 */
const record = { record_version: 'rv_00000001', record_as_of: '2026-01-01', record_timestamp: '2026-01-01T00:00:00.000Z', methodology_version: METHODOLOGY_VERSION };

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  let raw = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw += chunk.toString();
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines, raw: () => raw };
}

function serviceApp(log: ReturnType<typeof capturingLogger>['log'], metrics = new Metrics('test')) {
  const opts: ServiceAppOptions = { name: 'test', log, metrics, readiness: async () => undefined, recordVersion: async () => record.record_version };
  const app = createServiceApp(opts);
  const held = { arrived: gate(), release: gate() };
  // A slow route: answers only when the test opens the gate.
  app.get('/slow', async (_req, res) => {
    held.arrived.open();
    await held.release.promise;
    res.json({ ok: true });
  });
  mountCapability(app, opts, capabilities.get_record_version, async (_input, ctx) => ({
    answer: buildAnswer({ request_id: ctx.requestId, capability: 'get_record_version', status: 'supported', summary: 'Test.', confidence: { level: 'high', basis: 'test' }, coverage: {}, record }),
    entities: [],
  }));
  finishServiceApp(app, opts);
  return { app, held, metrics };
}

const servers: http.Server[] = [];
afterAll(() => {
  for (const s of servers) s.closeAllConnections();
});

/** The same app on a second listener: how the test reads /readyz after the service stopped accepting connections. */
async function sideDoor(app: http.RequestListener): Promise<string> {
  const s = http.createServer(app);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('shutdown drain (platform startService)', () => {
  it('refuses new connections, answers 503 on /readyz, finishes the in-flight request with Connection: close, and returns as soon as it is answered', async () => {
    const { log, lines } = capturingLogger();
    const { app, held } = serviceApp(log);
    const events: string[] = [];
    const running = await startService(app, {
      port: 0,
      log,
      graceMs: 10_000,
      handleSignals: false,
      onDrain: async () => void events.push('drain'),
      onShutdown: async () => void events.push('shutdown'),
    });
    const base = `http://127.0.0.1:${running.port}`;
    const side = await sideDoor(app);

    // A kept-alive connection left idle, as a load balancer or the gateway's agent would hold it.
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(`${base}/healthz`, { agent: idleAgent })).status).toBe(200);
    const idleSocket = await waitFor('the kept-alive socket to go idle', () => Object.values(idleAgent.freeSockets).flat()[0], 1_000, 5);
    const idleClosed = new Promise<void>((resolve) => idleSocket.once('close', () => resolve()));

    const inFlight = request(`${base}/slow`, { agent: new http.Agent({ keepAlive: true }) });
    await held.arrived.promise;
    expect((await request(`${side}/readyz`)).status).toBe(200);

    const closing = running.close();
    expect(events).toEqual(['drain']);
    expect((await request(`${side}/readyz`)).status).toBe(503);
    await waitFor('the listener to close', () => connectionRefused(running.port), 2_000, 20);
    await idleClosed;

    await new Promise((r) => setTimeout(r, 200)); // time passes: the held request keeps the drain open meanwhile
    held.release.open();
    const answered = Date.now();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    await closing;
    // Not the keep-alive timeout (65 s) nor the grace period (10 s): done once the answer left.
    expect(Date.now() - answered).toBeLessThan(1_000);
    expect(events).toEqual(['drain', 'shutdown']);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down: no new connections, finishing in-flight requests', 'shut down']));
  });

  it('cuts a request that outlives the grace period, then still closes pools', async () => {
    const { log, lines } = capturingLogger();
    const { app, held } = serviceApp(log);
    let shutdownRan = false;
    const running = await startService(app, { port: 0, log, graceMs: 400, handleSignals: false, onShutdown: async () => void (shutdownRan = true) });
    const inFlight = request(`http://127.0.0.1:${running.port}/slow`).then(
      () => 'answered',
      (err: NodeJS.ErrnoException) => err.code ?? err.message,
    );
    await held.arrived.promise;
    const started = Date.now();
    await running.close();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(2_000);
    expect(await inFlight).toBe('ECONNRESET');
    expect(shutdownRan).toBe(true);
    expect(lines.some((l) => l.msg === 'grace period over: closing the remaining connections' && l.open_requests === 1)).toBe(true);
    held.release.open();
  });
});

describe('the access-log line', () => {
  it('has method, route, capability, status, latency, request, trace and key ids; never a key, a header value or a query string', async () => {
    const { log, lines, raw } = capturingLogger();
    const { app, metrics } = serviceApp(log);
    const base = await sideDoor(app);
    const { key, keyId } = generateKey('test');
    const traceId = randomBytes(16).toString('hex');
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    const common = { authorization: `Bearer ${key}`, 'x-service-key': key, 'x-er-key-id': keyId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };

    expect((await request(`${base}/api/v1/record/version`, { headers: { ...common, 'x-request-id': requestId } })).status).toBe(200);
    expect((await request(`${base}/api/v1/record/version?api_key=${key}`, { headers: common })).status).toBe(400);
    expect((await request(`${base}/api/v1/nothing-here?key=${key}`, { headers: common })).status).toBe(404);

    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/record/version',
      capability: 'get_record_version',
      status: 200,
      code: null,
      request_id: requestId,
      trace_id: traceId,
      key_id: keyId,
    });
    expect(typeof requests[0]!.ms).toBe('number');
    expect(requests[1]).toMatchObject({ capability: 'get_record_version', status: 400, code: 'invalid_request', trace_id: traceId, key_id: keyId });
    expect(requests[2]).toMatchObject({ capability: 'unknown', route: 'unknown', status: 404, code: 'unsupported_capability', trace_id: traceId });
    for (const line of requests) expect(line.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    const secret = key.split('_').pop()!;
    expect(raw()).not.toContain(secret);
    expect(raw()).not.toContain('api_key');
    expect(raw()).not.toContain('nothing-here');

    const samples = parseMetrics(await metrics.registry.metrics());
    expect(valueOf(samples, 'er_requests_total', { capability: 'get_record_version', status: '200', code: '' })).toBe(1);
    expect(valueOf(samples, 'er_requests_total', { capability: 'get_record_version', status: '400', code: 'invalid_request' })).toBe(1);
    expect(valueOf(samples, 'er_requests_total', { capability: 'unknown', status: '404', code: 'unsupported_capability' })).toBe(1);
    expect(valueOf(samples, 'er_refusals_total', { code: 'invalid_request' })).toBe(1);
    expect(valueOf(samples, 'er_request_duration_seconds_count', { capability: 'get_record_version' })).toBe(2);
  });

  it('starts a trace when the caller sent none, and a malformed traceparent is not continued', async () => {
    const { log, lines } = capturingLogger();
    const { app } = serviceApp(log);
    const base = await sideDoor(app);
    await request(`${base}/api/v1/record/version`);
    await request(`${base}/api/v1/record/version`, { headers: { traceparent: '00-00000000000000000000000000000000-0000000000000000-01' } });
    const [first, second] = lines.filter((l) => l.msg === 'request');
    expect(first!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(second!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(second!.trace_id).not.toBe('00000000000000000000000000000000');
    expect(first!.trace_id).not.toBe(second!.trace_id);
  });
});

describe('dependency errors', () => {
  it('counts each failed Postgres round trip once: refused connections, failed queries, through the pool or a checked-out client', async () => {
    const metrics = new Metrics('test');
    const count = async () => valueOf(parseMetrics(await metrics.registry.metrics()), 'er_dependency_errors_total', { dependency: 'postgres' });
    metrics.dependsOn('postgres');
    expect(await count()).toBe(0);

    const unreachable = new URL(ADMIN_DATABASE_URL);
    unreachable.port = '1';
    const gone = createPool(unreachable.toString(), { metrics });
    await expect(gone.query('SELECT 1')).rejects.toThrow();
    await gone.end();
    expect(await count()).toBe(1);

    const pool = createPool(ADMIN_DATABASE_URL, { metrics, max: 2 });
    try {
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await expect(pool.query('SELECT 1/0')).rejects.toThrow(/division by zero/);
      expect(await count()).toBe(2);
      const client = await pool.connect();
      try {
        await expect(client.query('SELECT * FROM no_such_table')).rejects.toThrow(/does not exist/);
        await client.query('SELECT 1');
      } finally {
        client.release();
      }
      expect(await count()).toBe(3);
    } finally {
      await pool.end();
    }
  });
});

describe('configuration', () => {
  const schema = z.object({ ...baseEnv, DATABASE_URL: env.databaseUrl, PORT: env.port(8101) });

  it('names each bad variable and why, never its value', () => {
    const attempt = (source: NodeJS.ProcessEnv) => {
      try {
        loadConfig(schema, source);
        return '';
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
    };
    expect(attempt({})).toMatch(/DATABASE_URL: required, but not set/);
    const secretUrl = 'mysql://user:hunter2@db/x';
    const message = attempt({ DATABASE_URL: secretUrl, PORT: '99999', LOG_LEVEL: 'loud', SHUTDOWN_GRACE_MS: '-1', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
    for (const name of ['DATABASE_URL', 'PORT', 'LOG_LEVEL', 'SHUTDOWN_GRACE_MS', 'OTEL_EXPORTER_OTLP_ENDPOINT']) expect(message).toContain(`  ${name}: `);
    expect(message).not.toContain('hunter2');
    expect(loadConfig(schema, { DATABASE_URL: 'postgres://x@y/z', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toMatchObject({ PORT: 8101, SHUTDOWN_GRACE_MS: 10_000, LOG_LEVEL: 'info' });
  });
});
