import { configOrExit, createLogger, initTracing, startService } from '@evidence-record/platform';
import { createMcpApp } from './app';
import { loadMcpConfig } from './config';

/**
 * Entrypoint: load config, serve POST /mcp, and on SIGTERM stop taking new
 * requests, let in-flight tool calls finish, then drop the gateway connections.
 */
const config = configOrExit('mcp', () => loadMcpConfig());
const log = createLogger('mcp', config.LOG_LEVEL);
initTracing({ service: 'mcp', endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, exportDelayMs: config.OTEL_BSP_SCHEDULE_DELAY, log });
const mcp = createMcpApp(config, { log, internalAuth: { keys: config.INTERNAL_SIGNING_KEYS } });

await startService(mcp.app, {
  port: config.PORT,
  host: config.LISTEN_HOST,
  log,
  graceMs: config.SHUTDOWN_GRACE_MS,
  onShutdown: async () => mcp.gateway.close(),
});
log.info({ gateway: config.GATEWAY_URL, tools: mcp.catalogue.listed.length }, 'mcp ready');
