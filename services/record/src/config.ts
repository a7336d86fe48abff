import { z } from 'zod';
import { baseEnv, databaseEnv, databaseReadEnv, env, loadConfig, signingKeysEnv } from '@evidence-record/platform';

const RecordConfigSchema = z.object({
  ...baseEnv,
  /** This service's keys (one, or two during a rotation): it accepts only requests the gateway signed with one of them (decision 0313). Required. */
  RECORD_SIGNING_KEYS: signingKeysEnv,
  PORT: env.port(8101),
  DATABASE_URL: env.databaseUrl,
  ...databaseEnv,
  ...databaseReadEnv,
  /** Signals named in history answers carry their permanent public address. */
  PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
});

export type RecordConfig = z.infer<typeof RecordConfigSchema>;

export function loadRecordConfig(source: NodeJS.ProcessEnv = process.env): RecordConfig {
  return loadConfig(RecordConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { RecordConfigSchema as configSchema };
