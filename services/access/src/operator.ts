import { ConfigError, createRedis, groupByHashTag, onRedisErrors, openRedis, redisSettingsFrom, type RedisClient, type RedisSettings } from '@evidence-record/platform';
import { publishKeyChange } from './key-changes';
import { coolDownKey, orgChangeMessage, scoreKeys, utcDay } from './keyspace';
import { defaultScoringPolicy } from './scoring-policy';

/**
 * What the operator CLI needs from the gateway's Redis state: announcing key
 * changes to every replica, and clearing a key's extraction score when an
 * operator lifts a suspension. Kept here so the key names have one owner.
 */
interface OperatorRun {
  env: NodeJS.ProcessEnv;
  onClose: (fn: () => Promise<void>) => void;
}

/** Redis cannot be reached: the CLI reports `redis_unavailable` and exits non-zero. */
export class RedisUnreachable extends Error {
  override name = 'RedisUnreachable';
}

/** The gateways' own Redis settings (REDIS_MODE, REDIS_URL, REDIS_SENTINEL_NAME), so the CLI reaches the Redis they share. */
function gatewaysRedis(env: NodeJS.ProcessEnv): RedisSettings {
  try {
    return redisSettingsFrom({
      REDIS_URL: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_MODE: env.REDIS_MODE,
      REDIS_SENTINEL_NAME: env.REDIS_SENTINEL_NAME,
      REDIS_SENTINEL_PASSWORD: env.REDIS_SENTINEL_PASSWORD,
    });
  } catch (err) {
    throw new RedisUnreachable(err instanceof ConfigError ? `cannot reach Redis: ${err.message}` : String(err));
  }
}

const connections = new WeakMap<OperatorRun, Promise<{ redis: RedisClient; prefix: string }>>();

function redisFor(run: OperatorRun): Promise<{ redis: RedisClient; prefix: string }> {
  let pending = connections.get(run);
  if (!pending) {
    pending = (async () => {
      const settings = gatewaysRedis(run.env);
      const redis = createRedis(settings, {
        lazyConnect: true,
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
        // One server: no retry (a prompt redis_unavailable). A cluster or Sentinels: ride out a failover
        // in progress (a few seconds) rather than report a Redis that is about to answer as unreachable.
        retryStrategy: settings.mode === 'standalone' ? () => null : (times) => (times <= 10 ? 300 : null),
        enableOfflineQueue: false,
      });
      onRedisErrors(redis, () => undefined);
      run.onClose(async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
      await openRedis(redis, 10_000).catch((err: unknown) => {
        throw new RedisUnreachable(`cannot reach Redis at REDIS_URL: ${String(err)}`);
      });
      return { redis, prefix: run.env.REDIS_PREFIX ?? '' };
    })();
    connections.set(run, pending);
  }
  return pending;
}

/**
 * Publishes a key change (a key id) so every gateway replica evicts it now.
 * Throws if Redis cannot be reached: the change is committed, but replicas
 * would hold their cached copy for up to a minute.
 */
export async function announceKeyChange(run: OperatorRun, keyId: string): Promise<number> {
  const { redis, prefix } = await redisFor(run).catch((err: unknown) => {
    throw new RedisUnreachable(`change saved, but Redis is unreachable so gateways were not told (cached keys expire within 60 s): ${err instanceof Error ? err.message : String(err)}`);
  });
  return publishKeyChange(redis, prefix, keyId).catch((err: unknown) => {
    throw new RedisUnreachable(`change saved, but publishing to Redis failed so gateways were not told (cached keys expire within 60 s): ${String(err)}`);
  });
}

/** Publishes a change to an organisation (plan, suspension, bound accounts): every key of it is evicted. */
export async function announceOrgChange(run: OperatorRun, orgId: string): Promise<number> {
  return announceKeyChange(run, orgChangeMessage(orgId));
}

/** Forgets a key's extraction score, cool-down and today's evidence sets (on unsuspend). */
export async function clearExtractionState(run: OperatorRun, orgId: string, keyId: string, now = Date.now()): Promise<void> {
  const { redis, prefix } = await redisFor(run);
  const today = scoreKeys(prefix, orgId, keyId, utcDay(now));
  const yesterday = scoreKeys(prefix, orgId, keyId, utcDay(now - 86_400_000));
  const keys = [
    coolDownKey(prefix, keyId),
    today.state,
    today.exhaustedDays,
    today.notFound,
    today.identifiers,
    today.windows,
    yesterday.notFound,
    yesterday.identifiers,
    yesterday.windows,
  ];
  // The cool-down flag lives under the key's hash tag, the score under the organisation's: one DEL per
  // tag, since on a Redis Cluster a DEL whose keys hash to different slots is refused whole (CROSSSLOT).
  await Promise.all(groupByHashTag(keys).map((group) => redis.del(...group)));
}

/** The live extraction state of a key, for `key show` (null when Redis is unreachable). */
export async function readExtractionState(run: OperatorRun, orgId: string, keyId: string, now = Date.now()): Promise<Record<string, unknown> | null> {
  try {
    const { redis, prefix } = await redisFor(run);
    const keys = scoreKeys(prefix, orgId, keyId, utcDay(now));
    const [state, coolDown, coolMs] = await Promise.all([redis.hgetall(keys.state), redis.get(coolDownKey(prefix, keyId)), redis.pttl(coolDownKey(prefix, keyId))]);
    // Stored as of its last change; it has decayed since.
    const stored = Number(state.score ?? 0);
    const at = Number(state.at ?? now);
    const score = stored * Math.pow(0.5, Math.max(0, now - at) / defaultScoringPolicy.half_life_ms);
    return {
      score: Math.round(score * 10) / 10,
      score_updated_at: state.at ? new Date(Number(state.at)).toISOString() : null,
      cool_down: coolDown ? { state: coolDown, seconds_left: Math.ceil(coolMs / 1000) } : null,
    };
  } catch {
    return null;
  }
}
