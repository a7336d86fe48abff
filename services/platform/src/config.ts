import { z } from 'zod';
import type { PoolOptions } from './db';
import { parseNatsUrl } from './nats';

/**
 * Configuration comes from the environment only, parsed once at start-up.
 * A bad value stops the process with a message naming the variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  // Names and reasons only: a value may be a secret (a URL with a password), so it is never echoed.
  const lines = parsed.error.issues.map((i) => {
    const name = i.path.join('.') || '(env)';
    const unset = i.code === 'invalid_type' && i.path.length === 1 && env[String(i.path[0])] === undefined;
    return `  ${name}: ${unset ? 'required, but not set' : i.message}`;
  });
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * For entrypoints: the configuration, or exit 1 with one clear message
 * naming each bad variable (no stack trace, which would say nothing more).
 */
export function configOrExit<T>(service: string, load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${service}: ${err.message}\n`);
    process.exit(1);
  }
}

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

/** Variables every service reads. */
export const baseEnv = {
  /**
   * Address the HTTP server listens on. Loopback by default, so that a service
   * started on a workstation is reachable only from it; the chart sets 0.0.0.0
   * (a pod is reached on its own IP), and so does the container image.
   */
  LISTEN_HOST: z.union([z.ipv4(), z.ipv6(), z.literal('localhost')]).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /** OTLP/HTTP base URL (e.g. http://otel-collector:4318); unset: no spans are exported (trace context still propagates). */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** Milliseconds between two span exports (the OpenTelemetry variable of the same name). */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(10).max(60_000).default(5_000),
};

export const env = {
  port,
  databaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL'),
  /** One server or a cluster's, comma-separated (nats://n1:4222,nats://n2:4222,…); every connection knows all of them (decision 2340). */
  natsUrl: z.string().superRefine((value, ctx) => {
    const parsed = parseNatsUrl(value);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message });
  }),
  /**
   * NATS_STREAM_REPLICAS: replicas of a JetStream stream when a service creates it (3 on a three-node cluster; 1 on
   * one server, which refuses more). An existing stream keeps its replicas whatever this says (decision 2340).
   */
  natsStreamReplicas: z.coerce.number().int().min(1, 'from 1 to 5').max(5, 'from 1 to 5 (JetStream keeps at most 5 replicas)').default(1),
  httpUrl: z.string().url(),
  prefix: z.string().regex(/^[A-Za-z0-9_:.-]*$/, 'letters, digits, _ : . - only').default(''),
};

/**
 * How every service that talks to Postgres connects (decision 2320). `DATABASE_NAMED_STATEMENTS=off` behind a
 * pooler in transaction mode that does not track prepared statements (PgBouncer before 1.21, or without
 * `max_prepared_statements`).
 */
export const databaseEnv = {
  DATABASE_NAMED_STATEMENTS: z.enum(['on', 'off']).default('on'),
};

const unsetWhenEmpty = (v: unknown) => (v === '' ? undefined : v);

/**
 * The read replica of the services that read only snapshots of the Record (record, signals, ledger):
 * a streaming standby of DATABASE_URL's database, used for a read only once it has replayed the primary's
 * newest record version (decision 2320). Unset (or empty): every read goes to DATABASE_URL.
 */
export const databaseReadEnv = {
  DATABASE_READ_URL: z.preprocess(unsetWhenEmpty, env.databaseUrl.optional()),
  /** How long a read waits for the replica (its connection, then its caught-up check) before the primary answers. */
  DATABASE_READ_TIMEOUT_MS: z.coerce.number().int().min(20).max(10_000).default(500),
  /** After the replica failed, reads go to the primary this long before the replica is tried again. */
  DATABASE_READ_RETRY_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
};

/** createPool's options from a service's database settings (databaseEnv, and databaseReadEnv where the service reads it). */
export function databasePoolOptions(config: {
  DATABASE_NAMED_STATEMENTS: 'on' | 'off';
  DATABASE_READ_URL?: string | undefined;
  DATABASE_READ_TIMEOUT_MS?: number;
  DATABASE_READ_RETRY_MS?: number;
}): Pick<PoolOptions, 'namedStatements' | 'readReplica'> {
  return {
    namedStatements: config.DATABASE_NAMED_STATEMENTS === 'on',
    ...(config.DATABASE_READ_URL
      ? { readReplica: { url: config.DATABASE_READ_URL, timeoutMs: config.DATABASE_READ_TIMEOUT_MS, retryAfterMs: config.DATABASE_READ_RETRY_MS } }
      : {}),
  };
}
