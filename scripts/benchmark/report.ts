import type { FanoutResult } from './fanout';
import type { LoadResult } from './load';
import type { HotSpot } from './profile';
import type { ShapeProbe } from './probe';

/** Targets of issues 9 and 25; each figure in the report is judged against one of these. */
export const targets = {
  /** Gateway CPU per request ÷ the bare forwarder's, at most (issue 25). */
  hopCpuRatio: 1.5,
  /** Gateway throughput ÷ the bare forwarder's, at least (issue 25). */
  hopThroughputRatio: 0.8,
  redisPerRequest: 2,
  pgPerRequest: 0,
  largeRecordP99Ratio: 1.5,
  /** MCP tools/call ÷ the same REST call, paced at 50 calls/s each (issue 25). */
  mcpP50Ratio: 1.35,
  mcpP99Ratio: 1.5,
  fanoutSeconds: 60,
} as const;

/**
 * One round of section 1: the same requests through the gateway, straight to the record service
 * (signed by the load generator), through a bare forwarder that only signs, and through the gateway
 * with its checks off. CPU per request by process: `gateway` (either gateway), `forwarder`, `record`.
 */
export interface OverheadRow {
  capability: string;
  gateway: LoadResult;
  direct: LoadResult;
  bare: LoadResult;
  off: LoadResult;
}

const cpuOf = (r: LoadResult, process: string): number => r.cpuByProcess?.[process] ?? NaN;
/** Gateway CPU per request ÷ the bare forwarder's (the record service behind both left out). */
export const hopCpuRatio = (o: OverheadRow): number => cpuOf(o.gateway, 'gateway') / cpuOf(o.bare, 'forwarder');
/** Gateway throughput ÷ the bare forwarder's. */
export const hopThroughputRatio = (o: OverheadRow): number => o.gateway.rps / o.bare.rps;

export interface HotPathRow {
  capability: string;
  requests: number;
  seconds: number;
  /**
   * Redis commands per request, idle background subtracted. Each is one request/answer exchange for
   * the request that sent it.
   */
  redisPerRequest: number;
  /** How the counted gateway settled the answers (er_gateway_settlements_total): in Redis, or as repeats it knew Redis would charge nothing for. */
  settled: { redis: number; repeat: number };
  redisByCommand: Record<string, number>;
  /** Commands Redis executed per request (INFO commandstats), those the Lua scripts call included: the work behind the round trips. */
  redisExecutedPerRequest: number;
  /** Postgres statements per request that a request waits for (everything but the timers' background statements). */
  pgAwaitedPerRequest: number;
  /** Every gateway statement in the interval, per request, background included. */
  pgAllPerRequest: number;
  pgByStatement: Array<{ statement: string; count: number; background: boolean }>;
}

export interface CapabilityRow {
  capability: string;
  demo: LoadResult;
  large: LoadResult;
  /** One request at a time, per request shape, at each Record. */
  demoShapes: ShapeProbe[];
  largeShapes: ShapeProbe[];
}

export interface McpComparison {
  tool: string;
  mode: string;
  rest: LoadResult;
  mcp: LoadResult;
}

export interface ServiceProfile {
  /** 'gateway (full)', 'gateway (checks off)', 'mcp'. */
  process: string;
  /** What load it served while profiled. */
  load: string;
  rps: number;
  /** CPU time per request from /proc over the profiled load; the profile's shares split it. */
  cpuUsPerRequest: number | null;
  functions: HotSpot[];
  owners: HotSpot[];
}

export interface BenchResults {
  date: string;
  commit: string;
  dirty: boolean;
  machine: { nproc: number; cpu: string; memoryGb: number; node: string; os: string; loadBefore: number[]; loadAfter: number[] };
  /** `repeat`: how many times each judged measurement ran (--repeat); the summary gives the median and the range. */
  settings: { seconds: number; warmupSeconds: number; connections: number; countedRequests: number; mcpRate: number; pacedSeconds?: number; repeat: number };
  records: { demo: RecordSize; large: RecordSize & { reused: boolean; buildSeconds: number } };
  idle: { seconds: number; redisCommands: number; redisByCommand: Record<string, number>; pgStatements: number };
  overhead: OverheadRow[];
  hotPath: HotPathRow[];
  capabilities: CapabilityRow[];
  mcp: McpComparison[];
  /** The same REST call direct and through two bare Node.js hops, paced like the judged MCP row (one per run). */
  hopFloor: Array<{ mode: string; rest: LoadResult; hops: LoadResult }>;
  fanout: FanoutResult[];
  profiles: ServiceProfile[];
  notes: string[];
  totalSeconds: number;
}

export interface RecordSize {
  database: string;
  products: number;
  signals: number;
}

export interface Figure {
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : 'n/a');
const rps = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');
const ratio = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');
const verdict = (pass: boolean | null) => (pass === null ? '—' : pass ? '**pass**' : '**FAIL**');

/** A load result is only a figure if nothing was refused and nothing failed. */
export function clean(r: LoadResult): boolean {
  return r.requests > 0 && r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
}

