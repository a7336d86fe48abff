import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
import pg from 'pg';
import { streamNames } from '@evidence-record/contract';
import { buildDemoRecord, buildGeneratedRecord, cachedDatabase, cloneDatabase, databaseUrl, dropDatabase, sourceFingerprint } from './databases';
import { AlertSink, drainAlerts, insertWatchers, measureFanout, type FanoutResult } from './fanout';
import { combine, runLoad, runLoadSample, type LoadResult, type LoadSample, type RequestTemplate } from './load';
import { runPaced } from './paced';
import { PgCounter } from './pg-counter';
import { probeShapes } from './probe';
import { flameGraphSvg, summarizeProfile } from './profile';
import { PrivateRedis, RedisCounter } from './redis-counter';
import { diffCounts } from './tap';
import { groupBy, hopCpuRatio, hopThroughputRatio, previousAnalysis, previousHistory, renderReport, spread, targets, type BenchResults, type CapabilityRow, type HotPathRow, type McpComparison, type OverheadRow, type RecordSize, type ServiceProfile } from './report';
import { BenchStack, freePort, type Bundle } from './stack';
import { natsConnectOptions, signRequest } from '@evidence-record/platform';
import { signingKeysEnvName } from '@evidence-record/registry';
import { cpuSecondsOf } from '@evidence-record/test-support/launcher';

/**
 * `npm run bench`: one run that measures the gateway and the hot paths on
 * this machine and writes docs/benchmarks.md (see its "How it is measured").
 */
const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    counted: { type: 'string', default: '3000' },
    /** Calls per second of the paced MCP/REST comparison, both sides together. */
    'mcp-rate': { type: 'string', default: '100' },
    /** Seconds each paced round runs (issue 25: 20 s, so 1,000 calls a side and the p99 not one call's luck). */
    'paced-seconds': { type: 'string', default: '20' },
    watchers: { type: 'string', default: '10000' },
    products: { type: 'string', default: '100000' },
    signals: { type: 'string', default: '500000' },
    profile: { type: 'boolean', default: false },
    /** Only these sections (comma-separated: hop, counts, record, mcp, fanout); every one when absent. */
    only: { type: 'string', default: '' },
    /** Only build (or check) the cached databases, e.g. ahead of a timed run. */
    'prepare-only': { type: 'boolean', default: false },
    'skip-large': { type: 'boolean', default: false },
    'skip-fanout': { type: 'boolean', default: false },
    /** How many times each judged measurement runs: the report gives the median and the range (issue 18: no figure from one run). */
    repeat: { type: 'string', default: '3' },
    out: { type: 'string', default: 'docs/benchmarks.md' },
  },
  strict: true,
});

const settings = {
  seconds: Number(flags.seconds),
  warmupSeconds: Number(flags.warmup),
  connections: Number(flags.connections),
  countedRequests: Number(flags.counted),
  mcpRate: Number(flags['mcp-rate']),
  pacedSeconds: Number(flags['paced-seconds']),
  repeat: Math.max(1, Math.floor(Number(flags.repeat)) || 1),
};
const onlySections = new Set(flags.only.split(',').map((x) => x.trim()).filter(Boolean));
const section = (name: 'hop' | 'counts' | 'record' | 'mcp' | 'fanout') => onlySections.size === 0 || onlySections.has(name);
const RUNS = Array.from({ length: settings.repeat }, (_, i) => i + 1);
/** Section 1's one warm-up of every path before its first run (seconds per path and capability). */
const STEADY_WARMUP_SECONDS = 6;
const WATCHERS = Number(flags.watchers);
const LARGE = { products: Number(flags.products), signals: Number(flags.signals) };
/** The whole run must stay under ten minutes (building the database cache not counted); optional parts are skipped past this point. */
const SOFT_DEADLINE_MS = (3 + 5.5 * settings.repeat) * 60_000;
let cacheBuildMs = 0;
/** Distinct resolve identifiers one key may use per day before the extraction score counts them (gateway scoring policy). */
const IDENTIFIERS_PER_KEY = 40;
const EXTRA_KEYS = 10;
/** A fan-out run is stopped here (the target is 60 s); the rate so far still tells how long all would take. */
const FANOUT_LIMIT_MS = 65_000;

