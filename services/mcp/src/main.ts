import { bootService, createAccessLogger, serveService } from '@evidence-record/platform';
import { createMcpApp } from './app';
import { loadMcpConfig } from './config';

/**
 * Entrypoint: load config, serve POST /mcp, and on SIGTERM stop taking new
 * requests, let in-flight tool calls finish, then drop the gateway connections.
 */
const { config, log } = bootService('mcp', loadMcpConfig);
const mcp = createMcpApp(config, { log, accessLog: createAccessLogger('mcp', config.LOG_LEVEL), internalAuth: { service: 'mcp', keys: config.MCP_SIGNING_KEYS } });

await serveService(mcp.app, { config, log }, { onShutdown: async () => mcp.gateway.close() });
log.info({ gateway: config.GATEWAY_URL, tools: mcp.catalogue.listed.length }, 'mcp ready');