/** Rows in first-seen order of their key: the repetitions of one measurement together. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Array<[string, T[]]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    out.set(k, [...(out.get(k) ?? []), row]);
  }
  return [...out.entries()];
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function spread(values: readonly number[]): Spread {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const mid = Math.floor(v.length / 2);
  return { median: v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2, min: v[0]!, max: v.at(-1)!, n: v.length };
}

/** "median (min–max over n runs)", or the one value of a single run. */
export function rangeText(s: Spread, format: (v: number) => string = ratio): string {
  if (s.n <= 1) return format(s.median);
  return `${format(s.median)} (${format(s.min)}–${format(s.max)} over ${s.n} runs)`;
}

/** "met in k of n runs" for a judged figure measured more than once. */
function metIn(values: readonly number[], ok: (v: number) => boolean): string {
  return values.length > 1 ? `; met in ${values.filter(ok).length} of ${values.length}` : '';
}

/**
 * The summary: one line per figure with its target and verdict. A figure
 * measured in several runs (`--repeat`, 3 by default) is reported as its
 * median with the range over the runs, and judged on the median; counts
 * (round trips, statements) are judged on their worst run, and a comparison
 * with any refused or failed request in any run is not a figure (FAIL).
 */
export function figures(r: BenchResults): Figure[] {
  const out: Figure[] = [];
  for (const [capability, rows] of groupBy(r.overhead, (o) => o.capability)) {
    const okRuns = rows.every((o) => clean(o.gateway) && clean(o.bare) && clean(o.direct) && clean(o.off));
    const µs = (v: number) => `${Math.round(v)} µs`;
    const median = (f: (o: OverheadRow) => number) => spread(rows.map(f)).median;
    const tput = rows.map(hopThroughputRatio);
    const tputOk = (x: number) => x >= targets.hopThroughputRatio;
    out.push({
      figure: `Throughput, gateway / bare forwarder, ${capability}`,
      value: `${rangeText(spread(tput))}${metIn(tput, tputOk)} (${rps(median((o) => o.gateway.rps))} / ${rps(median((o) => o.bare.rps))} req/s, medians; direct to the service ${rps(median((o) => o.direct.rps))})`,
      target: `≥ ${targets.hopThroughputRatio}`,
      pass: okRuns ? tputOk(spread(tput).median) : false,
    });
    const cpu = rows.map(hopCpuRatio);
    const cpuOk = (x: number) => x <= targets.hopCpuRatio;
    out.push({
      figure: `CPU per request, gateway / bare forwarder, ${capability}`,
      value: `${rangeText(spread(cpu))}${metIn(cpu, cpuOk)} (${µs(median((o) => cpuOf(o.gateway, 'gateway')))} / ${µs(median((o) => cpuOf(o.bare, 'forwarder')))}, medians)`,
      target: `≤ ${targets.hopCpuRatio}`,
      pass: okRuns && spread(cpu).n === rows.length ? cpuOk(spread(cpu).median) : false,
    });
    out.push({
      figure: `CPU per request, gateway with checks off / full gateway, ${capability} (the share of the checks)`,
      value: `${rangeText(spread(rows.map((o) => cpuOf(o.off, 'gateway') / cpuOf(o.gateway, 'gateway'))))} (${µs(median((o) => cpuOf(o.off, 'gateway')))} / ${µs(median((o) => cpuOf(o.gateway, 'gateway')))}, medians)`,
      target: 'information',
      pass: null,
    });
    out.push({
      figure: `Record service CPU per request behind the gateway / called directly, ${capability}`,
      value: `${rangeText(spread(rows.map((o) => cpuOf(o.gateway, 'record') / cpuOf(o.direct, 'record'))))} (${µs(median((o) => cpuOf(o.gateway, 'record')))} / ${µs(median((o) => cpuOf(o.direct, 'record')))}, medians; behind the bare forwarder ${µs(median((o) => cpuOf(o.bare, 'record')))})`,
      target: 'information',
      pass: null,
    });
  }
  const count = (v: number, digits: number) => v.toFixed(digits);
  for (const [capability, rows] of groupBy(r.hotPath, (h) => h.capability)) {
    const redis = spread(rows.map((h) => h.redisPerRequest));
    const pgAwaited = spread(rows.map((h) => h.pgAwaitedPerRequest));
    const pgAll = spread(rows.map((h) => h.pgAllPerRequest));
    out.push({
      figure: `Redis round trips per request, ${capability}`,
      value: rangeText(redis, (v) => count(v, 2)),
      target: `≤ ${targets.redisPerRequest}`,
      pass: redis.max <= targets.redisPerRequest + 0.005,
    });
    out.push({
      figure: `Postgres queries per request on the request path, ${capability}`,
      value: `${rangeText(pgAwaited, (v) => count(v, 3))} (all gateway statements incl. background: ${rangeText(pgAll, (v) => count(v, 4))})`,
      target: `${targets.pgPerRequest}`,
      pass: pgAwaited.max <= 0.0005,
    });
  }
  for (const [capability, rows] of groupBy(r.capabilities, (c) => c.capability)) {
    const v = rows.map((c) => c.large.p99 / c.demo.p99);
    const s = spread(v);
    const ok = (x: number) => x <= targets.largeRecordP99Ratio;
    out.push({
      figure: `p99 ratio ${r.records.large.products.toLocaleString('en-US')}-product / demo Record, ${capability}`,
      value: `${rangeText(s)}${metIn(v, ok)} (${ms(spread(rows.map((c) => c.large.p99)).median)} / ${ms(spread(rows.map((c) => c.demo.p99)).median)}, medians)`,
      target: `≤ ${targets.largeRecordP99Ratio}`,
      pass: rows.every((c) => clean(c.demo) && clean(c.large)) ? ok(s.median) : false,
    });
  }
  for (const [, rows] of groupBy(r.mcp, (m) => `${m.tool}|${m.mode}`)) {
    const m0 = rows[0]!;
    const okRuns = rows.every((m) => clean(m.rest) && clean(m.mcp));
    const judged = m0.mode.startsWith('paced');
    for (const q of ['p50', 'p99'] as const) {
      const limit = q === 'p50' ? targets.mcpP50Ratio : targets.mcpP99Ratio;
      const ok = (x: number) => x <= limit;
      const v = rows.map((m) => m.mcp[q] / m.rest[q]);
      const s = spread(v);
      out.push({
        figure: `MCP / REST latency ${q}, ${m0.tool} (${m0.mode})`,
        value: `${rangeText(s)}${judged ? metIn(v, ok) : ''} (${ms(spread(rows.map((m) => m.mcp[q])).median)} / ${ms(spread(rows.map((m) => m.rest[q])).median)}, medians)`,
        target: judged ? `≤ ${limit}` : 'information',
        pass: judged ? okRuns && ok(s.median) : null,
      });
    }
    const mcpCpu = rows.map((m) => cpuOf(m.mcp, 'mcp')).filter(Number.isFinite);
    if (mcpCpu.length > 0) {
      const gw = (side: 'rest' | 'mcp') => Math.round(spread(rows.map((m) => cpuOf(m[side], 'gateway'))).median);
      out.push({
        figure: `MCP service CPU per tools/call, ${m0.tool} (${m0.mode})`,
        value: `${rangeText(spread(mcpCpu), (v) => `${Math.round(v)} µs`)} (gateway CPU per call: ${gw('mcp')} µs for MCP, which passes it twice, ${gw('rest')} µs for REST, medians)`,
        target: 'information',
        pass: null,
      });
    }
  }
  for (const [mode, rows] of groupBy(r.hopFloor, (h) => h.mode)) {
    out.push({
      figure: `Floor for two extra hops: the same REST call through two bare Node.js HTTP hops / direct, p50 (${mode})`,
      value: `${rangeText(spread(rows.map((h) => h.hops.p50 / h.rest.p50)))} (${ms(spread(rows.map((h) => h.hops.p50)).median)} / ${ms(spread(rows.map((h) => h.rest.p50)).median)}, medians)`,
      target: 'information',
      pass: null,
    });
  }
  for (const [, rows] of groupBy(r.fanout, (f) => `${f.replicas}|${f.watchers}`)) {
    const f0 = rows[0]!;
    const workers = `${f0.replicas} email worker${f0.replicas > 1 ? 's' : ''}`;
    const delivered = rows.filter((f) => f.seconds !== null);
    const s = spread(delivered.map((f) => f.seconds!));
    const ok = (x: number) => x <= targets.fanoutSeconds;
    out.push({
      figure: `Alert fan-out to ${f0.watchers.toLocaleString('en-US')} watchers, ${workers}: all emails in the SMTP sink`,
      value:
        delivered.length === rows.length
          ? `${rangeText(s, (v) => `${v.toFixed(1)} s`)}${metIn(delivered.map((f) => f.seconds!), ok)}`
          : `not all within the time limit in ${rows.length - delivered.length} of ${rows.length} run${rows.length > 1 ? 's' : ''}${delivered.length ? `; the others ${rangeText(s, (v) => `${v.toFixed(1)} s`)}` : ''}`,
      target: `≤ ${targets.fanoutSeconds} s`,
      pass: delivered.length === rows.length && rows.every((f) => f.uniqueAlerts === f.watchers) && ok(s.median),
    });
    const duplicates = rows.reduce((n, f) => n + f.duplicates, 0);
    const sum = (k: 'messages' | 'uniqueAlerts' | 'recipients') => rows.reduce((n, f) => n + f[k], 0).toLocaleString('en-US');
    out.push({
      figure: `Alert fan-out, ${workers}: emails sent twice`,
      value: `${duplicates} (${sum('messages')} messages, ${sum('uniqueAlerts')} distinct alerts, ${sum('recipients')} recipients${rows.length > 1 ? `, ${rows.length} runs together` : ''})`,
      target: '0',
      pass: duplicates === 0,
    });
  }
  return out;
}

