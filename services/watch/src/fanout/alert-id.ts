import { createHash } from 'node:crypto';

/**
 * The stable id of the one alert an account gets about one Signal. The same
 * derivation runs in SQL (queries/fanout.ts); a unit test keeps them equal.
 */
export function alertIdFor(signalId: string, accountId: string): string {
  return `alr_${createHash('sha256').update(`${signalId}:${accountId}`, 'utf8').digest('hex').slice(0, 24)}`;
}
