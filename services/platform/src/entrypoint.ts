import type express from 'express';
import { configOrExit } from './config';
import { startService, type RunningService, type StartServiceOptions } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { initTracing } from './tracing';

/** The variables of `baseEnv` and the PORT an entrypoint starts from (every service's configuration has them). */
export interface EntrypointConfig {
  PORT: number;
  LISTEN_HOST: string;
  SHUTDOWN_GRACE_MS: number;
  LOG_LEVEL: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_BSP_SCHEDULE_DELAY: number;
}

/**
 * What every service's entrypoint does first: its configuration (or exit 1
 * naming each bad variable), its logger at LOG_LEVEL, and tracing.
 */
export function bootService<C extends EntrypointConfig>(name: string, load: () => C): { config: C; log: Logger } {
  const config = configOrExit(name, load);
  const log = createLogger(name, config.LOG_LEVEL);
  initTracing({ service: name, endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, exportDelayMs: config.OTEL_BSP_SCHEDULE_DELAY, log });
  return { config, log };
}

/**
 * startService as every entrypoint calls it: on PORT and LISTEN_HOST, with
 * SHUTDOWN_GRACE_MS to drain; the service adds what its shutdown stops
 * (onDrain) and closes (onShutdown).
 */
export function serveService(
  app: express.Express,
  boot: { config: EntrypointConfig; log: Logger },
  steps: Pick<StartServiceOptions, 'onDrain' | 'onShutdown'> = {},
): Promise<RunningService> {
  return startService(app, { port: boot.config.PORT, host: boot.config.LISTEN_HOST, log: boot.log, graceMs: boot.config.SHUTDOWN_GRACE_MS, ...steps });
}