function loadCells(r: LoadResult): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  const cpu = r.cpuUsPerRequest ? `${Math.round(r.cpuUsPerRequest).toLocaleString('en-US')} µs` : '—';
  return `${rps(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${cpu} | ${r.requests.toLocaleString('en-US')} | ${bad}`;
}

export const ANALYSIS_START = '<!-- bench:analysis:start (written by hand, kept by every run) -->';
export const ANALYSIS_END = '<!-- bench:analysis:end -->';
export const HISTORY_START = '<!-- bench:history:start -->';
export const HISTORY_END = '<!-- bench:history:end -->';

/** The history lines kept from the previous docs/benchmarks.md, so before/after figures stay side by side. */
export function previousHistory(markdown: string | null): string[] {
  if (!markdown) return [];
  const start = markdown.indexOf(HISTORY_START);
  const end = markdown.indexOf(HISTORY_END);
  if (start < 0 || end < start) return [];
  return markdown
    .slice(start + HISTORY_START.length, end)
    .split('\n')
    .filter((l) => l.startsWith('| 20'));
}

/** The hand-written analysis of the previous docs/benchmarks.md, kept verbatim between its markers. */
export function previousAnalysis(markdown: string | null): string | null {
  if (!markdown) return null;
  const start = markdown.indexOf(ANALYSIS_START);
  const end = markdown.indexOf(ANALYSIS_END);
  if (start < 0 || end < start) return null;
  return markdown.slice(start + ANALYSIS_START.length, end).trim();
}

