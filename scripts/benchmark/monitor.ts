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
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runMigrations } from '@evidence-record/platform';
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

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function startChild(args: string[], env: Record<string, string>): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const firstLine = new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
  child.stderr!.on('data', () => undefined);
  firstLine.catch(() => undefined); // a child stopped on purpose
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

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`monitor on :${port} never became ready`);
}

interface RunResult {
  replicas: number;
  checks: number;
  seconds: number;
  perSecond: number;
  perReplica: number;
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
    const procs: ChildProcess[] = [];
    for (let i = 0; i < replicas; i++) {
      const port = await freePort();
      const { child } = startChild(['--enable-source-maps', 'dist/monitor.mjs'], {
        PORT: String(port),
        DATABASE_URL: url,
        MONITOR_ALLOW_LOCALHOST: '1',
        MONITOR_HOST_INTERVAL_MS: '0',
        MONITOR_ROBOTS_TTL_MS: '3600000',
        MONITOR_CONCURRENCY: flags.concurrency,
        MONITOR_BATCH: String(Math.max(64, Number(flags.concurrency) * 2)),
        MONITOR_POLL_MS: '100',
        LOG_LEVEL: 'warn',
      });
      procs.push(child);
      await waitReady(port);
    }
    const deadline = Date.now() + Number(flags['timeout-s']) * 1000;
    let done = 0;
    while (Date.now() < deadline) {
      done = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM monitoring_checks')).rows[0]!.n;
      if (done >= SOURCES) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const span = (await client.query<{ s: number }>('SELECT extract(epoch FROM max(checked_at) - min(checked_at))::float8 AS s FROM monitoring_checks')).rows[0]!.s;
    const rss = procs.map((p) => peakRssMb(p.pid!));
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => new Promise((r) => p.once('exit', r))));
    const perSecond = done / Math.max(span, 0.001);
    return { replicas, checks: done, seconds: span, perSecond, perReplica: perSecond / replicas, peakRssMb: rss };
  } finally {
    await client.end();
    await dropDatabase(name);
  }
}

const template = `er_bench_monitor_tpl_${process.pid}`;
await dropDatabase(template);
await adminQuery(`CREATE DATABASE "${template}"`);
await runMigrations(databaseUrl(template));
const server = startChild(['--enable-source-maps', 'dist/demo-sources.mjs', 'bench-serve', String(HOSTS)], {});
const { ports } = JSON.parse(await server.firstLine) as { ports: number[] };
log(`${SOURCES} sources over ${ports.length} hosts; replicas ${REPLICAS.join(', ')}; ${RUNS} runs each`);
const results: RunResult[] = [];
try {
  for (const replicas of REPLICAS) {
    for (let run = 1; run <= RUNS; run++) {
      const r = await oneRun(template, ports, replicas, run);
      log(`${replicas} replica(s), run ${run}: ${r.checks} checks in ${r.seconds.toFixed(1)} s = ${r.perSecond.toFixed(0)} checks/s (${r.perReplica.toFixed(0)} per replica), peak RSS ${r.peakRssMb.map((m) => m.toFixed(0)).join('/')} MB`);
      results.push(r);
    }
  }
} finally {
  server.child.kill('SIGTERM');
  await dropDatabase(template);
}
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const lines = [
  '# Source monitor benchmark',
  '',
  `Generated by \`scripts/benchmark/monitor.ts\` on ${new Date().toISOString().slice(0, 10)}: ${SOURCES} due sources (half DSLD labels, half offer pages) over ${ports.length} hosts of a local fixture server, ${RUNS} runs per replica count. Target: ≥ 200 checks/s per replica, doubling with two.`,
  '',
  '| replicas | checks/s (range) | per replica | peak RSS per replica (MB) |',
  '|---|---|---|---|',
  ...REPLICAS.map((n) => {
    const rs = results.filter((r) => r.replicas === n);
    return `| ${n} | ${range(rs.map((r) => r.perSecond))} | ${range(rs.map((r) => r.perReplica))} | ${range(rs.flatMap((r) => r.peakRssMb))} |`;
  }),
  '',
];
writeFileSync(flags.out, lines.join('\n'));
log(`wrote ${flags.out}`);
