import { readFileSync } from 'node:fs';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A profile's self time per node, from `fromMs` after profiling began (so a process's start-up can be left out). */
function selfTimes(profile: CpuProfile, fromMs = 0): Map<number, number> {
  const self = new Map<number, number>();
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < fromMs * 1000) continue;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + dt);
  }
  return self;
}

export interface HotSpot {
  name: string;
  selfMs: number;
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  /** Self time by function. */
  functions: HotSpot[];
  /**
   * Time by the code that caused it: each sample goes to the nearest frame on
   * its stack that is a package or the service bundle, so a socket write
   * issued by ioredis counts for ioredis, not for node's `writev`.
   */
  owners: HotSpot[];
}

/** The package, the service bundle, or node itself, for a frame's script URL. */
export function ownerOf(url: string): string | null {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const bundle = /\/dist\/([^/]+)\.mjs$/.exec(url);
  if (bundle) return `${bundle[1]} (service code)`;
  return null;
}

/** Self time per function, and time per owning package, from a V8 `.cpuprofile` (node --cpu-prof); idle time left out. */
export function summarizeProfile(path: string, top = 15, fromMs = 0): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = selfTimes(profile, fromMs);
  const ownerCache = new Map<number, string>();
  const owner = (id: number): string => {
    const cached = ownerCache.get(id);
    if (cached) return cached;
    let cur: number | undefined = id;
    let found: string | null = null;
    while (cur !== undefined && found === null) {
      found = ownerOf(byId.get(cur)!.callFrame.url);
      cur = parent.get(cur);
    }
    const f = byId.get(id)!.callFrame;
    const result = found ?? (f.url.startsWith('node:') ? 'node (no package on the stack)' : f.functionName === '(garbage collector)' ? '(garbage collector)' : '(engine, no package on the stack)');
    ownerCache.set(id, result);
    return result;
  };

  const functions = new Map<string, number>();
  const owners = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  for (const [id, us] of selfUs) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    const o = owner(id);
    owners.set(o, (owners.get(o) ?? 0) + us);
  }
  const rank = (m: Map<string, number>, n: number): HotSpot[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, selfMs: us / 1000, share: busy > 0 ? us / busy : 0 }));
  return { busyMs: busy / 1000, idleMs: idle / 1000, functions: rank(functions, top), owners: rank(owners, 100) };
}

/**
 * A flame graph (icicle: callers above callees) of a V8 `.cpuprofile` as a self-contained SVG:
 * each frame's width is its inclusive busy time, idle time left out. Frames narrower than
 * `minShare` of the total are dropped; the title of each box says its function, script and share.
 */
export function flameGraphSvg(path: string, title: string, opts: { width?: number; minShare?: number; fromMs?: number } = {}): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const width = opts.width ?? 1200;
  const minShare = opts.minShare ?? 0.004;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = selfTimes(profile, opts.fromMs);
  const total = new Map<number, number>();
  const inclusive = (id: number): number => {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') return 0;
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += inclusive(c);
    total.set(id, t);
    return t;
  };
  const root = profile.nodes[0]!.id;
  const all = inclusive(root);
  const row = 16;
  const boxes: string[] = [];
  let depthMax = 0;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const colour = (url: string) => (url.includes('node_modules') ? '#e8a33d' : url.includes('/dist/') ? '#d9534f' : url.startsWith('node:') ? '#5b8bd9' : '#9a9a9a');
  const place = (id: number, x: number, depth: number): void => {
    const t = total.get(id) ?? 0;
    if (all <= 0 || t / all < minShare) return;
    const n = byId.get(id)!;
    const w = (t / all) * width;
    depthMax = Math.max(depthMax, depth);
    const f = n.callFrame;
    const script = f.url ? `${f.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}` : '';
    const name = id === root ? `all (${(all / 1000).toFixed(0)} ms busy)` : f.functionName || '(anonymous)';
    const label = `${name}${script ? ` ${script}` : ''} — ${((t / all) * 100).toFixed(1)} %`;
    const chars = Math.floor((w - 4) / 6.5);
    const text = chars >= 3 ? `<text x="${(x + 2).toFixed(1)}" y="${depth * row + 12}">${esc(name.length > chars ? `${name.slice(0, chars - 1)}…` : name)}</text>` : '';
    boxes.push(`<g><title>${esc(label)}</title><rect x="${x.toFixed(1)}" y="${depth * row}" width="${Math.max(0.5, w - 0.5).toFixed(1)}" height="${row - 1}" fill="${colour(f.url)}"/>${text}</g>`);
    let cx = x;
    for (const c of n.children ?? []) {
      place(c, cx, depth + 1);
      cx += ((total.get(c) ?? 0) / all) * width;
    }
  };
  place(root, 0, 1);
  const height = (depthMax + 2) * row;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`,
    `<text x="2" y="12" font-weight="bold">${esc(title)} (width: time the thread was busy, sampled; red: service bundle, orange: packages, blue: node, grey: engine)</text>`,
    ...boxes,
    '</svg>',
    '',
  ].join('\n');
}
