import { z } from 'zod';
import { baseEnv, env, loadConfig } from '@evidence-record/platform';

/** The console reads the stack's shared configuration (the same ConfigMap/Secrets in Kubernetes, .run/stack.env locally). */
export const consoleEnv = z.object({
  ...baseEnv,
  PORT: env.port(8107),
  DATABASE_URL: env.databaseUrl,
  NATS_URL: env.natsUrl.default('nats://127.0.0.1:4222'),
  NATS_PREFIX: env.prefix,
  PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  /** Signs the session cookie; 32+ characters. Unset: a key drawn once and kept in the database (console_settings). */
  CONSOLE_SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  /** Set when a TLS-terminating proxy sits in front (its X-Forwarded-Proto is then trusted). */
  CONSOLE_TRUST_PROXY: z.enum(['0', '1']).default('0'),
});

export function loadConsoleConfig(source: NodeJS.ProcessEnv = process.env) {
  return loadConfig(consoleEnv, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { consoleEnv as configSchema };
