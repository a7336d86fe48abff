import { env, redisEnv } from '@evidence-record/platform';

/**
 * The gateways' Redis: where every key's windows, budgets and extraction
 * score live, and where key changes are announced. Declared once here, read
 * by the gateway (its configSchema spreads these) and by the operator CLI,
 * whose key, account and organisation verbs reach the same Redis under the
 * same prefix (scripts/admin/config.ts; decision 2250).
 */
export const accessSettings = {
  /** REDIS_URL, REDIS_MODE (standalone, cluster, sentinel), REDIS_SENTINEL_NAME, REDIS_SENTINEL_PASSWORD (decision 2300). */
  ...redisEnv,
  REDIS_PREFIX: env.prefix,
};