const started = Date.now();
const workDir = '.run/bench';
const logDir = join(workDir, 'logs');
const profileDir = join(workDir, 'profiles');
const notes: string[] = [];
const log = (msg: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${msg}\n`);
const elapsed = () => Date.now() - started - cacheBuildMs;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

rmSync(logDir, { recursive: true, force: true });
rmSync(profileDir, { recursive: true, force: true });
mkdirSync(logDir, { recursive: true });
mkdirSync(profileDir, { recursive: true });

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const machine = {
  nproc: os.availableParallelism(),
  cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
  memoryGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  os: `${os.type()} ${os.release()}`,
  loadBefore: os.loadavg(),
  loadAfter: [] as number[],
};
const commit = git('rev-parse', '--short=10', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no').length > 0;

// ---------------------------------------------------------------- request shapes

const json = { 'content-type': 'application/json' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function versionRequests(key: string): RequestTemplate[] {
  return [{ method: 'GET', path: '/api/v1/record/version', headers: bearer(key) }];
}

interface Identifier {
  text: string;
  shape: string;
}

/** Resolve requests, their identifiers spread over the keys at most IDENTIFIERS_PER_KEY each (the extraction score's daily allowance). */
function resolveRequests(keys: string[], identifiers: Identifier[]): RequestTemplate[] {
  return identifiers.slice(0, keys.length * IDENTIFIERS_PER_KEY).map((identifier, i) => ({
    method: 'POST',
    path: '/api/v1/products/resolve',
    headers: { ...bearer(keys[Math.floor(i / IDENTIFIERS_PER_KEY)]!), ...json },
    body: JSON.stringify({ identifier: identifier.text.slice(0, 120) }),
    shape: identifier.shape,
  }));
}

function productRequests(key: string, productIds: string[]): RequestTemplate[] {
  return productIds.map((id) => ({ method: 'GET', path: `/api/v1/products/${id}`, headers: bearer(key), shape: 'by product id' }));
}

function feedRequests(key: string, sample: RecordSample): RequestTemplate[] {
  const out: RequestTemplate[] = [];
  const n = Math.max(sample.feedProducts.length, sample.feedBrands.length, 1);
  for (let i = 0; i < n; i++) {
    out.push({ method: 'GET', path: '/api/v1/signals?limit=20', headers: bearer(key), shape: 'newest page' });
    const p = sample.feedProducts[i % Math.max(1, sample.feedProducts.length)];
    if (p) out.push({ method: 'GET', path: `/api/v1/signals?product_id=${p}&limit=20`, headers: bearer(key), shape: 'product filter' });
    const b = sample.feedBrands[i % Math.max(1, sample.feedBrands.length)];
    if (b) out.push({ method: 'GET', path: `/api/v1/signals?brand=${b}&limit=20`, headers: bearer(key), shape: 'brand filter' });
  }
  return out;
}

function mcpRequests(key: string, identifier: string): RequestTemplate[] {
  return [
    {
      method: 'POST',
      path: '/mcp',
      headers: { ...bearer(key), ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'products.resolve', arguments: { identifier } } }),
    },
  ];
}

// ---------------------------------------------------------------- helpers

interface RecordSample {
  size: RecordSize;
  identifiers: Identifier[];
  productIds: string[];
  feedProducts: string[];
  feedBrands: string[];
  fanoutProducts: string[];
  lastReleaseDate: string | null;
}

/** Real names, ids and filters of the Record under test, in a fixed (hash) order so runs compare. */
async function sampleRecord(database: string): Promise<RecordSample> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  await client.connect();
  try {
    const q = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;
    const [size] = await q<{ products: number; signals: number }>(
      `SELECT (SELECT count(*)::int FROM products) AS products, (SELECT count(*)::int FROM signals WHERE released_on IS NOT NULL) AS signals`,
    );
    const names = await q<{ identifier: string; shape: string }>(
      `SELECT identifier, shape FROM (
         (SELECT b.name || ' ' || p.name AS identifier, 'brand + product name' AS shape, md5(p.product_id) AS h
            FROM products p JOIN brands b USING (brand_id) ORDER BY md5(p.product_id) LIMIT ${EXTRA_KEYS * IDENTIFIERS_PER_KEY})
         UNION ALL
         (SELECT alias, 'alias', md5(alias) FROM product_aliases ORDER BY md5(alias) LIMIT ${EXTRA_KEYS * 8})
       ) x ORDER BY h`,
    );
    const ids = await q<{ product_id: string }>(`SELECT product_id FROM products ORDER BY md5(product_id) LIMIT 2000`);
    const feedProducts = await q<{ product_id: string }>(
      `SELECT product_id FROM (SELECT DISTINCT product_id FROM signals WHERE released_on IS NOT NULL) s ORDER BY md5(product_id) LIMIT 200`,
    );
    const feedBrands = await q<{ brand_id: string }>(`SELECT brand_id FROM brands ORDER BY md5(brand_id) LIMIT 50`);
    const fanout = await q<{ product_id: string }>(
      `SELECT p.product_id FROM products p
        WHERE p.depth_class = 'TRACKED' AND p.retired_on IS NULL
          AND EXISTS (SELECT 1 FROM history_states h WHERE h.product_id = p.product_id AND h.classification = 'comparable')
        ORDER BY md5(p.product_id) LIMIT 16`,
    );
    const [last] = await q<{ d: string | null }>(`SELECT max(release_date)::text AS d FROM release_batches`);
    // Identifiers that normalise alike are one identifier to the score but two requests here; keep the first.
    const seen = new Set<string>();
    const identifiers = names
      .map((n) => ({ text: n.identifier, shape: n.shape }))
      .filter((i) => {
        const k = i.text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    return {
      size: { database, products: size!.products, signals: size!.signals },
      identifiers,
      productIds: ids.map((r) => r.product_id),
      feedProducts: feedProducts.map((r) => r.product_id),
      feedBrands: feedBrands.map((r) => r.brand_id),
      fanoutProducts: fanout.map((r) => r.product_id),
      lastReleaseDate: last?.d ?? null,
    };
  } finally {
    await client.end();
  }
}

interface Keys {
  main: string;
  extra: string[];
}

/** An organisation on the demo plan bound to one account, a key with every scope, and further keys of the same organisation. */
async function issueKeys(stack: BenchStack, extra: number): Promise<Keys> {
  const org = String((await stack.admin('org', 'create', '--name', 'Benchmark', '--plan', 'demo')).org_id);
  await stack.admin('account', 'create', '--org', org, '--email', 'bench@evidence-record.bench');
  const issue = async (name: string) => String((await stack.admin('key', 'issue', '--org', org, '--scopes', 'all', '--env', 'test', '--name', name)).key);
  const main = await issue('bench main');
  const keys: string[] = [];
  for (let i = 0; i < extra; i += 5) {
    keys.push(...(await Promise.all(Array.from({ length: Math.min(5, extra - i) }, (_, j) => issue(`bench resolve ${i + j + 1}`)))));
  }
  return { main, extra: keys };
}

/** A process whose CPU time is counted per request: read from /proc, null where that is not available. */
interface CpuProbe {
  name: string;
  read: () => number | null;
}

/** The CPU probe of a process of a bench stack, under the name it has there (or `as`). */
const probeOf = (stack: BenchStack, name: string, as = name): CpuProbe => ({ name: as, read: () => stack.cpuSeconds(name) });

interface Side {
  label: string;
  url: string;
  requests: RequestTemplate[];
  /** Headers made per request (e.g. the internal signature of a call straight to a service). */
  headersFor?: (t: RequestTemplate) => Record<string, string>;
  /** Processes whose CPU time is counted per request (e.g. the gateway, or every service on an MCP call's path). */
  cpu?: CpuProbe[];
}

/**
 * A against B: both warmed up, then measured in slices A, B, B, A of half the
 * measuring time each, so a change in the machine's background load during
 * the comparison falls on both sides alike. Each side's figures are its
 * slices combined.
 */
async function compare(a: Side, b: Side, opts: { connections?: number; rate?: number } = {}): Promise<[LoadResult, LoadResult]> {
  const [ra, rb] = await compareSides([a, b], opts);
  return [ra!, rb!];
}

/**
 * Several sides in rounds A B C … C B A: each warmed up, then measured in
 * two slices of half the measuring time, in that order and back, so a drift
 * in the machine's background load falls on every side alike. Each side's
 * figures are its slices combined; CPU per request is each probed process's
 * CPU time during that side's slices over the requests served in them.
 */
async function compareSides(sides: Side[], opts: { connections?: number; rate?: number } = {}): Promise<LoadResult[]> {
  const connections = opts.connections ?? settings.connections;
  const rate = opts.rate ? { rate: opts.rate } : {};
  const load = (side: Side, seconds: number) => ({ url: side.url, requests: side.requests, connections, seconds, ...rate, ...(side.headersFor ? { headersFor: side.headersFor } : {}) });
  for (const side of sides) await runLoad(load(side, settings.warmupSeconds));
  const samples = new Map<Side, LoadSample[]>(sides.map((s) => [s, []]));
  // CPU seconds per probed process, per side; null once a reading failed.
  const cpu = new Map<Side, Map<string, number | null>>(sides.map((s) => [s, new Map((s.cpu ?? []).map((p) => [p.name, 0]))]));
  const read = (side: Side) => new Map((side.cpu ?? []).map((p) => [p.name, p.read()]));
  for (const side of [...sides, ...[...sides].reverse()]) {
    const c0 = read(side);
    samples.get(side)!.push(await runLoadSample(load(side, settings.seconds / 2)));
    const c1 = read(side);
    const sofar = cpu.get(side)!;
    for (const [name, before] of c0) {
      const after = c1.get(name);
      const acc = sofar.get(name);
      sofar.set(name, before === null || after === null || after === undefined || acc === null || acc === undefined ? null : acc + (after - before));
    }
  }
  return sides.map((side) => {
    const r = combine(samples.get(side)!);
    const used = [...cpu.get(side)!.entries()];
    if (used.length > 0 && used.every(([, c]) => c !== null)) {
      r.cpuByProcess = Object.fromEntries(used.map(([name, c]) => [name, (c! * 1e6) / r.requests]));
      r.cpuUsPerRequest = Object.values(r.cpuByProcess).reduce((x, y) => x + y, 0);
    } else {
      r.cpuUsPerRequest = null;
    }
    if (r.non2xx + r.errors + r.timeouts > 0) {
      notes.push(`${side.label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; first refusal: ${r.firstRefusal ?? 'none'}`);
    }
    return r;
  });
}

const fmt = (r: LoadResult) =>
  `${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms${r.cpuUsPerRequest ? `, ${Math.round(r.cpuUsPerRequest)} µs CPU/request` : ''}${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`;

/** The gateway's two background timers: never awaited by a request. */
const isBackground = (sql: string) => /FROM record_versions/i.test(sql) || /INSERT INTO usage_log/i.test(sql);

/** The gateway's er_gateway_settlements_total, read from its /metrics. */
async function settlements(gatewayUrl: string): Promise<{ redis: number; repeat: number }> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const of = (path: string) => Number(new RegExp(`^er_gateway_settlements_total\\{path="${path}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { redis: of('redis'), repeat: of('repeat') };
}

async function countHotPath(
  stack: BenchStack,
  counters: { redis: PrivateRedis; wire: RedisCounter; pg: PgCounter },
  idle: { seconds: number; redis: number },
  capability: string,
  requests: RequestTemplate[],
  amount = settings.countedRequests,
): Promise<HotPathRow> {
  const settled0 = await settlements(stack.url('gateway-counted'));
  const executed0 = await counters.redis.commandCalls();
  const r0 = counters.wire.snapshot();
  const p0 = counters.pg.snapshot();
  const t0 = Date.now();
  const load = await runLoad({ url: stack.url('gateway-counted'), requests, connections: Math.min(settings.connections, amount), amount });
  const seconds = (Date.now() - t0) / 1000;
  const executed1 = await counters.redis.commandCalls();
  const r1 = counters.wire.snapshot();
  const p1 = counters.pg.snapshot();
  const settled1 = await settlements(stack.url('gateway-counted'));
  if (load.non2xx + load.errors > 0) notes.push(`counted ${capability}: ${load.non2xx} non-2xx, ${load.errors} errors; first: ${load.firstRefusal ?? 'none'}`);
  const byCommand = Object.fromEntries(diffCounts(r0, r1));
  const commands = Object.values(byCommand).reduce((a, b) => a + b, 0);
  const executed = [...diffCounts(executed0, executed1).values()].reduce((a, b) => a + b, 0);
  const background = (idle.redis / idle.seconds) * seconds;
  let awaited = 0;
  let all = 0;
  const pgByStatement: HotPathRow['pgByStatement'] = [];
  for (const [sql, n] of diffCounts(p0, p1)) {
    all += n;
    const bg = isBackground(sql);
    if (!bg) awaited += n;
    pgByStatement.push({ statement: sql, count: n, background: bg });
  }
  const done = load.requests;
  return {
    capability,
    requests: done,
    seconds,
    redisPerRequest: Math.max(0, commands - background) / done,
    redisByCommand: byCommand,
    settled: { redis: settled1.redis - settled0.redis, repeat: settled1.repeat - settled0.repeat },
    redisExecutedPerRequest: executed / done,
    pgAwaitedPerRequest: awaited / done,
    pgAllPerRequest: all / done,
    pgByStatement,
  };
}

/**
 * A chain of bare forwarding processes (scripts/benchmark/bare-hop.ts) in front of `target`; its url is the outermost.
 * With `signingKey`, each signs what it forwards as the gateway does (the bare forwarder of section 1).
 */
async function startBareHops(count: number, target: string, signingKey?: string): Promise<{ url: string; pids: number[]; stop: () => Promise<void> }> {
  const children: ChildProcess[] = [];
  let next = target;
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const env = signingKey ? { ...process.env, BARE_HOP_SIGNING_KEY: signingKey } : process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/benchmark/bare-hop.ts', String(port), next], { stdio: ['ignore', 'pipe', 'inherit'], env });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`bare hop exited with ${code}`)));
    });
    next = `http://127.0.0.1:${port}`;
  }
  return {
    url: next,
    pids: children.map((c) => c.pid!),
    stop: async () => {
      await Promise.all(children.map((c) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : (c.once('exit', () => resolve()), c.kill('SIGTERM'))))));
    },
  };
}

