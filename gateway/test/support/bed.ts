import type { Redis } from 'ioredis';
import { createPool, type Pool } from '@evidence-record/platform';
import { emptyDatabase, isolationPrefix, type TestDatabase } from '@evidence-record/test-support/db';
import { dropPrefix, gatewayConfig, redisClient, startGateway, type RunningGateway } from './harness';
import { startFakeUpstreams, type FakeUpstreams } from './upstreams';

/**
 * What most gateway test files start from: an empty database of their own
 * (and a pool on it), a Redis key prefix of their own, fake upstreams, and
 * one in-process gateway over them.
 */
export interface GatewayBed {
  db: TestDatabase;
  pool: Pool;
  redis: Redis;
  prefix: string;
  /** What the operator CLI verbs (orgWithKey, admin) read. */
  env: { DATABASE_URL: string; REDIS_PREFIX: string };
  up: FakeUpstreams;
  gw: RunningGateway;
  /** Stops the gateway and the upstreams, drops the Redis keys and the database. */
  close: () => Promise<void>;
}

export async function gatewayBed(label: string): Promise<GatewayBed> {
  const db = await emptyDatabase();
  const pool = createPool(db.url);
  const redis = redisClient();
  const prefix = isolationPrefix(label).redisPrefix;
  const env = { DATABASE_URL: db.url, REDIS_PREFIX: prefix };
  let up: FakeUpstreams | undefined;
  let gw: RunningGateway | undefined;
  const close = async () => {
    await gw?.close();
    await up?.close();
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await pool.end();
    await db.drop();
  };
  try {
    up = await startFakeUpstreams();
    gw = await startGateway(gatewayConfig({ databaseUrl: db.url, redisPrefix: prefix, upstreams: up.urls }));
    return { db, pool, redis, prefix, env, up, gw, close };
  } catch (err) {
    await close();
    throw err;
  }
}
