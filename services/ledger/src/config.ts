import { z } from 'zod';
import { baseEnv, databaseEnv, databaseReadEnv, env, loadConfig, signingKeysEnv } from '@evidence-record/platform';

export const LedgerConfigSchema = z.object({
  ...baseEnv,
  /** This service's keys (one, or two during a rotation): it accepts only requests the gateway signed with one of them (decision 0313). Required. */
  LEDGER_SIGNING_KEYS: signingKeysEnv,
  PORT: env.port(8103),
  DATABASE_URL: env.databaseUrl,
  ...databaseEnv,
  ...databaseReadEnv,
  /** Signals named in an edition answer carry their permanent public address. */
  PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** An open edition is a report over the whole covered set; it gets longer than a lookup. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
});

export type LedgerConfig = z.infer<typeof LedgerConfigSchema>;

export function loadLedgerConfig(source: NodeJS.ProcessEnv = process.env): LedgerConfig {
  return loadConfig(LedgerConfigSchema, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { LedgerConfigSchema as configSchema };