async function deleteStreams(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connect({ ...natsConnectOptions(natsUrl), name: 'bench-cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    const names = streamNames(prefix);
    for (const s of [names.signals.stream, names.alerts.stream]) await jsm.streams.delete(s).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * One service process run under --cpu-prof while it serves a closed-loop
 * load, then stopped (V8 writes the profile on exit) and summarised; its CPU
 * per request is read from /proc over the measured run.
 */
async function profileProcess(opts: {
  stack: BenchStack;
  name: string;
  bundle: Bundle;
  env: Record<string, string>;
  label: string;
  load: string;
  url: () => string;
  requests: RequestTemplate[];
  /** Also write the profile as a flame graph (SVG) here. */
  flameGraph?: string;
}): Promise<ServiceProfile | null> {
  const file = `${opts.name}-${Date.now()}.cpuprofile`;
  const launched = Date.now();
  await opts.stack.startProcess(opts.name, opts.bundle, opts.env, ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', file]);
  await runLoad({ url: opts.url(), requests: opts.requests, connections: settings.connections, seconds: settings.warmupSeconds });
  // The summary and the flame graph leave out the start-up and the warm-up: only the measured load.
  const fromMs = Date.now() - launched;
  const c0 = opts.stack.cpuSeconds(opts.name);
  const r = await runLoad({ url: opts.url(), requests: opts.requests, connections: settings.connections, seconds: settings.seconds });
  const c1 = opts.stack.cpuSeconds(opts.name);
  await opts.stack.stopProcess(opts.name);
  const path = join(profileDir, file);
  for (let i = 0; i < 50 && !existsSync(path); i++) await sleep(100);
  if (!existsSync(path)) {
    notes.push(`no CPU profile was written for ${opts.label}`);
    return null;
  }
  const s = summarizeProfile(path, 20, fromMs);
  if (opts.flameGraph) writeFileSync(opts.flameGraph, flameGraphSvg(path, `${opts.label}, ${opts.load}, ${new Date().toISOString().slice(0, 16)} UTC`, { fromMs }));
  const cpuUsPerRequest = c0 === null || c1 === null ? null : ((c1 - c0) * 1e6) / r.requests;
  log(`profile of ${opts.label}: ${path} (${cpuUsPerRequest === null ? '?' : Math.round(cpuUsPerRequest)} µs CPU per request)`);
  return { process: opts.label, load: opts.load, rps: r.rps, cpuUsPerRequest, functions: s.functions, owners: s.owners };
}

// ---------------------------------------------------------------- the run

const redis = new PrivateRedis(await freePort());
const counter = new PgCounter({ host: '127.0.0.1', port: 5432 });
let redisWire: RedisCounter | null = null;
const sink = new AlertSink();
const runId = randomBytes(4).toString('hex');
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const prefixes = { demo: `bench_${runId}_demo`, large: `bench_${runId}_large` };
const stacks: BenchStack[] = [];
const largeDatabases: string[] = [];

const results: BenchResults = {
  date: new Date().toISOString().slice(0, 19),
  commit,
  dirty,
  machine,
  settings,
  records: { demo: { database: 'er_bench_demo', products: 0, signals: 0 }, large: { database: '', products: 0, signals: 0, reused: false, buildSeconds: 0 } },
  idle: { seconds: 0, redisCommands: 0, redisByCommand: {}, pgStatements: 0 },
  overhead: [],
  hotPath: [],
  capabilities: [],
  mcp: [],
  hopFloor: [],
  fanout: [],
  profiles: [],
  notes,
  totalSeconds: 0,
};

/** The Records under test: a fresh copy of each cached template, and what was sampled from it. */
interface Records {
  demoUrl: string;
  demoSample: RecordSample;
  large: { url: string; sample: RecordSample } | null;
}

/** The two stacks of the run, their keys, and the request shapes every section shares. */
interface Run {
  demo: BenchStack;
  large: BenchStack | null;
  records: Records;
  demoKeys: Keys;
  largeKeys: Keys | null;
  /** A brand + product name the demo Record resolves: the one identifier of the hop and MCP sections. */
  identifier: string;
  fixedResolve: RequestTemplate[];
  overheadCases: Array<[string, RequestTemplate[]]>;
}

/** Databases: cached templates, fresh copies for this run (with --prepare-only, only the templates, then exit). */
async function prepareRecords(): Promise<Records> {
  const migrations = 'services/record-store/migrations';
  const demoTpl = await cachedDatabase('er_bench_tpl_demo', await sourceFingerprint(['scripts/migrate.ts', 'scripts/seed-demo.ts'], [migrations]), buildDemoRecord, log);
  const largeName = `er_bench_${LARGE.products >= 1000 ? `${Math.round(LARGE.products / 1000)}k` : LARGE.products}`;
  const largeTpl = flags['skip-large'] || !section('record')
    ? null
    : await cachedDatabase(
        largeName,
        `${await sourceFingerprint(['scripts/migrate.ts', 'scripts/generate-record.ts'], [migrations])}-${LARGE.products}-${LARGE.signals}`,
        buildGeneratedRecord(LARGE.products, LARGE.signals),
        log,
      );
  cacheBuildMs = (demoTpl.seconds + (largeTpl?.seconds ?? 0)) * 1000;
  if (largeTpl) {
    log(largeTpl.reused ? `${largeName}: reused (sources unchanged)` : `${largeName}: generated in ${largeTpl.seconds.toFixed(0)} s`);
    results.records.large.reused = largeTpl.reused;
    results.records.large.buildSeconds = largeTpl.seconds;
  }
  if (flags['prepare-only']) {
    log('cached databases are ready');
    process.exit(0);
  }
  const demoUrl = await cloneDatabase(demoTpl.name, 'er_bench_demo');
  const demoSample = await sampleRecord('er_bench_demo');
  results.records.demo = demoSample.size;
  let large: Records['large'] = null;
  if (largeTpl) {
    const url = await cloneDatabase(largeName, `${largeName}_run`);
    largeDatabases.push(`${largeName}_run`);
    const sample = await sampleRecord(`${largeName}_run`);
    results.records.large = { ...sample.size, database: largeName, reused: largeTpl.reused, buildSeconds: largeTpl.seconds };
    large = { url, sample };
  }
  return { demoUrl, demoSample, large };
}

/** The private Redis (and its wire counter), the Postgres statement counter and the SMTP sink. */
async function startCounters(): Promise<RedisCounter> {
  await redis.start();
  const wire = new RedisCounter({ host: '127.0.0.1', port: redis.port });
  redisWire = wire;
  await wire.start();
  await counter.start();
  await sink.start();
  log(`private redis-server on :${redis.port} (counted through :${wire.port}), Postgres statement counter on :${counter.port}, SMTP sink on :${sink.port}`);
  return wire;
}

/**
 * Two stacks side by side: every service on the demo Record (plus a gateway with checks off),
 * and record + signals + gateway on the generated Record, so the two Records are measured
 * alternately under the same conditions. Then the keys and the request shapes of the sections.
 */
async function startStacks(records: Records, wire: RedisCounter): Promise<Run> {
  const common = { redisUrl: redis.url, natsUrl, smtpUrl: sink.url, logDir };
  const demo = await BenchStack.create({
    ...common,
    label: 'demo',
    databaseUrl: records.demoUrl,
    counted: { databaseUrl: `postgres://postgres@127.0.0.1:${counter.port}/er_bench_demo`, redisUrl: `redis://127.0.0.1:${wire.port}` },
    redisPrefix: `erbench:${runId}:demo:`,
    natsPrefix: prefixes.demo,
    backends: ['record', 'signals', 'ledger', 'watch', 'email-worker', 'mcp'] satisfies Bundle[],
    uncheckedGateway: true,
  });
  stacks.push(demo);
  await demo.start();
  let large: BenchStack | null = null;
  if (records.large) {
    large = await BenchStack.create({
      ...common,
      label: 'large',
      databaseUrl: records.large.url,
      redisPrefix: `erbench:${runId}:large:`,
      natsPrefix: prefixes.large,
      backends: ['record', 'signals'],
      uncheckedGateway: false,
    });
    stacks.push(large);
    await large.start();
  }
  log(`stacks up: demo gateway ${demo.url('gateway')} (checks off: ${demo.url('gateway-off')})${large ? `, ${records.large!.sample.size.products}-product gateway ${large.url('gateway')}` : ''}`);
  const { demoSample } = records;
  const demoKeys = await issueKeys(demo, Math.min(EXTRA_KEYS, Math.ceil(demoSample.identifiers.length / IDENTIFIERS_PER_KEY)));
  const largeKeys = large ? await issueKeys(large, EXTRA_KEYS) : null;
  const identifier = demoSample.identifiers.find((i) => i.shape === 'brand + product name')?.text ?? demoSample.identifiers[0]!.text;
  const fixedResolve = resolveRequests([demoKeys.main], [{ text: identifier, shape: 'one identifier' }]);
  const overheadCases: Array<[string, RequestTemplate[]]> = [
    ['get_record_version', versionRequests(demoKeys.main)],
    ['resolve_product', fixedResolve],
  ];
  return { demo, large, records, demoKeys, largeKeys, identifier, fixedResolve, overheadCases };
}

/**
 * 1. The gateway at the cost of a hop: the gateway, the call straight to the record service, a bare
 * forwarder that only signs, and the gateway with its checks off, in rounds A B C D D C B A.
 */
async function measureHop({ demo, overheadCases }: Run): Promise<void> {
  const signingKey = demo.env[signingKeysEnvName('record')]!.split(',')[0]!;
  const bare = await startBareHops(1, demo.url('record'), signingKey);
  const bareCpu: CpuProbe = { name: 'forwarder', read: () => cpuSecondsOf(bare.pids[0]!) };
  const record = probeOf(demo, 'record');
  const signed = (t: RequestTemplate) => {
    const headers = { ...t.headers };
    signRequest(signingKey, { service: 'record', method: t.method, pathAndQuery: t.path, body: Buffer.from(t.body ?? '', 'utf8') }, headers);
    return headers;
  };
  try {
    // Once, before the first run: every path under load until its code is compiled. The 2 s warm-up of each
    // comparison left the gateway still compiling in the first run: it was the worst run of three in 11 of
    // 12 comparisons of 2026-11-26 (CPU ratio 0.1–0.4 above the other two), the forwarder's least so.
    for (const [, requests] of overheadCases) {
      for (const url of [demo.url('gateway'), demo.url('gateway-off'), bare.url]) await runLoad({ url, requests, connections: settings.connections, seconds: STEADY_WARMUP_SECONDS });
      await runLoad({ url: demo.url('record'), requests, connections: settings.connections, seconds: STEADY_WARMUP_SECONDS, headersFor: signed });
    }
    // Every judged comparison runs settings.repeat times, the runs interleaved, so the report gives a range, not one draw.
    for (const run of RUNS) {
      for (const [capability, requests] of overheadCases) {
        const [gateway, direct, forwarder, off] = await compareSides([
          { label: `${capability} (gateway)`, url: demo.url('gateway'), requests, cpu: [probeOf(demo, 'gateway'), record] },
          { label: `${capability} (direct, signed)`, url: demo.url('record'), requests, headersFor: signed, cpu: [record] },
          { label: `${capability} (bare forwarder)`, url: bare.url, requests, cpu: [bareCpu, record] },
          { label: `${capability} (gateway, checks off)`, url: demo.url('gateway-off'), requests, cpu: [probeOf(demo, 'gateway-off', 'gateway'), record] },
        ]);
        const row: OverheadRow = { capability, gateway: gateway!, direct: direct!, bare: forwarder!, off: off! };
        log(`1. run ${run}, ${capability}: gateway ${fmt(row.gateway)} | direct ${fmt(row.direct)} | bare forwarder ${fmt(row.bare)} | checks off ${fmt(row.off)}`);
        log(`   gateway / bare forwarder: throughput ${(row.gateway.rps / row.bare.rps).toFixed(2)}, CPU per request ${((row.gateway.cpuByProcess?.gateway ?? NaN) / (row.bare.cpuByProcess?.forwarder ?? NaN)).toFixed(2)}`);
        results.overhead.push(row);
      }
    }
  } finally {
    await bare.stop();
  }
}

/** 2. Round trips per request, counted outside the gateway. */
async function countRoundTrips({ demo, demoKeys, records: { demoSample }, fixedResolve }: Run, wire: RedisCounter): Promise<void> {
  const idleSeconds = 5;
  // Requests still in flight when a timed run ends finish (and settle) after it: let them.
  await sleep(1500);
  const ri0 = wire.snapshot();
  const pi0 = counter.snapshot();
  await sleep(idleSeconds * 1000);
  const ri1 = wire.snapshot();
  const pi1 = counter.snapshot();
  const idleRedis = [...diffCounts(ri0, ri1).values()].reduce((a, b) => a + b, 0);
  const idlePg = [...diffCounts(pi0, pi1).values()].reduce((a, b) => a + b, 0);
  results.idle = { seconds: idleSeconds, redisCommands: idleRedis, redisByCommand: Object.fromEntries(diffCounts(ri0, ri1)), pgStatements: idlePg };
  const countedCases: Array<[string, RequestTemplate[]]> = [
    ['get_record_version', versionRequests(demoKeys.main)],
    ['resolve_product', fixedResolve],
    ['get_product_record', productRequests(demoKeys.main, demoSample.productIds)],
    ['list_signal_changes', feedRequests(demoKeys.main, demoSample)],
  ];
  for (const run of RUNS) {
    // The same product records for an organisation that has named none of them today (a new one each run): every answer is settled in Redis.
    const newcomer = await issueKeys(demo, 0);
    // Its key loaded once, as every key is (then cached): the row counts the answers, not the first sight of a key.
    await fetch(`${demo.url('gateway-counted')}/api/v1/record/version`, { headers: bearer(newcomer.main) });
    const countedOnce: Array<[string, RequestTemplate[], number]> = [
      ['get_product_record, each product new to the organisation today', productRequests(newcomer.main, demoSample.productIds), demoSample.productIds.length],
    ];
    for (const [capability, requests, amount] of [...countedCases.map(([c, r]): [string, RequestTemplate[], number] => [c, r, settings.countedRequests]), ...countedOnce]) {
      const row = await countHotPath(demo, { redis, wire, pg: counter }, { seconds: idleSeconds, redis: idleRedis }, capability, requests, amount);
      log(`2. run ${run}, ${capability}: ${row.redisPerRequest.toFixed(2)} Redis round trips/request (${JSON.stringify(row.redisByCommand)}; ${row.redisExecutedPerRequest.toFixed(1)} commands executed in Redis), Postgres ${row.pgAwaitedPerRequest.toFixed(3)} awaited, ${row.pgAllPerRequest.toFixed(4)} all`);
      results.hotPath.push(row);
    }
  }
}

/** 3. The same request shapes at both Records, alternately; then the generated Record's stack stops. */
async function compareRecords({ demo, large, largeKeys, demoKeys, records }: Run): Promise<void> {
  const largeSample = records.large?.sample ?? null;
  if (large && largeKeys && largeSample && section('record')) {
    const cases = (keys: Keys, sample: RecordSample): Array<[string, RequestTemplate[]]> => [
      ['resolve_product', resolveRequests(keys.extra, sample.identifiers)],
      ['get_product_record', productRequests(keys.main, sample.productIds)],
      ['list_signal_changes', feedRequests(keys.main, sample)],
    ];
    const demoCases = cases(demoKeys, records.demoSample);
    const largeCases = cases(largeKeys, largeSample);
    for (const run of RUNS) for (let i = 0; i < demoCases.length; i++) {
      const [capability, demoRequests] = demoCases[i]!;
      const largeRequests = largeCases[i]![1];
      // One-at-a-time shapes once (the first run): they describe the Records, not the load.
      const demoShapes = run === 1 ? await probeShapes(demo.url('gateway'), demoRequests) : [];
      const largeShapes = run === 1 ? await probeShapes(large.url('gateway'), largeRequests) : [];
      const service = capability === 'list_signal_changes' ? 'signals' : 'record';
      const [d, l] = await compare(
        { label: `${capability} at the demo Record`, url: demo.url('gateway'), requests: demoRequests, cpu: [probeOf(demo, service)] },
        { label: `${capability} at the ${largeSample.size.products}-product Record`, url: large.url('gateway'), requests: largeRequests, cpu: [probeOf(large, service)] },
      );
      log(`3. run ${run}, ${capability}: demo ${fmt(d)} | ${largeSample.size.products} products ${fmt(l)} | p99 ratio ${(l.p99 / d.p99).toFixed(2)}`);
      for (const s of demoShapes) {
        const ls = largeShapes.find((x) => x.shape === s.shape);
        log(`   ${s.shape}: one at a time p50 ${s.p50.toFixed(2)} → ${ls?.p50.toFixed(2) ?? 'n/a'} ms; answers ${JSON.stringify(s.answers)} → ${JSON.stringify(ls?.answers ?? {})}`);
      }
      results.capabilities.push({ capability, demo: d, large: l, demoShapes, largeShapes } satisfies CapabilityRow);
    }
  } else {
    notes.push(`the generated Record was skipped (${flags['skip-large'] ? '--skip-large' : `--only ${flags.only}`}): no Record-size figures`);
  }
  if (large) {
    await large.stop();
    stacks.splice(stacks.indexOf(large), 1);
  }
}

const intervalMs = 1000 / settings.mcpRate;
const paced = { name: `paced, one call every ${Number(intervalMs.toFixed(1))} ms, REST and MCP alternating` };

/** 4. MCP tools/call vs the same REST call: closed loop, paced, and the floor of two bare hops. */
async function compareMcp({ demo, demoKeys, identifier, fixedResolve }: Run): Promise<void> {
  const probe = await fetch(`${demo.url('gateway')}/mcp`, { method: 'POST', headers: mcpRequests(demoKeys.main, identifier)[0]!.headers, body: mcpRequests(demoKeys.main, identifier)[0]!.body });
  const probeBody = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
  if (probe.status !== 200 || !probeBody.result || probeBody.result.isError || !probeBody.result.structuredContent) {
    notes.push(`MCP probe did not answer the tool call: HTTP ${probe.status} ${JSON.stringify(probeBody).slice(0, 300)}`);
  }
  // Closed loop: what the extra hops cost in throughput (information).
  const closed = { name: `closed loop, ${settings.connections} connections`, connections: settings.connections };
  const restSide = (label: string): Side => ({ label, url: demo.url('gateway'), requests: fixedResolve, cpu: ['gateway', 'record'].map((n) => probeOf(demo, n)) });
  const mcpSide = (label: string): Side => ({ label, url: demo.url('gateway'), requests: mcpRequests(demoKeys.main, identifier), cpu: ['gateway', 'mcp', 'record'].map((n) => probeOf(demo, n)) });
  for (const run of RUNS) {
    const [rest0, mcp0] = await compare(restSide('REST resolve, closed loop'), mcpSide('MCP products.resolve, closed loop'), closed);
    log(`4. run ${run}, ${closed.name}: REST ${fmt(rest0)} | MCP ${fmt(mcp0)}`);
    results.mcp.push({ tool: 'products.resolve', mode: closed.name, rest: rest0, mcp: mcp0 } satisfies McpComparison);
    // The judged latency ratio: one call at a time, paced, REST and MCP alternating call by call.
    const [rest1, mcp1] = await runPaced(
      [
        { url: demo.url('gateway'), requests: fixedResolve },
        { url: demo.url('gateway'), requests: mcpRequests(demoKeys.main, identifier) },
      ],
      { intervalMs, seconds: settings.pacedSeconds, warmupSeconds: settings.warmupSeconds },
    );
    for (const [label, r] of [['REST resolve, paced', rest1], ['MCP products.resolve, paced', mcp1]] as const) {
      if (r.non2xx + r.errors + r.timeouts > 0) notes.push(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts; first refusal: ${r.firstRefusal ?? 'none'}`);
    }
    log(`4. run ${run}, ${paced.name}: REST ${fmt(rest1)} | MCP ${fmt(mcp1)} | p50 ratio ${(mcp1.p50 / rest1.p50).toFixed(2)}, p99 ratio ${(mcp1.p99 / rest1.p99).toFixed(2)}`);
    results.mcp.push({ tool: 'products.resolve', mode: paced.name, rest: rest1, mcp: mcp1 } satisfies McpComparison);

    // The floor under that ratio: what two extra HTTP hops between Node.js processes cost here, with no MCP work.
    const hops = await startBareHops(2, demo.url('gateway'));
    try {
      const [direct, viaHops] = await runPaced(
        [
          { url: demo.url('gateway'), requests: fixedResolve },
          { url: hops.url, requests: fixedResolve },
        ],
        { intervalMs, seconds: settings.pacedSeconds, warmupSeconds: settings.warmupSeconds },
      );
      results.hopFloor.push({ mode: paced.name.replace('REST and MCP', 'direct and two hops'), rest: direct, hops: viaHops });
      log(`4. run ${run}, floor: REST direct ${fmt(direct)} | through two bare hops ${fmt(viaHops)} | p50 ratio ${(viaHops.p50 / direct.p50).toFixed(2)}`);
    } finally {
      await hops.stop();
    }
  }
}

/** Profiles when a target is missed (or when asked): both gateways for the hop, the MCP service for MCP. */
async function profileMisses({ demo, records, overheadCases, demoKeys, identifier }: Run): Promise<void> {
  const missed = groupBy(results.overhead, (o) => o.capability)
    .map(([capability, rows]) => ({ capability, cpu: spread(rows.map(hopCpuRatio)).median, rps: spread(rows.map(hopThroughputRatio)).median }))
    .filter((m) => m.cpu > targets.hopCpuRatio || m.rps < targets.hopThroughputRatio);
  if (section('hop') && (flags.profile || missed.length > 0)) {
    const worst = [...missed].sort((a, b) => b.cpu - a.cpu)[0] ?? { capability: overheadCases[0]![0] };
    log(`profiling both gateways on ${worst.capability} (${flags.profile ? 'asked for' : 'the gateway missed its target against the bare forwarder'})`);
    const requests = overheadCases.find(([c]) => c === worst.capability)![1];
    for (const [name, label, env] of [
      ['gateway-prof', 'gateway (full)', { DATABASE_URL: records.demoUrl }],
      ['gateway-off-prof', 'gateway (checks off)', { NODE_ENV: 'benchmark', GATEWAY_CHECKS: 'off' }],
    ] as Array<[string, string, Record<string, string>]>) {
      const flameGraph = name === 'gateway-prof' ? join(dirname(flags.out), 'benchmarks-gateway-flame.svg') : undefined;
      const p = await profileProcess({ stack: demo, name, bundle: 'gateway', env, label, load: `${worst.capability}, closed loop`, url: () => demo.url(name), requests, ...(flameGraph ? { flameGraph } : {}) });
      if (p) results.profiles.push(p);
    }
  }
  const pacedRows = results.mcp.filter((m) => m.mode === paced.name);
  const pacedRatio = (q: 'p50' | 'p99') => spread(pacedRows.map((m) => m.mcp[q] / m.rest[q])).median;
  if (section('mcp') && (flags.profile || pacedRatio('p50') > targets.mcpP50Ratio || pacedRatio('p99') > targets.mcpP99Ratio)) {
    log('profiling the MCP service (MCP/REST latency missed its target)');
    // The same process name and port, so the gateway's MCP upstream does not change.
    await demo.stopProcess('mcp');
    const p = await profileProcess({ stack: demo, name: 'mcp', bundle: 'mcp', env: {}, label: 'mcp', load: 'tools/call products.resolve through the gateway, closed loop', url: () => demo.url('gateway'), requests: mcpRequests(demoKeys.main, identifier) });
    if (p) results.profiles.push(p);
    await demo.startProcess('mcp', 'mcp');
  }
}

/** 5. Alert fan-out: a release to every watcher, with one email worker and then two. */
async function measureAlertFanout({ demo, records: { demoUrl, demoSample } }: Run): Promise<void> {
  if (!section('fanout')) notes.push(`alert fan-out skipped (--only ${flags.only})`);
  else if (flags['skip-fanout']) notes.push('alert fan-out skipped (--skip-fanout)');
  else if (demoSample.fanoutProducts.length < 2) notes.push('alert fan-out skipped: the demo Record has no two TRACKED products with a comparable state');
  else {
    const client = new pg.Client({ connectionString: demoUrl });
    await client.connect();
    try {
      await insertWatchers(client, WATCHERS);
      const today = new Date().toISOString().slice(0, 10);
      const first = demoSample.lastReleaseDate && demoSample.lastReleaseDate >= today ? addDays(demoSample.lastReleaseDate, 1) : today;
      // settings.repeat runs with one worker, then as many with two; each run releases a new Signal on a
      // later date, on a product of its own (a product's label changes at most once a day, and the CLI's
      // capture import dates the new label today), so every run fans out to all watchers afresh.
      const runs = [1, 2]
        .flatMap((replicas) =>
          RUNS.map((run) => {
            const i = (replicas - 1) * settings.repeat + run - 1;
            return { replicas, product: demoSample.fanoutProducts[i], date: addDays(first, i) };
          }),
        )
        .filter((r): r is { replicas: number; product: string; date: string } => {
          if (r.product !== undefined) return true;
          notes.push(`a fan-out run with ${r.replicas} email worker(s) skipped: the demo Record has too few TRACKED products with a comparable state for a product per run`);
          return false;
        });
      let secondWorker = false;
      for (const run of runs) {
        if (elapsed() + FANOUT_LIMIT_MS + 15_000 > SOFT_DEADLINE_MS) {
          notes.push(`a fan-out run with ${run.replicas} email worker(s) skipped: not enough of the run's time budget left`);
          continue;
        }
        if (run.replicas === 2 && !secondWorker) {
          await demo.startProcess('email-worker-2', 'email-worker');
          secondWorker = true;
        }
        const r: FanoutResult = await measureFanout({
          stack: demo, client, sink, productId: run.product, watchers: WATCHERS, replicas: run.replicas, releaseDate: run.date,
          natsUrl, natsPrefix: prefixes.demo, workDir, timeoutMs: FANOUT_LIMIT_MS, log,
        });
        log(`5. fan-out, ${run.replicas} worker(s): ${r.seconds === null ? 'NOT all delivered' : `${r.seconds.toFixed(1)} s`}; alert rows after ${r.fanoutSeconds?.toFixed(1) ?? 'n/a'} s; ${r.uniqueAlerts} distinct, ${r.duplicates} duplicates, ${r.emailsPerSecond.toFixed(0)} emails/s`);
        results.fanout.push(r);
        if (r.timedOut) {
          const drained = await drainAlerts({ client, signalId: r.signalId, natsUrl, natsPrefix: prefixes.demo, timeoutMs: 30_000 });
          notes.push(`fan-out with ${r.replicas} email worker(s) passed its ${FANOUT_LIMIT_MS / 1000} s limit with ${r.uniqueAlerts} of ${r.watchers} emails (${r.emailsPerSecond.toFixed(0)} emails/s, so about ${Math.round(r.watchers / Math.max(r.emailsPerSecond, 0.1))} s for all); the rest were cancelled${drained ? '' : ' but the ALERTS consumer did not empty in 30 s'} before the next run`);
          if (!drained) break;
        }
      }
    } finally {
      await client.end();
    }
  }
}

/** Stops whatever the run started, each part whether or not another failed to stop. */
async function stopEverything(): Promise<void> {
  for (const s of stacks.reverse()) await s.stop().catch((e: unknown) => log(`stopping a stack: ${String(e)}`));
  await redisWire?.stop().catch(() => undefined);
  await redis.stop().catch(() => undefined);
  await counter.stop().catch(() => undefined);
  await sink.stop().catch(() => undefined);
  for (const p of Object.values(prefixes)) await deleteStreams(natsUrl, p).catch(() => undefined);
  for (const d of largeDatabases) await dropDatabase(d).catch(() => undefined);
}

/** results.json and the report (docs/benchmarks.md), with the history and analysis the previous report carried. */
function writeReport(): void {
  machine.loadAfter = os.loadavg();
  results.totalSeconds = (Date.now() - started) / 1000;
  writeFileSync(join(workDir, 'results.json'), JSON.stringify(results, null, 2));
  const previous = existsSync(flags.out) ? readFileSync(flags.out, 'utf8') : null;
  writeFileSync(flags.out, renderReport(results, previousHistory(previous), previousAnalysis(previous)));
  log(`wrote ${flags.out} and ${join(workDir, 'results.json')} in ${results.totalSeconds.toFixed(0)} s; service logs in ${logDir}`);
  for (const f of readdirSync(profileDir)) log(`CPU profile: ${join(profileDir, f)}`);
}

try {
  const records = await prepareRecords();
  const wire = await startCounters();
  const run = await startStacks(records, wire);
  if (section('hop')) await measureHop(run);
  if (section('counts')) await countRoundTrips(run, wire);
  await compareRecords(run);
  if (section('mcp')) await compareMcp(run);
  await profileMisses(run);
  await measureAlertFanout(run);
} finally {
  await stopEverything();
}
writeReport();
