import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Test runs share this machine's Postgres, Redis and NATS, never their data:
 * every run has its own id, and every database, Redis key prefix and NATS
 * stream name carries it.
 */
export const ADMIN_DATABASE_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * On the multi-node engines (`npm run test:multi-node`, the multi-node step of
 * `npm test`: test/global-setup-multi-node.ts starts them and sets these):
 * a streaming standby of the admin database's server, which every stack's
 * services read snapshots from (DATABASE_READ_URL); REDIS_URL listing a
 * Redis Cluster's nodes (REDIS_MODE=cluster); NATS_URL listing a cluster's
 * servers and its streams' replicas. Unset, the machine's single nodes.
 */
export const ENGINES = process.env.TEST_ENGINES === 'multi-node' ? 'multi-node' : 'single-node';
export const ADMIN_DATABASE_READ_URL = process.env.TEST_ADMIN_DATABASE_READ_URL;
export const REDIS_MODE = process.env.TEST_REDIS_MODE ?? 'standalone';
export const NATS_STREAM_REPLICAS = process.env.TEST_NATS_STREAM_REPLICAS;

export function uniqueSuffix(): string {
  return randomBytes(5).toString('hex');
}

export function databaseUrl(name: string): string {
  const u = new URL(ADMIN_DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The same database on the standby (DATABASE_READ_URL), on the multi-node engines; undefined on one node. */
export function databaseReadUrl(name: string): string | undefined {
  if (!ADMIN_DATABASE_READ_URL) return undefined;
  const u = new URL(ADMIN_DATABASE_READ_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The engine settings every stack's services get besides the URLs (nothing on one node, so its environment is as before). */
export function engineEnv(): Record<string, string> {
  return {
    ...(REDIS_MODE === 'standalone' ? {} : { REDIS_MODE }),
    ...(NATS_STREAM_REPLICAS ? { NATS_STREAM_REPLICAS } : {}),
  };
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
