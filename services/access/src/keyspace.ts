/**
 * Names of everything the gateway keeps in Redis, in one place, shared with
 * the operator CLI (which publishes key changes and clears scores).
 *
 * Keys that one Lua script touches share a hash tag, so the scripts also run
 * on Redis Cluster: everything counted per key lives under `{k:<keyId>}`,
 * everything charged per organisation (the daily budgets, and the extraction
 * score the budget script updates in the same step) under `{o:<orgId>}`.
 */
export const keyChangesChannel = (prefix: string): string => `${prefix}keys:changed`;

/** Invalidation payloads: a key id, or every key of an organisation. */
export const orgChangeMessage = (orgId: string): string => `org:${orgId}`;

export const windowNames = ['minute', 'hour', 'day'] as const;
export type WindowName = (typeof windowNames)[number];

export function rateWindowKeys(prefix: string, keyId: string): [string, string, string] {
  const tag = `${prefix}{k:${keyId}}`;
  return [`${tag}:rl:minute`, `${tag}:rl:hour`, `${tag}:rl:day`];
}

/** The key's MCP protocol window (docs/decisions/0605): one minute, under the key's hash tag. */
export function protocolWindowKey(prefix: string, keyId: string): string {
  return `${prefix}{k:${keyId}}:rl:mcp`;
}

/** Present while a key is in an extraction cool-down (value `cool`) or being suspended (value `suspended`). */
export function coolDownKey(prefix: string, keyId: string): string {
  return `${prefix}{k:${keyId}}:cool`;
}

// The gateway asks for the day of every settled answer: the last day's bounds are kept (a Date and an ISO string less per call).
let lastDay = { from: 0, to: 0, day: '' };

/** UTC calendar day, YYYY-MM-DD. */
export function utcDay(nowMs: number): string {
  if (nowMs >= lastDay.from && nowMs < lastDay.to) return lastDay.day;
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const from = utcDayNumber(nowMs) * 86_400_000;
  lastDay = { from, to: from + 86_400_000, day };
  return day;
}

/** Days since the epoch (UTC), for "how many of the last seven days". */
export function utcDayNumber(nowMs: number): number {
  return Math.floor(nowMs / 86_400_000);
}

export function secondsToNextUtcMidnight(nowMs: number): number {
  const next = (utcDayNumber(nowMs) + 1) * 86_400_000;
  return Math.max(1, Math.ceil((next - nowMs) / 1000));
}

export function budgetKey(prefix: string, orgId: string, day: string, kind: string): string {
  return `${prefix}{o:${orgId}}:budget:${day}:${kind}`;
}

export interface ScoreKeys {
  /** Hash: score, at, last not-found id, newest feed `since` per filter, day exhaustion was last scored. */
  state: string;
  notFound: string;
  identifiers: string;
  windows: string;
  /** Set of day numbers on which this key met a spent budget. */
  exhaustedDays: string;
}

export function scoreKeys(prefix: string, orgId: string, keyId: string, day: string): ScoreKeys {
  const base = `${prefix}{o:${orgId}}:score:${keyId}`;
  return {
    state: base,
    notFound: `${base}:notfound:${day}`,
    identifiers: `${base}:identifiers:${day}`,
    windows: `${base}:windows:${day}`,
    exhaustedDays: `${base}:exhausted`,
  };
}