export function historyLine(r: BenchResults): string {
  const fs = figures(r);
  const passed = fs.filter((f) => f.pass === true).length;
  const judged = fs.filter((f) => f.pass !== null).length;
  // Medians over the run's repetitions, with the range where there were several.
  const span = (values: number[], format: (v: number) => string = ratio) => {
    const s = spread(values);
    return s.n > 1 ? `${format(s.median)} (${format(s.min)}–${format(s.max)})` : format(s.median);
  };
  const over = groupBy(r.overhead, (o) => o.capability)
    .map(([c, rows]) => `${c.replace(/_/g, ' ')} ${span(rows.map(hopThroughputRatio))}, CPU ${span(rows.map(hopCpuRatio))}`)
    .join('; ');
  const redis = r.hotPath.length ? Math.max(...r.hotPath.map((h) => h.redisPerRequest)).toFixed(2) : 'n/a';
  const pg = r.hotPath.length ? Math.max(...r.hotPath.map((h) => h.pgAwaitedPerRequest)).toFixed(3) : 'n/a';
  const p99 = groupBy(r.capabilities, (c) => c.capability)
    .map(([, rows]) => span(rows.map((c) => c.large.p99 / c.demo.p99)))
    .join(' / ');
  const mcp = groupBy(
    r.mcp.filter((m) => m.mode.startsWith('paced')),
    (m) => `${m.tool}|${m.mode}`,
  )
    .map(([, rows]) => `${span(rows.map((m) => m.mcp.p50 / m.rest.p50))} / ${span(rows.map((m) => m.mcp.p99 / m.rest.p99))}`)
    .join(', ');
  const fan = groupBy(r.fanout, (f) => String(f.replicas))
    .map(([, rows]) => (rows.some((f) => f.seconds === null) ? 'timeout' : span(rows.map((f) => f.seconds!), (v) => `${v.toFixed(1)} s`)))
    .join(' / ');
  return `| ${r.date.slice(0, 16).replace('T', ' ')} | \`${r.commit}\`${r.dirty ? '+' : ''} | ${over} | ${redis} | ${pg} | ${p99} | ${mcp} | ${fan} | ${passed}/${judged} |`;
}

