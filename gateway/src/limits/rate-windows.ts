import type { RedisClient } from '@evidence-record/platform';
import { coolDownKey, rateWindowKeys, windowNames, type WindowName } from '@evidence-record/access';
import type { PlanLimits } from '../access/key-record';
import type { GatewayScripts } from './scripts';

export interface WindowState {
  name: WindowName;
  limit: number;
  used: number;
  remaining: number;
  resetMs: number;
}

export interface RateDecision {
  admitted: boolean;
  windows: WindowState[];
  /** The window the headers report: the one closest to exhaustion (or the one that refused). */
  reported: WindowState;
  /** Set when the key is in an extraction cool-down or being suspended. */
  coolDown: { state: 'cool' | 'suspended'; remainingMs: number } | null;
  /** Seconds until a refused request could be admitted. */
  retryAfterSeconds: number;
}

/**
 * Checks and counts (or, with `count: false`, only reads) the key's three
 * windows in one Redis round trip.
 */
export async function checkRateWindows(
  redis: RedisClient & GatewayScripts,
  prefix: string,
  keyId: string,
  plan: PlanLimits,
  count: boolean,
): Promise<RateDecision> {
  const [m, h, d] = rateWindowKeys(prefix, keyId);
  const limits = [plan.windows.minute, plan.windows.hour, plan.windows.day];
  const r = await redis.erRateWindows(m, h, d, coolDownKey(prefix, keyId), limits[0]!, limits[1]!, limits[2]!, count ? '1' : '0');
  const windows = windowNames.map((name, i): WindowState => {
    const used = Number(r[1 + i * 2]);
    const limit = limits[i]!;
    return { name, limit, used, remaining: Math.max(0, limit - used), resetMs: Number(r[2 + i * 2]) };
  });
  const coolState = r[7];
  const coolDown = coolState === 'cool' || coolState === 'suspended' ? { state: coolState as 'cool' | 'suspended', remainingMs: Math.max(0, Number(r[8])) } : null;
  const admitted = Number(r[0]) === 1;
  const reported = reportedWindow(windows);
  const retryAfterMs = coolDown ? coolDown.remainingMs : admitted ? 0 : reported.resetMs;
  return { admitted, windows, reported, coolDown, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/**
 * The window closest to exhaustion: fewest requests remaining. Among spent
 * windows, the one that stays spent longest (that is when a request can pass
 * again); among ties otherwise, the longer window.
 */
export function reportedWindow(windows: WindowState[]): WindowState {
  let best = windows[0]!;
  for (let i = 1; i < windows.length; i++) {
    const w = windows[i]!;
    if (w.remaining < best.remaining) best = w;
    else if (w.remaining === best.remaining && (best.remaining > 0 ? true : w.resetMs > best.resetMs)) best = w;
  }
  return best;
}

/** RateLimit-* headers (docs/decisions/0301-rate-windows-and-headers.md). */
export function rateLimitHeaders(decision: Pick<RateDecision, 'reported'>): Record<string, string> {
  const w = decision.reported;
  return {
    'RateLimit-Limit': String(w.limit),
    'RateLimit-Remaining': String(w.remaining),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(w.resetMs / 1000))),
    'RateLimit-Policy': w.name,
  };
}

/**
 * The RateLimit headers of a request that counts nothing (a refusal before
 * the windows, an MCP protocol request): the key's windows read, not counted.
 */
export async function peekRateLimitHeaders(redis: RedisClient & GatewayScripts, prefix: string, keyId: string, plan: PlanLimits): Promise<Record<string, string>> {
  return rateLimitHeaders(await checkRateWindows(redis, prefix, keyId, plan, false));
}
