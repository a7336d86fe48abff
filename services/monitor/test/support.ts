import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { Metrics, createLogger, createPool, startService, type Pool, type RunningService } from '@evidence-record/platform';
import { startSourceServer, type SourceServer } from '@evidence-record/demo-sources';
import { emptyDatabase, type TestDatabase } from '@evidence-record/test-support/db';
import { createRecordApp } from '@evidence-record/record';
import { addProduct } from '@evidence-record/curation';
import { createMonitor, defaultSettings, type MonitorSettings, type Resolver } from '@evidence-record/sources';

/** Test settings: the local stack's localhost admission, no politeness wait, short timeouts. */
export function testSettings(over: Partial<MonitorSettings> = {}): MonitorSettings {
  return {
    ...defaultSettings(),
    MONITOR_ALLOW_LOCALHOST: true,
    MONITOR_HOST_INTERVAL_MS: 0,
    MONITOR_CONNECT_TIMEOUT_MS: 1_000,
    MONITOR_READ_TIMEOUT_MS: 700,
    MONITOR_MAX_BODY_BYTES: 200_000,
    MONITOR_LEASE_MS: 10_000,
    MONITOR_ROBOTS_TTL_MS: 0,
    ...over,
  };
}

/** A monitor whose clock the test sets: the Record dates readings by day. */
export function testMonitor(pool: Pool, settings: MonitorSettings, opts: { owner?: string; resolve?: Resolver; realClock?: boolean } = {}) {
  const clock = { now: new Date('2026-03-02T09:00:00Z') };
  const deps = createMonitor(pool, settings, {
    owner: opts.owner ?? 'test-replica',
    ...(opts.realClock ? {} : { now: () => clock.now }),
    ...(opts.resolve ? { resolve: opts.resolve } : {}),
  });
  return { deps, clock, day: (d: string) => (clock.now = new Date(`${d}T09:00:00Z`)) };
}

export async function product(pool: Pool, name: string): Promise<string> {
  return (await addProduct(pool, { brand: 'Testbrand Labs', name })).product_id;
}

/** The record service on the test's database: what answers say about what the monitor read. */
export async function startRecord(pool: Pool): Promise<RunningService> {
  const log = createLogger('record-test', 'silent');
  return startService(createRecordApp({ pool, publicBaseUrl: 'https://er.test', log, metrics: new Metrics('record') }), { port: 0, log, graceMs: 500, handleSignals: false });
}

export interface SourceWorld {
  db: TestDatabase;
  pool: Pool;
  src: SourceServer;
  /** The local stack's settings, with DSLD at this world's source server. */
  settings: MonitorSettings;
}

/**
 * A test file's own sources: an empty database, a pool and the demo source server, opened before the file's tests and
 * closed after them. Its fields are set once the file's first beforeAll has run (hooks run in the order they are
 * registered, so call this before registering others; after-hooks run in the reverse order).
 */
export function sourceWorld(): SourceWorld {
  const world = {} as SourceWorld;
  beforeAll(async () => {
    world.db = await emptyDatabase();
    world.pool = createPool(world.db.url, { max: 6 });
    world.src = await startSourceServer();
    world.settings = testSettings({ DSLD_BASE_URL: `${world.src.origin}/dsld/v9` });
  });
  afterAll(async () => {
    await world.src?.close();
    await world.pool?.end();
    await world.db?.drop();
  });
  return world;
}

export interface RecordWorld extends SourceWorld {
  record: RunningService;
}

/** A sourceWorld with the record service on its database, closed before the rest. */
export function recordWorld(): RecordWorld {
  const world = sourceWorld() as RecordWorld;
  beforeAll(async () => {
    world.record = await startRecord(world.pool);
  });
  afterAll(async () => {
    await world.record?.close();
  });
  return world;
}

/** A 200 answer of the record service at `path` (under /api/v1). */
export async function answerOf<T>(record: RunningService, path: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${record.port}/api/v1${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

export const localhostOnly: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

/** A real DSLD label record of `fixtures/dsld-real/`, its bytes as saved (each file's provenance is beside it). */
export const realLabel = (id: number): string => readFileSync(fileURLToPath(new URL(`./fixtures/dsld-real/${id}.json`, import.meta.url)), 'utf8');
