/**
 * The source monitor's benchmark (docs/monitor.md, "Throughput"): N due
 * sources (half DSLD labels, half offer pages) spread over H hosts (one port
 * of a local fixture server each), read by one and by two monitor replicas
 * (dist/monitor.mjs, separate processes). Reports checks per second from the
 * first to the last recorded check, and each replica's peak memory, over R
 * runs. Run by `npm run bench` after the main benchmark, or alone:
 *   node --import tsx scripts/benchmark/monitor.ts [--sources 10000] [--hosts 400] [--runs 3]
 * (needs `node scripts/build.mjs` first). Run it on a quiet machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runMigrations } from '@evidence-record/record-store/migrations';
import { freePort, launchReady, type ServiceProcess } from '@evidence-record/test-support/launcher';
import { adminQuery, databaseUrl, dropDatabase } from './databases';

const { values: flags } = parseArgs({
  options: {
    sources: { type: 'string', default: '10000' },
    hosts: { type: 'string', default: '400' },
    runs: { type: 'string', default: '3' },
    replicas: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', default: '48' },
    out: { type: 'string', default: 'docs/benchmarks-monitor.md' },
    'timeout-s': { type: 'string', default: '300' },
  },
});
const SOURCES = Number(flags.sources);
const HOSTS = Number(flags.hosts);
const RUNS = Number(flags.runs);
const REPLICAS = flags.replicas.split(',').map(Number);
const log = (m: string) => process.stderr.write(`[bench:monitor] ${m}\n`);

/** A fixture server's child process, whose first stdout line says where it listens. */
function startChild(args: string[]): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const firstLine = new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
  firstLine.catch(() => undefined); // stopped on purpose at the end
  return { child, firstLine };
}

function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Checks recorded so far, and the seconds from the first to the last of them (checks after `since`). */
async function progress(client: pg.Client, since: Date): Promise<{ n: number; span: number }> {
  const { rows } = await client.query<{ n: number; span: number | null }>(
    'SELECT count(*)::int AS n, extract(epoch FROM max(checked_at) - min(checked_at))::float8 AS span FROM monitoring_checks WHERE checked_at >= $1',
    [since],
  );
  return { n: rows[0]!.n, span: rows[0]!.span ?? 0 };
}

/** One pass over every source: the first reading of each, or the re-check a cadence later (same content, 304). */
interface Pass {
  checks: number;
  seconds: number;
  perSecond: number;
  perReplica: number;
  /** Monitor CPU (user + system, all replicas) per recorded check. */
  cpuMsPerCheck: number;
  /**
   * Share of the pass's wall time the Record's version lock (the one lock every write of checks takes exclusively,
   * decision 1010) was held by the replicas: the bound on scaling out that the design itself sets (at 25 %, four
   * times the replicas before that lock is saturated).
   */
  lockHeldShare: number;
  /** Share of the machine's CPU (every core) busy during the pass: Postgres, the fixture server and the replicas together. */
  machineBusy: number;
}

