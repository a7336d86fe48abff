import { z } from 'zod';
import { baseEnv, databaseEnv, env, loadConfig } from '@evidence-record/platform';

/** The console reads the stack's shared configuration (the same ConfigMap/Secrets in Kubernetes, .run/stack.env locally). */
export const consoleEnv = z
  .object({
    ...baseEnv,
    PORT: env.port(8107),
    DATABASE_URL: env.databaseUrl,
    ...databaseEnv,
    NATS_URL: env.natsUrl.default('nats://127.0.0.1:4222'),
    NATS_PREFIX: env.prefix,
    /** Replicas of a stream this service creates; an existing stream keeps its own (decision 2340). */
    NATS_STREAM_REPLICAS: env.natsStreamReplicas,
    PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
    NODE_ENV: z.string().default('development'),
    /**
     * Signs the session cookie and the sign-in form's token; 32+ characters, from a Secret (the chart's, or
     * .run/console-session-secret locally), never from the database, where it would sit beside the session ids.
     * Required in production; elsewhere, unset, each process draws its own (sessions end when it restarts).
     */
    CONSOLE_SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
    /** Set when a TLS-terminating proxy sits in front (its X-Forwarded-Proto is then trusted). */
    CONSOLE_TRUST_PROXY: z.enum(['0', '1']).default('0'),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.CONSOLE_SESSION_SECRET !== undefined, {
    message: 'required in production: the key that signs console sessions comes from a Secret (the chart creates one)',
    path: ['CONSOLE_SESSION_SECRET'],
  });

export function loadConsoleConfig(source: NodeJS.ProcessEnv = process.env) {
  return loadConfig(consoleEnv, source);
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { consoleEnv as configSchema };
