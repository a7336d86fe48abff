import { z } from 'zod';
import { baseEnv, databaseEnv, databaseReadEnv, env, loadConfig, signingKeysEnv } from '@evidence-record/platform';

export const SignalsConfigSchema = z.object({
  ...baseEnv,
  /** This service's keys (one, or two during a rotation): it accepts only requests the gateway signed with one of them (decision 0313). Required. */
  SIGNALS_SIGNING_KEYS: signingKeysEnv,
  PORT: env.port(8102),
  DATABASE_URL: env.databaseUrl,
  ...databaseEnv,
  ...databaseReadEnv,
  NATS_URL: env.natsUrl.default('nats://127.0.0.1:4222'),
  NATS_PREFIX: env.prefix,
  /** Replicas of a stream this service creates; an existing stream keeps its own (decision 2340). */
  NATS_STREAM_REPLICAS: env.natsStreamReplicas,
  // Signs feed and snapshot cursors; a cursor signed with another secret is refused.
  CURSOR_SECRET: z.string().min(32, 'at least 32 characters'),
  PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
});

export type SignalsConfig = z.infer<typeof SignalsConfigSchema>;

export function loadSignalsConfig(source: NodeJS.ProcessEnv = process.env): SignalsConfig {
  return loadConfig(SignalsConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { SignalsConfigSchema as configSchema };
