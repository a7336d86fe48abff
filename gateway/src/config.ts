import { z } from 'zod';
import { MIN_UNSUBSCRIBE_KEY_LENGTH, mcpSiteSettings, type McpSitePolicy } from '@evidence-record/contract';
import { baseEnv, checkRedisSettings, databaseEnv, env, loadConfig, redisEnv, signingKeysEnv, type RedisMode, type RedisSettings } from '@evidence-record/platform';

/**
 * The gateway's environment. Upstreams default to the fixed local ports of
 * the architecture so that `npm run up` needs no extra variables.
 */
const unsubscribeKey = z.string().min(MIN_UNSUBSCRIBE_KEY_LENGTH, `at least ${MIN_UNSUBSCRIBE_KEY_LENGTH} characters`);

export const GatewayConfigSchema = z.object({
  ...baseEnv,
  NODE_ENV: z.string().default('development'),
  GATEWAY_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PORT: env.port(8080),
  DATABASE_URL: env.databaseUrl,
  ...databaseEnv,
  /** REDIS_URL, REDIS_MODE (standalone, cluster, sentinel), REDIS_SENTINEL_NAME, REDIS_SENTINEL_PASSWORD (decision 2300). */
  ...redisEnv,
  REDIS_PREFIX: env.prefix,
  RECORD_URL: env.httpUrl.default('http://127.0.0.1:8101'),
  SIGNALS_URL: env.httpUrl.default('http://127.0.0.1:8102'),
  LEDGER_URL: env.httpUrl.default('http://127.0.0.1:8103'),
  WATCH_URL: env.httpUrl.default('http://127.0.0.1:8104'),
  MCP_URL: env.httpUrl.default('http://127.0.0.1:8105'),
  PUBLIC_BASE_URL: env.httpUrl.default('http://127.0.0.1:8080'),
  /** Deadline for one upstream capability answer, connection to last byte. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** An MCP tool call fans back into the gateway, so it gets a longer deadline. */
  MCP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /**
   * Verifies the one-click unsubscribe links of alert emails (the email worker signs with the same key).
   * Required in production. During a rotation the old key stays here as UNSUBSCRIBE_SIGNING_KEY_PREVIOUS until
   * the links it signed have expired (docs/watch-and-alerts.md).
   */
  UNSUBSCRIBE_SIGNING_KEY: unsubscribeKey.optional(),
  UNSUBSCRIBE_SIGNING_KEY_PREVIOUS: unsubscribeKey.optional(),
  /** Requests one unsubscribe link may make per window (GET page, POST, retries of a mail provider). */
  UNSUBSCRIBE_RATE_PER_TOKEN: z.coerce.number().int().min(1).max(1000).default(10),
  UNSUBSCRIBE_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * Where /mcp may be called from, checked before the key is read: the same variables, defaults and rule
   * as the MCP service's (the contract's mcpSiteRefusal, decision 0602).
   */
  ...mcpSiteSettings,
  /** Benchmark only: `off` skips every check (see docs/gateway.md). Refused in production. */
  GATEWAY_CHECKS: z.enum(['on', 'off']).default('on'),
  /**
   * The keys of the requests forwarded to each service (decision 0313): one set per service, each service holding only
   * its own; the first key of each signs. Required.
   */
  RECORD_SIGNING_KEYS: signingKeysEnv,
  SIGNALS_SIGNING_KEYS: signingKeysEnv,
  LEDGER_SIGNING_KEYS: signingKeysEnv,
  WATCH_SIGNING_KEYS: signingKeysEnv,
  MCP_SIGNING_KEYS: signingKeysEnv,
})
  .refine((e) => e.NODE_ENV !== 'production' || e.UNSUBSCRIBE_SIGNING_KEY !== undefined, {
    message: 'required in production: the unsubscribe links of alert emails must be verifiable',
    path: ['UNSUBSCRIBE_SIGNING_KEY'],
  })
  .superRefine(checkRedisSettings);

/** The services the gateway forwards to. */
export type UpstreamName = 'record' | 'signals' | 'ledger' | 'watch' | 'mcp';