export function renderReport(r: BenchResults, history: string[], analysis: string | null = null): string {
  const L: string[] = [];
  const large = `${r.records.large.products.toLocaleString('en-US')}-product Record`;
  L.push('# Benchmarks');
  L.push('');
  L.push('Written by `npm run bench` (`scripts/bench`); rerun it rather than editing figures by hand; only the Analysis between its markers is written by hand, and every run keeps it. How each figure is measured is at the end.');
  L.push('');
  L.push(`- **Run**: ${r.date} UTC, commit \`${r.commit}\`${r.dirty ? ' with uncommitted changes in the working tree' : ''}, ${Math.round(r.totalSeconds)} s end to end`);
  L.push(`- **Machine**: ${r.machine.nproc} CPUs (${r.machine.cpu}), ${r.machine.memoryGb} GB memory, ${r.machine.os}, Node ${r.machine.node}`);
  L.push(
    `- **Load average** (1/5/15 min) before: ${r.machine.loadBefore.map((v) => v.toFixed(2)).join(' / ')}, after: ${r.machine.loadAfter.map((v) => v.toFixed(2)).join(' / ')} — the load generator, every service, Postgres and Redis share these CPUs, and so does anything else running on the machine`,
  );
  L.push(
    `- **Settings**: autocannon on loopback, ${r.settings.connections} connections, ${r.settings.warmupSeconds} s warm-up then ${r.settings.seconds} s measured per row; counts over ${r.settings.countedRequests.toLocaleString('en-US')} requests; MCP comparison also paced at ${r.settings.mcpRate} calls/s (REST and MCP alternating${r.settings.pacedSeconds ? `, ${r.settings.pacedSeconds} s a round` : ''}); every judged measurement run ${r.settings.repeat} time${r.settings.repeat === 1 ? '' : 's'} (the summary gives the median and the range over the runs, and judges the median; counts are judged on their worst run)`,
  );
  L.push(
    `- **Records**: demo (\`${r.records.demo.database}\`: ${r.records.demo.products} products, ${r.records.demo.signals} Signals) and ${
      r.records.large.database
        ? `generated (\`${r.records.large.database}\`: ${r.records.large.products.toLocaleString('en-US')} products, ${r.records.large.signals.toLocaleString('en-US')} Signals; ${r.records.large.reused ? 'reused from the cache' : `generated in ${Math.round(r.records.large.buildSeconds)} s`})`
        : 'no generated one (not needed by the sections this run measured)'
    }`,
  );
  L.push('');

  L.push('## Summary');
  L.push('');
  L.push('| Figure | Value | Target | Result |');
  L.push('| --- | --- | --- | --- |');
  for (const f of figures(r)) L.push(`| ${f.figure} | ${f.value} | ${f.target} | ${verdict(f.pass)} |`);
  L.push('');

  L.push('## Analysis');
  L.push('');
  L.push(ANALYSIS_START);
  L.push(analysis ?? '_No analysis yet: write what the figures mean, and what to fix, between these markers; runs keep it._');
  L.push(ANALYSIS_END);
  L.push('');
  L.push('## 1. The gateway at the cost of a hop: gateway, direct call, bare forwarder, checks off');
  L.push('');
  L.push('Each group of four rows is one round (A B C D D C B A); CPU per request is each process\'s user + system time over the requests it served.');
  L.push('');
  L.push('| Capability | Path | req/s | p50 | p99 | hop CPU per request (gateway or forwarder) | record service CPU per request | requests | refused/failed |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const µsCell = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} µs` : '—');
  const hopCells = (x: LoadResult, hop: string) =>
    `${rps(x.rps)} | ${ms(x.p50)} | ${ms(x.p99)} | ${hop ? µsCell(cpuOf(x, hop)) : '—'} | ${µsCell(cpuOf(x, 'record'))} | ${x.requests.toLocaleString('en-US')} | ${x.non2xx + x.errors + x.timeouts}`;
  for (const o of r.overhead) {
    L.push(`| ${o.capability} | A: gateway (key, windows, validation, budget, score) | ${hopCells(o.gateway, 'gateway')} |`);
    L.push(`| ${o.capability} | B: direct to the record service, signed | ${hopCells(o.direct, '')} |`);
    L.push(`| ${o.capability} | C: bare keep-alive forwarder that signs | ${hopCells(o.bare, 'forwarder')} |`);
    L.push(`| ${o.capability} | D: gateway, \`GATEWAY_CHECKS=off\` | ${hopCells(o.off, 'gateway')} |`);
  }
  L.push('');

  L.push('## 2. Redis round trips and Postgres statements per request (counted from outside the gateway)');
  L.push('');
  L.push('| Capability | requests | Redis round trips per request | Redis commands sent | settled in Redis / as repeats | Commands Redis executed per request (scripts included) | Postgres on the request path | Postgres, all gateway statements |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const h of r.hotPath) {
    const cmds = Object.entries(h.redisByCommand)
      .filter(([, n]) => n !== 0)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    L.push(`| ${h.capability} | ${h.requests.toLocaleString('en-US')} | ${h.redisPerRequest.toFixed(2)} | ${cmds || '—'} | ${h.settled.redis} / ${h.settled.repeat} | ${h.redisExecutedPerRequest.toFixed(1)} | ${h.pgAwaitedPerRequest.toFixed(3)} | ${h.pgAllPerRequest.toFixed(4)} |`);
  }
  L.push('');
  const idleCommands = Object.entries(r.idle.redisByCommand).map(([c, n]) => `${c} ${n}`).join(', ');
  L.push(`Idle baseline over ${r.idle.seconds} s with the gateway up and no requests: ${r.idle.redisCommands} Redis commands${idleCommands ? ` (${idleCommands})` : ''}, ${r.idle.pgStatements} Postgres statements (the Redis ones are subtracted from the figures above; the Postgres statements are attributed by their text below).`);
  L.push('');
  const statements = new Map<string, { count: number; background: boolean }>();
  for (const h of r.hotPath) {
    for (const s of h.pgByStatement) {
      const e = statements.get(s.statement) ?? { count: 0, background: s.background };
      e.count += s.count;
      statements.set(s.statement, e);
    }
  }
  if (statements.size > 0) {
    L.push('Gateway statements seen during the counted requests (all capabilities together):');
    L.push('');
    L.push('| Statement | executions | waited on by a request? |');
    L.push('| --- | --- | --- |');
    for (const [sql, e] of [...statements.entries()].sort((a, b) => b[1].count - a[1].count)) {
      L.push(`| \`${sql.length > 110 ? `${sql.slice(0, 107)}…` : sql}\` | ${e.count} | ${e.background ? 'no (background timer)' : 'yes'} |`);
    }
    L.push('');
  }

  L.push(`## 3. Capabilities through the gateway: demo Record vs. the ${large}`);
  L.push('');
  L.push('| Capability | Record | req/s | p50 | p99 | service CPU per request | requests | refused/failed |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const c of r.capabilities) {
    L.push(`| ${c.capability} | demo | ${loadCells(c.demo)} |`);
    L.push(`| ${c.capability} | ${r.records.large.products.toLocaleString('en-US')} products | ${loadCells(c.large)} |`);
  }
  L.push('');
  L.push('The same requests one at a time (before the loaded runs, which they also warm), per request shape: the unloaded latency of each kind of question, and what kind of answer each Record gave.');
  L.push('');
  L.push('| Capability | Request shape | demo p50 / p90 | large p50 / p90 | p50 ratio | demo answers | large answers |');
  L.push('| --- | --- | --- | --- | --- | --- | --- |');
  const answers = (a: Record<string, number>) =>
    Object.entries(a)
      .sort((x, y) => y[1] - x[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  for (const c of r.capabilities) {
    for (const d of c.demoShapes) {
      const l = c.largeShapes.find((x) => x.shape === d.shape);
      L.push(
        `| ${c.capability} | ${d.shape} | ${ms(d.p50)} / ${ms(d.p90)} | ${l ? `${ms(l.p50)} / ${ms(l.p90)}` : 'n/a'} | ${l ? ratio(l.p50 / d.p50) : 'n/a'} | ${answers(d.answers)} | ${l ? answers(l.answers) : 'n/a'} |`,
      );
    }
  }
  L.push('');

  L.push('## 4. MCP `tools/call` vs. the same REST call');
  L.push('');
  L.push('| Call | Load | req/s | p50 | p99 | CPU per call (every service on the path) | requests | refused/failed |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const m of r.mcp) {
    const by = (x: LoadResult) => (x.cpuByProcess ? ` (${Object.entries(x.cpuByProcess).map(([n, v]) => `${n} ${Math.round(v)}`).join(', ')})` : '');
    L.push(`| REST \`POST /api/v1/products/resolve\` | ${m.mode} | ${loadCells(m.rest).replace(' µs |', ` µs${by(m.rest)} |`)} |`);
    L.push(`| MCP \`tools/call ${m.tool}\` | ${m.mode} | ${loadCells(m.mcp).replace(' µs |', ` µs${by(m.mcp)} |`)} |`);
  }
  for (const h of r.hopFloor) {
    L.push(`| REST \`POST /api/v1/products/resolve\` | ${h.mode}, direct | ${loadCells(h.rest)} |`);
    L.push(`| the same, through two bare Node.js hops | ${h.mode}, two hops | ${loadCells(h.hops)} |`);
  }
  L.push('');

  L.push('## 5. Alert fan-out');
  L.push('');
  L.push('| Email workers | Watchers | All alert rows written | First email | All emails in the sink | Emails/s | Distinct alerts | Messages | Sent twice | Rows marked sent |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const s = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(1)} s`);
  for (const f of r.fanout) {
    L.push(`| ${f.replicas} | ${f.watchers.toLocaleString('en-US')} | ${s(f.fanoutSeconds)} | ${s(f.firstEmailSeconds)} | ${f.seconds === null ? 'not within the limit' : s(f.seconds)} | ${Math.round(f.emailsPerSecond)} | ${f.uniqueAlerts.toLocaleString('en-US')} | ${f.messages.toLocaleString('en-US')} | ${f.duplicates} | ${f.sentInDatabase.toLocaleString('en-US')} |`);
  }
  L.push('');
  L.push('Times are from the start of `signal release` (operator CLI) to the event named.');
  L.push('');

  const full = r.profiles.find((p) => p.process === 'gateway (full)');
  const off = r.profiles.find((p) => p.process === 'gateway (checks off)');
  // A profile samples wall time while the thread is not idle, so its shares split the CPU time /proc measured.
  const us = (p: ServiceProfile, share: number) => (p.cpuUsPerRequest ? share * p.cpuUsPerRequest : NaN);
  const usCell = (v: number) => (Number.isFinite(v) ? String(Math.round(v)) : 'n/a');
  if (full && off) {
    const shareOf = (p: ServiceProfile, name: string) => p.owners.find((o) => o.name === name)?.share ?? 0;
    L.push('## Where the gateway spends its CPU (node --cpu-prof)');
    L.push('');
    L.push(
      `Both gateways profiled as separate processes while serving ${full.load}: full ${rps(full.rps)} req/s at ${usCell(full.cpuUsPerRequest ?? NaN)} µs CPU per request, checks off ${rps(off.rps)} req/s at ${usCell(off.cpuUsPerRequest ?? NaN)} µs. Each profile's shares split its process's CPU per request by the code that caused the work: the nearest package or service-code frame on the stack, so a socket write issued by ioredis counts for ioredis, not for node's \`writev\`.`,
    );
    L.push('');
    L.push('Flame graph of the full gateway over the measured load (hover a box for its function and share): [benchmarks-gateway-flame.svg](benchmarks-gateway-flame.svg)');
    L.push('');
    L.push('![Flame graph of the gateway under load](benchmarks-gateway-flame.svg)');
    L.push('');
    L.push('| Caused by | full: share, µs per request | checks off: share, µs per request | difference, µs |');
    L.push('| --- | --- | --- | --- |');
    const names = [...new Set([...full.owners, ...off.owners].map((o) => o.name))];
    const rows = names
      .map((n) => ({ n, fs: shareOf(full, n), os: shareOf(off, n) }))
      .map((x) => ({ ...x, f: us(full, x.fs), o: us(off, x.os) }))
      .sort((a, b) => Math.max(b.f, b.o) - Math.max(a.f, a.o));
    for (const x of rows.slice(0, 12)) {
      L.push(`| ${x.n} | ${(x.fs * 100).toFixed(1)} %, ${usCell(x.f)} | ${(x.os * 100).toFixed(1)} %, ${usCell(x.o)} | ${x.f - x.o >= 0 ? '+' : ''}${usCell(x.f - x.o)} |`);
    }
    L.push('');
  }
  for (const p of r.profiles) {
    if (p === off) continue;
    if (p !== full) {
      L.push(`## Where the ${p.process} service spends its CPU (node --cpu-prof)`);
      L.push('');
      L.push(`Profiled while serving ${p.load} at ${rps(p.rps)} calls/s, ${usCell(p.cpuUsPerRequest ?? NaN)} µs CPU per call. By the code that caused the work:`);
      L.push('');
      L.push('| Caused by | share | µs per call |');
      L.push('| --- | --- | --- |');
      for (const o of p.owners.slice(0, 12)) L.push(`| ${o.name} | ${(o.share * 100).toFixed(1)} % | ${usCell(us(p, o.share))} |`);
      L.push('');
    }
    L.push(`Heaviest functions of the ${p.process} process (self time):`);
    L.push('');
    L.push('| Function | share | µs per request |');
    L.push('| --- | --- | --- |');
    for (const f of p.functions.slice(0, 12)) L.push(`| \`${f.name}\` | ${(f.share * 100).toFixed(1)} % | ${usCell(us(p, f.share))} |`);
    L.push('');
  }

  if (r.notes.length > 0) {
    L.push('## Notes from this run');
    L.push('');
    for (const n of r.notes) L.push(`- ${n}`);
    L.push('');
  }

  L.push('## History');
  L.push('');
  L.push('One line per run, newest last, so figures before and after a change sit side by side.');
  L.push('');
  L.push(HISTORY_START);
  L.push('| Run (UTC) | Commit | Gateway throughput ratio (until 2026-11-24: full / checks off; since: gateway / bare forwarder, then CPU per request gateway / forwarder) | Redis / req | Postgres / req | p99 large / demo (resolve, record, feed) | MCP / REST p50 / p99 | Fan-out 1 / 2 workers | Targets met |');
  L.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const h of [...history, historyLine(r)].slice(-30)) L.push(h);
  L.push(HISTORY_END);
  L.push('');
  L.push(HOW_MEASURED);
  return L.join('\n');
}

const HOW_MEASURED = `## How it is measured

\`npm run bench\` (= \`bash scripts/bench\`) makes sure Postgres, Redis and NATS run, builds the bundles
(\`node scripts/build.mjs\`) and runs \`scripts/benchmark/main.ts\`. It never touches the stack of
\`npm run up\`: it starts its own processes from \`dist/*.mjs\` on free loopback ports, with its own
databases, a **private \`redis-server\`** on a free port, its own NATS stream prefix and an SMTP server
inside the bench process. Decisions behind the method: [docs/decisions/0800](decisions/0800-benchmark-method.md)
and [0314](decisions/0314-benchmark-figures-over-several-runs.md).

- **Repetitions.** Every judged measurement (the comparisons of sections 1, 3 and 4, the counts of
  section 2 and the fan-outs of section 5) runs \`--repeat\` times (3 by default), interleaved so that a
  change in the machine's background falls on every row alike. The Summary gives each figure's median,
  its range and in how many runs it met its target, and judges the median (counts: their worst run;
  any refused or failed request in any run: FAIL). The detailed tables list every run.

- **Databases.** \`er_bench_tpl_demo\` (migrated + demo seed) and \`er_bench_100k\` (migrated +
  \`scripts/generate-record.ts --products 100000 --signals 500000\`, then \`VACUUM ANALYZE\`) are built
  once and kept; each carries a fingerprint of what built it (every workspace source file the seed or
  generator imports, found with esbuild's dependency graph, plus the migrations and the lockfile) as
  its database comment and is rebuilt only when that changes. Every run works on fresh copies (\`er_bench_demo\`,
  \`er_bench_100k_run\`, \`CREATE DATABASE … TEMPLATE … STRATEGY = FILE_COPY\`).
- **Keys** come from the operator CLI (\`node dist/admin.mjs org create / account create / key issue\`)
  on the \`demo\` plan, whose windows and budgets are out of reach. The extraction score still applies
  to every plan: more than 40 distinct resolve identifiers per key and day would score, so the
  resolve rows spread their identifiers over several keys of one organisation (≤ 40 each), and no
  row asks for an id that does not exist.
- **Load.** autocannon (programmatic), closed loop with a fixed number of connections. Every figure
  is a comparison of sides (gateway/direct/bare forwarder/checks off, demo/large Record, REST/MCP):
  each gets a warm-up run whose figures are discarded, then they are measured in slices A, B, …, …,
  B, A (half the measuring time each), so a change in the machine's background load falls on every
  side alike. Latency percentiles are computed from every 2xx response time in fractional
  milliseconds (autocannon's own histogram rounds to whole ones). A row with any non-2xx answer,
  error or timeout fails its target: refusals are not speed. *CPU per request* is the user + system
  CPU time each named process used during its side's slices (from \`/proc/<pid>/stat\`) divided by
  the requests served: it is what a request costs that process, and it is far less sensitive to what
  else runs on the machine than req/s (though contention still raises it: fewer events per wake-up).
- **1. The gateway at the cost of a hop.** The same requests (\`GET /api/v1/record/version\` with
  the demo key; \`POST /api/v1/products/resolve\` with one identifier) along four paths, in rounds
  A B C D D C B A: **A** through the gateway; **B** straight to the record service, each request
  signed by the load generator as the gateway signs (decision 0313); **C** through a bare
  keep-alive forwarder (\`scripts/benchmark/bare-hop.ts\`: a node:http server that pipes the request
  to the record service over \`http.Agent({ keepAlive: true })\`, adds the same signature and pipes
  the answer back, nothing else); **D** through a second gateway process with \`GATEWAY_CHECKS=off\`
  (refused under \`NODE_ENV=production\`, so it runs with \`NODE_ENV=benchmark\`): the same request
  path without key lookup, rate windows, validation, budget or score. Before the first run every path
  is loaded once for 6 s per request kind, so that all of them are measured compiled (with only the
  2 s warm-up, the first run was the gateway's worst of three in 11 of 12 comparisons). Each path's CPU per request
  is read for the hop (gateway or forwarder) and for the record service behind it. Judged: the
  gateway's CPU per request ÷ the forwarder's (≤ 1.5) and the gateway's throughput ÷ the
  forwarder's (≥ 0.8), medians over the runs. Both gateways use the same upstream services and log
  level (info: one access-log line per request, as in production). When a target is missed (or with
  \`--profile\`), both gateways are run once more under \`node --cpu-prof\` and their profiles
  summarised below the tables. \`--only hop,mcp\` runs chosen sections alone.
- **2. Counting.** Both counts are taken on the wire, outside the gateway, over a fixed number of
  requests, on a third gateway process used only for counting (the gateways that are timed connect
  to Redis and Postgres directly, so no counting hop is in any timed figure). The rows cycle through
  the same requests, so after the first pass their answers are repeats the gateway settles without
  Redis (decision 0306; the split is read from the counted gateway's \`er_gateway_settlements_total\`);
  one more row asks for every demo product once for an organisation that has named none of them
  today, so every answer is settled in Redis (the most a request costs). Redis: the counted gateway connects to the private \`redis-server\` through a TCP
  pass-through in the bench process that reads the client half of RESP and counts every command
  sent (each one a request/answer exchange, so commands sent ≥ round trips); the count over an idle
  interval of the same length is subtracted. \`INFO commandstats\` of the private server shows the
  work behind them (the commands the Lua scripts run inside Redis, which never cross the network).
  Postgres: the counted gateway connects through a TCP pass-through in the bench process
  that reads the client half of the Postgres wire protocol and counts every executed statement
  (simple \`Query\`, or \`Execute\` of the extended protocol, attributed to the SQL text it was
  \`Parse\`d from). Only that gateway connects through it, so the services' queries are never
  attributed to it. A statement counts as *on the request path* unless it is one of the gateway's
  two background timers: the once-a-second \`record_versions\` read (for refusal envelopes) and the
  batched \`usage_log\` insert (one statement per up to 500 requests, never awaited by a request).
- **3. Record size.** resolve_product cycles through real "brand + product name" identifiers and
  aliases, get_product_record through real product ids, list_signal_changes through the newest page
  and per-product and per-brand filters, all sampled from the Record under test (fixed hash order).
  A second stack (record, signals, gateway) runs on the generated Record beside the demo stack, and
  the two Records are measured alternately, capability by capability, so both meet the same machine
  conditions. Before the loaded runs every distinct request is sent once, one at a time: that warms
  both Records the same way and gives the unloaded latency and the kind of answer (supported,
  ambiguous, …) per request shape, so a ratio can be read for what it compares.
- **4. MCP.** \`POST /mcp\` with a JSON-RPC \`tools/call\` of \`products.resolve\` (headers
  \`Accept: application/json, text/event-stream\`, \`MCP-Protocol-Version: 2025-06-18\`) against
  \`POST /api/v1/products/resolve\` with the same identifier and key. First both run closed loop
  (the throughput cost of the extra hops: gateway → MCP service → gateway → record service, for
  information; the CPU per call of the gateway, the MCP service and the record service are read
  separately). Then the judged latency (p50 ≤ 1.35, p99 ≤ 1.5): one call at a time, paced (open
  loop, by default one call every 10 ms, so 50 calls/s each, for 20 s a round: 1,000 calls a side, so
  the p99 is the tenth slowest call, not the fifth), REST and MCP alternating call by call
  on their own keep-alive connections, each call timed from the moment it was due, so both meet the
  same machine and neither queues. (autocannon's
  \`overallRate\` is not used for this: it hands each connection its share of a second at once, so
  a second's calls leave in a burst and the figure measures queueing at the burst's depth.) Then the
  floor: the same REST call, paced the same way, direct and through two bare Node.js HTTP hops
  (\`scripts/benchmark/bare-hop.ts\`, separate processes that only forward over keep-alive), which is
  what the MCP path's two extra hops cost on this machine before any MCP work (information).
- **5. Fan-out.** 10,000 organisations, each with one account, watch one demo product (inserted with
  SQL before the release). A new label capture is imported, a candidate opened and approved, and the
  Signal released with the operator CLI (\`capture import\`, \`candidate open\`, \`candidate approve\`,
  \`signal release\`), which publishes at once. The clock runs from the start of \`signal release\`
  until the SMTP sink in the bench process holds a message for every watcher, counted by the
  \`X-Evidence-Record-Alert\` header; three more seconds are waited for duplicates. Then a second
  email-worker replica (same durable consumer) joins and the run is repeated on another product.
  Both workers run with the shipped defaults (\`EMAIL_CONCURRENCY=16\`). A run is stopped after 65 s;
  its emails/s still say how long all would take, and its remaining alerts are cancelled (the worker
  acknowledges a cancelled alert without sending) and drained before the next run starts.

The machine is small and shared (load generator, seven services, Postgres and Redis on the same
CPUs), so absolute req/s are a floor for a real deployment; ratios between rows of the same run are
what the targets judge.
`;
