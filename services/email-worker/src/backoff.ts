/**
 * Delay before the next delivery attempt after a temporary SMTP failure:
 * exponential from `baseMs`, capped at `maxMs`, with ±20 % jitter so that
 * alerts failing together do not retry together.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const jitter = 1 + (random() * 0.4 - 0.2);
  return Math.max(1, Math.round(Math.min(maxMs, exponential * jitter)));
}
