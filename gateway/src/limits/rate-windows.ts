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

/** One request waiting for its batch's script: whether it counts, and how its decision is handed back. */
interface Waiting {
  count: boolean;
  resolve: (decision: RateDecision) => void;
  reject: (err: unknown) => void;
}

/** The requests of one key (and plan limits) gathered while the connection's writes are held. */
interface HeldBatch {
  keys: [string, string, string, string];
  limits: [number, number, number];
  waiting: Waiting[];
}

// Per connection: the batches gathering now, by key and limits.
const gathering = new WeakMap<RedisClient & GatewayScripts, Map<string, HeldBatch>>();

function gatheringOn(redis: RedisClient & GatewayScripts): Map<string, HeldBatch> {
  let batches = gathering.get(redis);
  if (!batches) {
    batches = new Map();
    gathering.set(redis, batches);
  }
  return batches;
}

/**
 * Checks and counts (or, with `count: false`, only reads) the key's three
 * windows. A request's script used to be held with the connection's other
 * writes for the rest of its turn of the event loop and the next (platform
 * `holdWritesPerTurn`, decision 1800); now the key's requests of those turns
 * share one script, issued as the writes are let go, each request told
 * exactly what a script of its own would have told it, in the order they
 * asked (scripts.ts). No request's script leaves later than before, and under
 * load (2–3 requests per turn) one script instead of several saves the
 * client a command and a reply per request and Redis a script call (issue 25).
 */
export function checkRateWindows(
  redis: RedisClient & GatewayScripts,
  prefix: string,
  keyId: string,
  plan: PlanLimits,
  count: boolean,
): Promise<RateDecision> {
  const limits: [number, number, number] = [plan.windows.minute, plan.windows.hour, plan.windows.day];
  const batches = gatheringOn(redis);
  const id = `${prefix}\n${keyId}\n${limits[0]}/${limits[1]}/${limits[2]}`;
  let batch = batches.get(id);
  if (!batch) {
    const [m, h, d] = rateWindowKeys(prefix, keyId);
    batch = { keys: [m, h, d, coolDownKey(prefix, keyId)], limits, waiting: [] };
    if (batches.size === 0) redis.holdWrites(() => sendHeld(redis, batches));
    batches.set(id, batch);
  }
  const waiting = batch.waiting;
  return new Promise<RateDecision>((resolve, reject) => waiting.push({ count, resolve, reject }));
}

function sendHeld(redis: RedisClient & GatewayScripts, batches: Map<string, HeldBatch>): void {
  for (const batch of batches.values()) void sendBatch(redis, batch);
  batches.clear();
}

async function sendBatch(redis: RedisClient & GatewayScripts, { keys, limits, waiting }: HeldBatch): Promise<void> {
  let r: (string | number)[];
  try {
    r = await redis.erRateWindows(...keys, ...limits, ...waiting.map((w) => (w.count ? '1' : '0')));
  } catch (err) {
    for (const w of waiting) w.reject(err);
    return;
  }
  const coolState = r[0];
  const coolDown = coolState === 'cool' || coolState === 'suspended' ? { state: coolState as 'cool' | 'suspended', remainingMs: Math.max(0, Number(r[1])) } : null;
  for (let j = 0; j < waiting.length; j++) {
    const at = 5 + j * 4;
    const windows = windowNames.map((name, i): WindowState => {
      const used = Number(r[at + 1 + i]);
      const limit = limits[i]!;
      return { name, limit, used, remaining: Math.max(0, limit - used), resetMs: Number(r[2 + i]) };
    });
    const admitted = Number(r[at]) === 1;
    const reported = reportedWindow(windows);
    const retryAfterMs = coolDown ? coolDown.remainingMs : admitted ? 0 : reported.resetMs;
    waiting[j]!.resolve({ admitted, windows, reported, coolDown, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
  }
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
