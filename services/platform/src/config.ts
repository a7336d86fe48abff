import { z } from 'zod';

/**
 * Configuration comes from the environment only, parsed once at start-up.
 * A bad value stops the process with a message naming the variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

/** Variables every service reads. */
export const baseEnv = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
};

export const env = {
  port,
  databaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL'),
  natsUrl: z.string().regex(/^(nats|tls):\/\//, 'must be a nats:// URL'),
  httpUrl: z.string().url(),
  prefix: z.string().regex(/^[A-Za-z0-9_:.-]*$/, 'letters, digits, _ : . - only').default(''),
};
