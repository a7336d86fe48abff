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
  startTime: number;
  endTime: number;
}

export interface HotSpot {
  name: string;
  selfMs: number;
  share: number;
}

/** Where a frame's code lives: a package, node's own code, the gateway bundle, or the engine. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/').slice(0, 2).join('/');
  if (url.includes('/dist/')) return `bundle ${url.split('/dist/')[1]}`;
  return url;
}

/**
 * Self time per function and per area from a V8 `.cpuprofile` (node
 * --cpu-prof). Idle time is left out of the shares, so they say where the
 * busy process spent its CPU.
 */
export function summarizeProfile(path: string, top = 15): { busyMs: number; idleMs: number; functions: HotSpot[]; areas: HotSpot[] } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
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
    const area = areaOf(f.url, f.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const rank = (m: Map<string, number>): HotSpot[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, selfMs: us / 1000, share: busy > 0 ? us / busy : 0 }));
  return { busyMs: busy / 1000, idleMs: idle / 1000, functions: rank(functions), areas: rank(areas) };
}
