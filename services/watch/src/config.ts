import { z } from 'zod';
import { baseEnv, databaseEnv, env, loadConfig, signingKeysEnv } from '@evidence-record/platform';

/** The watch service's environment, parsed once at start-up. */
export const WatchConfigSchema = z.object({
  ...baseEnv,
  /** This service's keys (one, or two during a rotation): it accepts only requests the gateway signed with one of them (decision 0313). Required. */
  WATCH_SIGNING_KEYS: signingKeysEnv,
  PORT: env.port(8104),
  DATABASE_URL: env.databaseUrl,
  ...databaseEnv,
  NATS_URL: env.natsUrl,
  NATS_PREFIX: env.prefix,
  /** Replicas of a stream this service creates; an existing stream keeps its own (decision 2340). */
  NATS_STREAM_REPLICAS: env.natsStreamReplicas,
  /** Durable consumer on the SIGNALS stream shared by every watch replica. */
  FANOUT_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/).default('watch-fanout'),
  /** How long a replica may hold a Signal event before JetStream gives it to another (a 10,000-watcher fan-out takes seconds). */
  FANOUT_ACK_WAIT_MS: z.coerce.number().int().min(1_000).max(600_000).default(120_000),
});
export type WatchConfig = z.infer<typeof WatchConfigSchema>;

export function loadWatchConfig(source: NodeJS.ProcessEnv = process.env): WatchConfig {
  return loadConfig(WatchConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { WatchConfigSchema as configSchema };
