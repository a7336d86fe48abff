import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Measured figures of a resilience run (recovery seconds, latencies,
 * duplicate counts), printed and kept in .run/resilience-figures/<suite>.json
 * so that docs/reliability.md can quote a real run.
 */
export async function recordFigures(suite: string, figures: Record<string, unknown>): Promise<void> {
  console.log(`[figures] ${suite}: ${JSON.stringify(figures)}`);
  const dir = join(process.cwd(), '.run', 'resilience-figures');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${suite}.json`), `${JSON.stringify({ ...figures, measured_at: new Date().toISOString() }, null, 2)}\n`);
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;