/** The machine's CPU time so far (all cores, jiffies): busy and total, from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - fields[3]! - fields[4]!, total };
}

/** The sum of a histogram across replicas, from their /metrics. */
async function histogramSum(ports: number[], name: string): Promise<number> {
  let sum = 0;
  for (const port of ports) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const m = new RegExp(`^${name}_sum(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    sum += m ? Number(m[1]) : 0;
  }
  return sum;
}

interface RunResult {
  replicas: number;
  first: Pass;
  recheck: Pass;
  peakRssMb: number[];
}

async function oneRun(template: string, ports: number[], replicas: number, run: number): Promise<RunResult> {
  const name = `er_bench_monitor_${process.pid}_${replicas}_${run}`;
  await dropDatabase(name);
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const url = databaseUrl(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The sources, due now, leased by nobody; spread round-robin over the hosts.
    await client.query(`INSERT INTO brands (brand_id, name, name_norm) VALUES ('brd_bench', 'Bench Brand', 'bench brand')`);
    await client.query(
      `INSERT INTO products (product_id, brand_id, name, name_norm, form, depth_class)
       SELECT 'prd_' || lpad(to_hex(g), 12, '0'), 'brd_bench', 'Bench ' || g, 'bench ' || g, 'powder', 'REGISTERED' FROM generate_series(1, $1) g`,
      [SOURCES],
    );
    await client.query(
      `INSERT INTO sources (product_id, kind, url, host, next_check_due, cadence)
       SELECT 'prd_' || lpad(to_hex(g), 12, '0'),
              CASE WHEN g % 2 = 0 THEN 'dsld_label' ELSE 'offer_page' END,
              CASE WHEN g % 2 = 0 THEN 'http://127.0.0.1:' || (($2::int[])[1 + g % $3]) || '/dsld/v9/label/' || g
                   ELSE 'http://127.0.0.1:' || (($2::int[])[1 + g % $3]) || '/shop/bench/product-' || g END,
              '127.0.0.1:' || (($2::int[])[1 + g % $3]), now(), interval '7 days'
         FROM generate_series(1, $1) g`,
      [SOURCES, ports, ports.length],
    );
    const procs: ServiceProcess[] = [];
    const metricPorts: number[] = [];
    for (let i = 0; i < replicas; i++) {
      const port = await freePort();
      metricPorts.push(port);
      procs.push(
        await launchReady({
          service: 'monitor',
          label: `monitor-${i + 1}`,
          from: 'bundle',
          port,
          env: {
            DATABASE_URL: url,
            MONITOR_ALLOW_LOCALHOST: '1',
            MONITOR_HOST_INTERVAL_MS: '0',
            MONITOR_ROBOTS_TTL_MS: '3600000',
            MONITOR_CONCURRENCY: flags.concurrency,
            MONITOR_BATCH: String(Math.max(64, Number(flags.concurrency) * 2)),
            MONITOR_POLL_MS: '100',
            LOG_LEVEL: 'warn',
          },
          keepLines: 50,
          readyTimeoutMs: 60_000,
        }),
      );
    }
    const cpu = () => procs.reduce((sum, p) => sum + (p.cpuSeconds() ?? NaN), 0);
    const held = () => histogramSum(metricPorts, 'er_monitor_version_lock_seconds');
    const pass = async (since: Date, cpuBefore: number, heldBefore: number): Promise<Pass> => {
      const machineBefore = machineCpu();
      const deadline = Date.now() + Number(flags['timeout-s']) * 1000;
      let seen = await progress(client, since);
      while (seen.n < SOURCES && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        seen = await progress(client, since);
      }
      const perSecond = seen.n / Math.max(seen.span, 0.001);
      return {
        checks: seen.n,
        seconds: seen.span,
        perSecond,
        perReplica: perSecond / replicas,
        cpuMsPerCheck: ((cpu() - cpuBefore) * 1000) / Math.max(seen.n, 1),
        lockHeldShare: ((await held()) - heldBefore) / Math.max(seen.span, 0.001),
        machineBusy: ((m) => (m.busy - machineBefore.busy) / Math.max(m.total - machineBefore.total, 1))(machineCpu()),
      };
    };
    const first = await pass(new Date(0), 0, 0);
    // A cadence later: every source due again, its content unchanged (the fixture server answers 304 to the kept ETag).
    const cpuAfterFirst = cpu();
    const heldAfterFirst = await held();
    const since = (await client.query<{ t: Date }>('SELECT now() AS t')).rows[0]!.t;
    await client.query('UPDATE sources SET next_check_due = now()');
    const recheck = await pass(since, cpuAfterFirst, heldAfterFirst);
    const rss = procs.map((p) => peakRssMb(p.child.pid!));
    await Promise.all(procs.map((p) => p.stop()));
    return { replicas, first, recheck, peakRssMb: rss };
  } finally {
    await client.end();
    await dropDatabase(name);
  }
}

const template = `er_bench_monitor_tpl_${process.pid}`;
await dropDatabase(template);
await adminQuery(`CREATE DATABASE "${template}"`);
await runMigrations(databaseUrl(template));
const server = startChild(['--enable-source-maps', 'dist/demo-sources.mjs', 'bench-serve', String(HOSTS)]);
const { ports } = JSON.parse(await server.firstLine) as { ports: number[] };
log(`${SOURCES} sources over ${ports.length} hosts; replicas ${REPLICAS.join(', ')}; ${RUNS} runs each`);
const results: RunResult[] = [];
try {
  for (const replicas of REPLICAS) {
    for (let run = 1; run <= RUNS; run++) {
      const r = await oneRun(template, ports, replicas, run);
      const say = (what: string, p: Pass) => `${what} ${p.checks} checks in ${p.seconds.toFixed(1)} s = ${p.perSecond.toFixed(0)}/s (${p.perReplica.toFixed(0)} per replica, ${p.cpuMsPerCheck.toFixed(2)} ms monitor CPU a check, version lock held ${(p.lockHeldShare * 100).toFixed(1)} %, machine CPU busy ${(p.machineBusy * 100).toFixed(0)} %)`;
      log(`${replicas} replica(s), run ${run}: ${say('first reading', r.first)}; ${say('re-check', r.recheck)}; peak RSS ${r.peakRssMb.map((m) => m.toFixed(0)).join('/')} MB; load ${loadavg()[0]!.toFixed(1)}`);
      results.push(r);
    }
  }
} finally {
  server.child.kill('SIGTERM');
  await dropDatabase(template);
}
const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const lines = [
  '# Source monitor benchmark',
  '',
  `Generated by \`scripts/benchmark/monitor.ts\` on ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}): ${SOURCES} due sources (half DSLD labels, half offer pages) over ${ports.length} hosts of a local fixture server, ${RUNS} runs per replica count. Postgres, the fixture server and every replica share this machine's cores. Target: ≥ 200 checks/s per replica, doubling with two.`,
  '',
  'A run has two passes over every source: the **first reading** (every check creates a history state or price observations) and the **re-check** a cadence later (same content: the fixture server answers 304 to the kept ETag and the Record extends the state), the weekly steady state.',
  '',
  '| replicas | pass | checks/s (range) | per replica | monitor CPU per check (ms) | version lock held (% of the pass) | machine CPU busy (% of all cores) | peak RSS per replica (MB) |',
  '|---|---|---|---|---|---|---|---|',
  ...REPLICAS.flatMap((n) => {
    const rs = results.filter((r) => r.replicas === n);
    return (['first', 'recheck'] as const).map((k) => {
      const ps = rs.map((r) => r[k]);
      return `| ${n} | ${k === 'first' ? 'first reading' : 're-check'} | ${range(ps.map((p) => p.perSecond))} | ${range(ps.map((p) => p.perReplica))} | ${range(ps.map((p) => p.cpuMsPerCheck), 2)} | ${range(ps.map((p) => p.lockHeldShare * 100), 1)} | ${range(ps.map((p) => p.machineBusy * 100))} | ${range(rs.flatMap((r) => r.peakRssMb))} |`;
    });
  }),
  '',
];
writeFileSync(flags.out, lines.join('\n'));
log(`wrote ${flags.out}`);
