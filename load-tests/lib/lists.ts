/**
 * Pure parsing of the scenarios' list settings, kept free of k6 imports so
 * that vitest can test it (test/load-tests/lists.test.ts); the k6 scripts
 * import it like any other module.
 *
 * Two kinds of list: a set (fixture ids, capabilities to skip), where a
 * repeated entry means nothing and is dropped; and a sequence (stages of a
 * run), where every entry is a step and a repeated one is a real step
 * again: "100:1m,100:3m" ramps then holds, and "100:1m,100:1m" is two
 * minutes, not one.
 */

/** A comma-separated sequence: empty entries dropped, duplicates and order kept. */
export function splitSequence(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A comma-separated set: empty entries dropped, duplicates removed, first order kept. */
export function splitSet(value: string | undefined): string[] {
  const out: string[] = [];
  for (const s of splitSequence(value)) if (out.indexOf(s) === -1) out.push(s);
  return out;
}

/** k6 durations: "90s", "1m30s", "500ms", "2h". */
export function durationMs(d: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let matched = '';
  let m: RegExpExecArray | null;
  while ((m = re.exec(d)) !== null) {
    const n = parseFloat(m[1] as string);
    const unit = m[2] as string;
    total += unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60000 : n * 3600000;
    matched += m[0];
  }
  if (matched !== d.trim() || matched === '') throw new Error(`not a duration: "${d}"`);
  return total;
}

export interface Stage {
  target: number;
  duration: string;
  /** stress_stage tag: sNN_<target>rps, NN the 1-based position (unique even when a stage repeats). */
  tag: string;
  /** Milliseconds from the start of the run to the end of this stage. */
  endsAtMs: number;
}

/** STRESS_STAGES entries (target_rps:duration), every one a stage, in order. */
export function parseStages(entries: readonly string[]): Stage[] {
  const out: Stage[] = [];
  let t = 0;
  entries.forEach((e, i) => {
    const [target, duration, extra] = e.split(':');
    const n = Number(target);
    if (!Number.isInteger(n) || n < 0 || duration === undefined || extra !== undefined) throw new Error(`STRESS_STAGES entry "${e}" is not target:duration`);
    t += durationMs(duration);
    const idx = i < 9 ? `0${i + 1}` : `${i + 1}`;
    out.push({ target: n, duration, tag: `s${idx}_${n}rps`, endsAtMs: t });
  });
  return out;
}