export interface GatewayConfig {
  port: number;
  /** LISTEN_HOST (127.0.0.1 unless set; the chart and the image set 0.0.0.0). */
  listenHost?: string;
  /** The key each service's requests are signed with (internal-auth in @evidence-record/platform): the first of its keys. */
  signingKeys: Record<UpstreamName, string>;
  databaseUrl: string;
  /** Off behind a pooler that does not track prepared statements (decision 2320). */
  databaseNamedStatements?: boolean;
  redisUrl: string;
  /** REDIS_MODE: absent means standalone (one server at redisUrl). */
  redisMode?: RedisMode;
  /** With REDIS_MODE=sentinel: the primary's name, and the Sentinels' own password if they have one. */
  redisSentinelName?: string | undefined;
  redisSentinelPassword?: string | undefined;
  redisPrefix: string;
  upstreams: Record<UpstreamName, string>;
  publicBaseUrl: string;
  /** Where /mcp may be called from (MCP_ALLOWED_HOSTS, MCP_ALLOWED_ORIGINS); the rule is the contract's, shared with the MCP service. */
  mcpSite: McpSitePolicy;
  upstreamTimeoutMs: number;
  mcpTimeoutMs: number;
  checks: boolean;
  nodeEnv: string;
  logLevel: string;
  shutdownGraceMs: number;
  /** OTLP/HTTP base URL; unset: spans are not exported (trace context still propagates). */
  otelEndpoint?: string | undefined;
  otelExportDelayMs?: number;
  /** The one-click unsubscribe of alert emails; absent: /unsubscribe answers 503 (never in production). */
  unsubscribe?: { keys: string[]; perToken: number; windowSeconds: number };
}

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const e = loadConfig(GatewayConfigSchema, source);
  return {
    port: e.GATEWAY_PORT ?? e.PORT,
    listenHost: e.LISTEN_HOST,
    signingKeys: { record: e.RECORD_SIGNING_KEYS[0]!, signals: e.SIGNALS_SIGNING_KEYS[0]!, ledger: e.LEDGER_SIGNING_KEYS[0]!, watch: e.WATCH_SIGNING_KEYS[0]!, mcp: e.MCP_SIGNING_KEYS[0]! },
    databaseUrl: e.DATABASE_URL,
    databaseNamedStatements: e.DATABASE_NAMED_STATEMENTS === 'on',
    redisUrl: e.REDIS_URL,
    redisMode: e.REDIS_MODE,
    redisSentinelName: e.REDIS_SENTINEL_NAME,
    redisSentinelPassword: e.REDIS_SENTINEL_PASSWORD,
    redisPrefix: e.REDIS_PREFIX,
    upstreams: { record: e.RECORD_URL, signals: e.SIGNALS_URL, ledger: e.LEDGER_URL, watch: e.WATCH_URL, mcp: e.MCP_URL },
    publicBaseUrl: e.PUBLIC_BASE_URL,
    mcpSite: { hosts: e.MCP_ALLOWED_HOSTS, origins: e.MCP_ALLOWED_ORIGINS },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    mcpTimeoutMs: e.MCP_TIMEOUT_MS,
    checks: e.GATEWAY_CHECKS === 'on',
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelExportDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
    ...(e.UNSUBSCRIBE_SIGNING_KEY
      ? {
          unsubscribe: {
            keys: [e.UNSUBSCRIBE_SIGNING_KEY, ...(e.UNSUBSCRIBE_SIGNING_KEY_PREVIOUS ? [e.UNSUBSCRIBE_SIGNING_KEY_PREVIOUS] : [])],
            perToken: e.UNSUBSCRIBE_RATE_PER_TOKEN,
            windowSeconds: e.UNSUBSCRIBE_RATE_WINDOW_SECONDS,
          },
        }
      : {}),
  };
}

/** How this gateway reaches Redis (createRedis in @evidence-record/platform). */
export function redisSettingsOf(config: Pick<GatewayConfig, 'redisUrl' | 'redisMode' | 'redisSentinelName' | 'redisSentinelPassword'>): RedisSettings {
  return { mode: config.redisMode ?? 'standalone', url: config.redisUrl, sentinelName: config.redisSentinelName, sentinelPassword: config.redisSentinelPassword };
}

/** The checks switch exists for the benchmark; a production process never runs without checks. */
export function assertChecksAllowed(config: Pick<GatewayConfig, 'checks' | 'nodeEnv'>): void {
  if (!config.checks && config.nodeEnv === 'production') {
    throw new Error('GATEWAY_CHECKS=off is refused when NODE_ENV=production: it would serve the Record without keys, limits or budgets');
  }
}

/** Every variable this service reads (the stack's one configuration is derived from these: scripts/registry/stack-env.ts). */
export { GatewayConfigSchema as configSchema };
