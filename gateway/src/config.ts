import { z } from 'zod';
import { baseEnv, env, loadConfig } from '@evidence-record/platform';

/**
 * The gateway's environment. Upstreams default to the fixed local ports of
 * the architecture so that `npm run up` needs no extra variables.
 */
export const GatewayConfigSchema = z.object({
  ...baseEnv,
  NODE_ENV: z.string().default('development'),
  GATEWAY_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  PORT: env.port(8080),
  DATABASE_URL: env.databaseUrl,
  REDIS_URL: env.redisUrl,
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
  /** Benchmark only: `off` skips every check (see docs/gateway.md). Refused in production. */
  GATEWAY_CHECKS: z.enum(['on', 'off']).default('on'),
});

export interface GatewayConfig {
  port: number;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  upstreams: { record: string; signals: string; ledger: string; watch: string; mcp: string };
  publicBaseUrl: string;
  upstreamTimeoutMs: number;
  mcpTimeoutMs: number;
  checks: boolean;
  nodeEnv: string;
  logLevel: string;
  shutdownGraceMs: number;
  /** OTLP/HTTP base URL; unset: spans are not exported (trace context still propagates). */
  otelEndpoint?: string | undefined;
  otelExportDelayMs?: number;
}

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const e = loadConfig(GatewayConfigSchema, source);
  return {
    port: e.GATEWAY_PORT ?? e.PORT,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    upstreams: { record: e.RECORD_URL, signals: e.SIGNALS_URL, ledger: e.LEDGER_URL, watch: e.WATCH_URL, mcp: e.MCP_URL },
    publicBaseUrl: e.PUBLIC_BASE_URL,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    mcpTimeoutMs: e.MCP_TIMEOUT_MS,
    checks: e.GATEWAY_CHECKS === 'on',
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelExportDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
  };
}

/** The checks switch exists for the benchmark; a production process never runs without checks. */
export function assertChecksAllowed(config: Pick<GatewayConfig, 'checks' | 'nodeEnv'>): void {
  if (!config.checks && config.nodeEnv === 'production') {
    throw new Error('GATEWAY_CHECKS=off is refused when NODE_ENV=production: it would serve the Record without keys, limits or budgets');
  }
}
