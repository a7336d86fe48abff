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
export function summarizeProfile(path: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
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
